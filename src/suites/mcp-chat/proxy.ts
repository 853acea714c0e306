/**
 * mcp-chat through `agentwire proxy`: a client's requests get the labels of the probes that send
 * the same request, and GET /status is named by the state the relayed traffic left the backend in
 * (after a connect, after a disconnect), as the probes name theirs. The same state, and the ids of
 * the last listing, go with each request as the mock's `meta`, for the client rules that read it.
 * Until the client fetches GET /servers through the proxy, no listing is known: a rule about
 * listed ids then has nothing to judge it by.
 */
import { matchRoute } from "../../mocks/mcp-chat/routes.js";
import { mirrorPath, NEEDS_TEST, UNROUTED, type HttpClassifier, type HttpNames, type ProxiedRequest, type ProxyAdapter } from "../../proxy/adapter.js";
import { L } from "./labels.js";
import { listedServers } from "./listing.js";

function classifier(): HttpClassifier {
  /** What the last successful connect or disconnect left: status answers are judged by it. */
  let state: "unknown" | "connected" | "disconnected" = "unknown";
  /** The ids of the last listing the client was served (the mock's `listedIds`). */
  let listedIds: string[] | undefined;
  /** The mock's `meta`, as far as the relayed traffic showed it (nothing before the first connect or listing). */
  const meta = (): Record<string, unknown> | undefined => {
    const m: Record<string, unknown> = {};
    if (state !== "unknown") m.connected = state === "connected";
    if (listedIds) m.listedIds = listedIds;
    return Object.keys(m).length ? m : undefined;
  };
  return {
    classify(req): HttpNames {
      const names = name(req);
      const m = meta();
      return m ? { ...names, meta: m } : names;
    },
    answered(names, _req, status) {
      if (status < 200 || status > 299) return;
      if (names.label === L.connect) state = "connected";
      else if (names.label === L.disconnect) state = "disconnected";
    },
    ended(names, _req, status, text) {
      if (names.label !== L.servers || status !== 200) return;
      // Read as the probes read a listing; an answer that is no listing leaves the last one known.
      const listed = listedServers(JSON.parse(text) as unknown);
      if (listed) listedIds = listed.map((s) => s.id);
    },
  };

  function name(req: ProxiedRequest): HttpNames {
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
  }
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
  ],
};
