/**
 * The msw handlers compile no code at run time: a page whose Content-Security-Policy lacks 'unsafe-eval' runs them.
 * A node process started with --disallow-code-generation-from-strings (eval and `new Function` throw, as under such a
 * policy) drives every entry of the BUILT package (`agentwire/msw/<protocol>`, built by the global setup) through
 * msw's setupServer and gets ordinary answers.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const SCRIPT = String.raw`
import { setupServer } from "msw/node";
import { mcpChatHandlers } from "agentwire/msw/mcp-chat";
import { openaiChatHandlers } from "agentwire/msw/openai-chat";
import { continueRemoteHandlers } from "agentwire/msw/continue-remote";
import { piWebHandlers } from "agentwire/msw/pi-web";
import { stagewiseChatHandlers } from "agentwire/msw/stagewise-chat";

let evalBlocked = false;
try { new Function("return 1"); } catch { evalBlocked = true; }

const server = setupServer(
  ...mcpChatHandlers({ baseUrl: "http://localhost:8100" }),
  ...openaiChatHandlers({ baseUrl: "http://localhost:8101/v1" }),
  ...continueRemoteHandlers({ baseUrl: "http://localhost:8102" }),
  ...piWebHandlers({ url: "ws://localhost:8103/ws" }),
  ...stagewiseChatHandlers({ url: "http://localhost:8104" }),
);
server.listen({ onUnhandledRequest: "error" });

const out = { evalBlocked };
const json = { "content-type": "application/json" };

await fetch("http://localhost:8100/connect/weather", { method: "POST" });
const mcp = await fetch("http://localhost:8100/chat/stream", { method: "POST", headers: json, body: JSON.stringify({ message: "hi" }) });
out.mcpChat = { status: mcp.status, events: (await mcp.text()).split("\n\n").filter((e) => e.trim()).length };

const oa = await fetch("http://localhost:8101/v1/chat/completions", { method: "POST", headers: json, body: JSON.stringify({ model: "agentwire-mock", messages: [{ role: "user", content: "hi" }] }) });
out.openaiChat = { status: oa.status, object: (await oa.json()).object };

const state = await fetch("http://localhost:8102/state");
out.continueRemote = { status: state.status, isProcessing: (await state.json()).isProcessing };

/** A socket whose frames are parsed and kept; until() waits for one that matches. */
function open(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const got = [];
    const waiters = [];
    ws.onmessage = (e) => {
      got.push(JSON.parse(e.data));
      for (const w of waiters.splice(0)) w();
    };
    ws.onerror = () => reject(new Error("WebSocket error on " + url));
    const until = (pred) =>
      new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error("timed out on " + url + "; got " + JSON.stringify(got).slice(0, 500))), 10_000);
        const check = () => {
          const hit = got.find(pred);
          if (hit === undefined) return void waiters.push(check);
          clearTimeout(timer);
          done(hit);
        };
        check();
      });
    ws.onopen = () => resolve({ send: (v) => ws.send(JSON.stringify(v)), until, close: () => ws.close() });
  });
}

const pi = await open("ws://localhost:8103/ws");
pi.send({ id: "req_1", type: "prompt", message: "hi" });
out.piWeb = { agentEnd: (await pi.until((m) => m.type === "agent_end")).type };
pi.close();

const METADATA = { currentUrl: "http://localhost:3000/", currentTitle: "App", currentZoomLevel: 1, viewportResolution: { width: 1280, height: 800 }, devicePixelRatio: 2, userAgent: "Mozilla/5.0", locale: "en-US", selectedElements: [] };
const sw = await open("ws://localhost:8104/stagewise/ws");
const mutate = (id, path, input) => {
  sw.send({ id, method: "mutation", params: { path, input: { json: input } } });
  return sw.until((m) => m.id === id);
};
const created = await mutate(1, "chat.createChat", null);
const sent = await mutate(2, "chat.sendMessage", { chatId: created.result?.data?.json, content: [{ type: "text", text: "hi" }], metadata: METADATA });
const refused = await mutate(3, "chat.sendMessage", { chatId: "x", content: [] });
sw.close();
out.stagewiseChat = { created: typeof created.result?.data?.json, sent: typeof sent.result?.data?.json, refused: refused.error?.json?.message };
server.close();
console.log(JSON.stringify(out));
`;

describe("msw handlers without code generation from strings", () => {
  it("answer as usual in a process where eval and new Function throw", () => {
    // Node 20 has a global WebSocket only behind a flag (Node 22 has it by default).
    const wsFlag = process.allowedNodeEnvironmentFlags.has("--experimental-websocket") && typeof WebSocket === "undefined" ? ["--experimental-websocket"] : [];
    const run = spawnSync(process.execPath, [...wsFlag, "--disallow-code-generation-from-strings", "--input-type=module", "-e", SCRIPT], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    // Nothing printed besides the answer (ajv prints the source of a function it could not compile).
    expect(run.stderr.replace(/^.*ExperimentalWarning.*\n(\(Use `node --trace-warnings.*\n)?/gm, "")).toBe("");
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out).toEqual({
      evalBlocked: true,
      mcpChat: { status: 200, events: expect.any(Number) },
      openaiChat: { status: 200, object: "chat.completion" },
      continueRemote: { status: 200, isProcessing: false },
      piWeb: { agentEnd: "agent_end" },
      stagewiseChat: { created: "string", sent: "string", refused: expect.stringMatching(/^invalid input: /) },
    });
    expect((out.mcpChat as { events: number }).events).toBeGreaterThan(2);
  }, 90_000);
});
