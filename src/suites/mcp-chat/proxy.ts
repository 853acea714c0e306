/**
 * mcp-chat through `agentwire proxy`: a client's requests get the labels of the probes that send
 * the same request, and GET /status is named by the state the relayed traffic left the backend in
 * (after a connect, after a disconnect), as the probes name theirs.
 */
import { matchRoute } from "../../mocks/mcp-chat/routes.js";
import { mirrorPath, NEEDS_MOCK, NEEDS_TEST, UNROUTED, type HttpClassifier, type HttpNames, type ProxyAdapter } from "../../proxy/adapter.js";
import { L } from "./labels.js";

function classifier(): HttpClassifier {
  /** What the last successful connect or disconnect left: status answers are judged by it. */
  let state: "unknown" | "connected" | "disconnected" = "unknown";
  return {
    classify(req): HttpNames {
      const path = req.path.split("?")[0]!;
      if (req.method === "OPTIONS") return { label: L.preflight(path), clientLabel: "preflight", stream: false };
      const route = matchRoute(path);
      const clientLabel = route?.name ?? "unknown";
      switch (route?.name) {
        case "servers":
          return { label: L.servers, clientLabel, stream: false };
        case "connect":
          return { label: L.connect, clientLabel, stream: false };
        case "disconnect":
          return { label: L.disconnect, clientLabel, stream: false };
        case "status":
          return { label: state === "connected" ? L.statusAfterConnect : state === "disconnected" ? L.statusAfterDisconnect : "status", clientLabel, stream: false };
        case "chat-stream":
          return { label: L.chatStream, clientLabel, stream: true };
        case "chat":
          return { label: L.chatSync, clientLabel, stream: false };
        default:
          return { label: UNROUTED, clientLabel, stream: false };
      }
    },
    answered(names, _req, status) {
      if (status < 200 || status > 299) return;
      if (names.label === L.connect) state = "connected";
      else if (names.label === L.disconnect) state = "disconnected";
    },
  };
}

export const mcpChatProxy: ProxyAdapter = {
  protocol: "mcp-chat",
  transport: "http",
  clientUrl: mirrorPath,
  labels: [L.servers, L.connect, L.disconnect, L.statusAfterConnect, L.statusAfterDisconnect, L.chatStream, L.chatSync, "preflight:<path>"],
  classifier,
  errorBody: (message) => ({ detail: message }),
  needsKit: [
    {
      ids: [
        // These compare answers to requests only the probes send in a known order (an unknown id,
        // a second server, a chat right after a confirmed disconnect).
        "mcp-chat/connect/unknown-id-keeps-state",
        "mcp-chat/state/",
        "mcp-chat/chat/disconnected-rejected",
        "mcp-chat/disconnect/clears-state",
        "mcp-chat/status/disconnected-shape",
      ],
      reason: NEEDS_TEST,
    },
  ],
  needsMock: [
    { ids: ["mcp-chat/client-parse/"], reason: "needs `agentwire test-client`: the rule judges what the client's adapter reports for the kit's robustness cases" },
    { ids: ["mcp-chat/client/connect-before-chat"], reason: NEEDS_MOCK },
  ],
};
