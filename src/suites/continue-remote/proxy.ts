/**
 * continue-remote through `agentwire proxy`: polls of GET /state form the poll series the state
 * rules read, messages and permission answers get the probes' labels, and after a successful
 * POST /exit every request is one "after exit" (the target must be gone: the proxy's 502 says so).
 */
import { matchRoute } from "../../mocks/continue-remote/routes.js";
import { mirrorPath, NEEDS_TEST, UNROUTED, type HttpClassifier, type HttpNames, type ProxyAdapter } from "../../proxy/adapter.js";
import { L } from "./labels.js";

/** The phase of relayed polls: none of the probes' phases, whose before/after pairs the kit arranges. */
export const PROXIED_POLL = L.poll("relayed");

function classifier(): HttpClassifier {
  let messages = 0;
  let exited = false;
  return {
    classify(req): HttpNames {
      const path = req.path.split("?")[0]!;
      // Either generation's routes (`/pause` is the current server's only): the client's own choice.
      const route = matchRoute(path, true);
      const clientLabel = route?.name ?? "unknown";
      if (exited) return { label: L.afterExit, clientLabel, stream: false };
      const get = req.method === "GET" || req.method === "HEAD";
      switch (route?.name) {
        case "state":
          return { label: get ? PROXIED_POLL : UNROUTED, clientLabel, stream: false };
        case "message":
          return { label: req.method === "POST" ? L.message(`relayed-${++messages}`) : UNROUTED, clientLabel, stream: false };
        case "permission":
          return { label: req.method === "POST" ? L.permissionAnswer : UNROUTED, clientLabel, stream: false };
        case "diff":
          return { label: get ? L.diff : UNROUTED, clientLabel, stream: false };
        case "exit":
          return { label: req.method === "POST" ? L.postExit : UNROUTED, clientLabel, stream: false };
        default:
          return { label: UNROUTED, clientLabel, stream: false };
      }
    },
    answered(names, _req, status) {
      if (names.label === L.postExit && status >= 200 && status < 300) exited = true;
    },
  };
}

export const continueRemoteProxy: ProxyAdapter = {
  protocol: "continue-remote",
  transport: "http",
  clientUrl: mirrorPath,
  // The probe groups relayed traffic stands for (this suite's checks name groups, not labels).
  labels: ["every poll", "turn", "idle", "permission", "diff", "exit"],
  classifier,
  errorBody: (message) => ({ error: message }),
  needsKit: [
    {
      ids: [
        // Queued messages are judged by whether the probes sent them while a turn ran, a pause by
        // whether they paused a busy or an idle server: facts the probes publish, not the wire.
        "continue-remote/queue/",
        "continue-remote/state/queue-length",
        "continue-remote/pause/",
        "continue-remote/processing/message-not-lost",
        "continue-remote/permission/wrong-id",
        "continue-remote/permission/approved-boolean",
        "continue-remote/exit/post-only",
      ],
      reason: NEEDS_TEST,
    },
  ],
  needsMock: [],
};
