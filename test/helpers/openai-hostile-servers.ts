/**
 * Misbehaving OpenAI-compatible backends for the openai-chat robustness tests: hostile answers
 * for every path, and a minimal well-behaved backend (GET /v1/models, JSON errors, non-streamed
 * completions) whose streams are hostile, so the stream rules meet the hostility.
 */
import type http from "node:http";
import { forever, SSE_HEAD, type Handler } from "./hostile-servers.js";

export { serve, closedPortUrl, runAgainst, type Handler, type Hostile } from "./hostile-servers.js";

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "chatcmpl-h1", object: "chat.completion.chunk", created: 1700000000, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

export const openaiBehaviours = {
  /** A 200 head, then not a byte, forever. */
  silent200: ((_req, res) => {
    res.writeHead(200, SSE_HEAD);
    res.flushHeaders();
  }) as Handler,
  /** Every answer is an HTML page with status 200. */
  html: ((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html>\n<html><head><title>Welcome</title></head>\n<body><h1>It works!</h1></body></html>\n");
  }) as Handler,
  /** The role chunk, half a chunk of JSON, then EOF. */
  stopsMidJson: ((_req, res) => {
    res.writeHead(200, SSE_HEAD);
    res.write(chunk({ role: "assistant", content: "" }));
    res.end('data: {"id": "chatcmpl-h1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": "Hel');
  }) as Handler,
  /** Valid content chunks every 50 ms, never [DONE], never the end of the body. */
  neverDone: ((_req, res) => {
    res.writeHead(200, SSE_HEAD);
    res.write(chunk({ role: "assistant", content: "" }));
    forever(res, 50, () => res.write(chunk({ content: "and " })));
  }) as Handler,
};

const error = (res: http.ServerResponse, status: number, message: string, code: string | null) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { message, type: "invalid_request_error", code } }));
};

/**
 * A minimal OpenAI-compatible backend serving model "m": /v1/models, 400/404 ErrorResponses, and
 * non-streamed completions (a call of the forced or first offered tool when tools are offered, else
 * text). Requests with `stream: true` go to `stream`.
 */
export function openaiBackendWithStream(stream: Handler): Handler {
  return (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname.replace(/^\/v1/, "");
    if (req.method === "GET" && path === "/models") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "m", object: "model", created: 1700000000, owned_by: "test" }] }));
      return;
    }
    if (req.method !== "POST" || path !== "/chat/completions") return error(res, 404, "Not found", "not_found");
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString()));
    req.on("end", () => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return error(res, 400, "Malformed JSON", "invalid_json");
      }
      const messages = body.messages;
      if (typeof body.model !== "string" || !Array.isArray(messages) || messages.length === 0) return error(res, 400, "model and messages are required", "invalid_request");
      if (messages.some((m) => !["system", "user", "assistant", "tool", "developer"].includes((m as { role?: string }).role ?? ""))) return error(res, 400, "invalid role", "invalid_request");
      const tools = Array.isArray(body.tools) ? (body.tools as { function?: { name?: unknown } }[]) : [];
      if (tools.some((t) => typeof t.function?.name !== "string")) return error(res, 400, "tools[].function.name is required", "invalid_request");
      if (body.model !== "m") return error(res, 404, `The model ${String(body.model)} does not exist`, "model_not_found");
      if (body.stream === true) return stream(req, res);
      const choice = body.tool_choice as { function?: { name?: string } } | string | undefined;
      const forced = typeof choice === "object" ? choice.function?.name : choice === "required" ? tools[0]?.function?.name : undefined;
      const message = forced
        ? { role: "assistant", content: null, tool_calls: [{ id: "call_h1", type: "function", function: { name: forced, arguments: '{"filepath":"README.md"}' } }] }
        : { role: "assistant", content: "Done." };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "chatcmpl-h2",
          object: "chat.completion",
          created: 1700000000,
          model: "m",
          choices: [{ index: 0, message, finish_reason: forced ? "tool_calls" : "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  };
}
