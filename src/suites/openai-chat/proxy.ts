/**
 * openai-chat through `agentwire proxy`: each chat request gets the label of the probe that sends
 * the same kind of request (streamed or not, no tools, a forced tool, "required", tools left to the
 * model), so the response rules that key on those labels judge what the target answered.
 */
import { matchRoute } from "../../mocks/openai-chat/routes.js";
import { NEEDS_MOCK, NEEDS_TEST, UNROUTED, type HttpClassifier, type HttpNames, type ProxyAdapter } from "../../proxy/adapter.js";
import { L } from "./labels.js";

interface ChatBody {
  stream?: unknown;
  tools?: unknown;
  tool_choice?: unknown;
}

function chatLabel(body: ChatBody | undefined): { label: string; stream: boolean } {
  const stream = body?.stream === true;
  const tools = Array.isArray(body?.tools) && body.tools.length > 0;
  const choice = body?.tool_choice;
  if (tools && choice && typeof choice === "object") return { label: stream ? L.forcedStream : L.forcedSync, stream };
  if (tools && choice === "required" && stream) return { label: L.requiredStream, stream };
  if (tools && stream) return { label: L.continueShape, stream };
  return { label: stream ? L.textStream : L.textSync, stream };
}

function classifier(): HttpClassifier {
  return {
    classify(req): HttpNames {
      if (req.method === "OPTIONS") return { label: UNROUTED, clientLabel: "preflight", stream: false };
      const route = matchRoute(req.path.split("?")[0]!);
      const clientLabel = route?.name ?? "unknown";
      if (route?.name === "models") return { label: L.models, clientLabel, stream: false };
      // Other routes (a model's details, the Responses API) are no probe's: recorded, not judged.
      if (route?.name !== "chat-completions") return { label: UNROUTED, clientLabel, stream: false };
      let body: ChatBody | undefined;
      try {
        const parsed = JSON.parse(req.body) as unknown;
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as ChatBody;
      } catch {
        // A body that is not JSON is the client's mistake: its request check says so; the answer is still judged.
      }
      return { ...chatLabel(body), clientLabel };
    },
  };
}

export const openaiChatProxy: ProxyAdapter = {
  protocol: "openai-chat",
  transport: "http",
  // As the mock prints it: a bare host gets the client's /v1 base.
  clientUrl: (base, targetPath) => `${base}${targetPath === "/" || targetPath === "" ? "/v1" : targetPath.replace(/\/+$/, "")}`,
  labels: [L.models, L.textStream, L.textSync, L.forcedStream, L.forcedSync, L.requiredStream, L.continueShape],
  classifier,
  errorBody: (message) => ({ error: { message, type: "proxy_error", param: null, code: "target_unreachable" } }),
  needsKit: [
    {
      ids: [
        // The probes choose the prompt and pair requests: a long answer to judge pacing, the same
        // forced call streamed and not, a request shaped as the Continue IDE sends it.
        "openai-chat/timing/streams-incrementally",
        "openai-chat/tool-call/streaming-parity",
        "openai-chat/request/continue-shape-accepted",
      ],
      reason: NEEDS_TEST,
    },
  ],
  needsMock: [
    { ids: ["openai-chat/client-parse/"], reason: "needs `agentwire test-client`: the rule judges what the client's adapter reports for the kit's robustness cases" },
    {
      ids: ["openai-chat/client/history-matches-sent", "openai-chat/client/catalogue-coverage", "openai-chat/client/finishes-after-done", "openai-chat/client/tools-match-catalogue"],
      reason: NEEDS_MOCK,
    },
  ],
};
