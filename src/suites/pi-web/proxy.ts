/**
 * pi-web through `agentwire proxy`: each client socket is a "main" connection (as the probes'
 * driving one), and the client's commands get the labels of the probe commands they stand for,
 * by the state the relayed events show: a prompt while idle is a run prompt, get_messages right
 * after a run is a history query, get_state a state query.
 */
import { PI_WEB_WS_PATH } from "../../mocks/pi-web/options.js";
import { NEEDS_MOCK, NEEDS_TEST, UNROUTED, type HttpClassifier, type ProxyAdapter, type WsClassifier } from "../../proxy/adapter.js";
import { C, M } from "./labels.js";

/** The labels relayed commands get (none of the probes' scenario names: the client chose the prompt). */
const RELAYED = { prompt: M.prompt("relayed"), history: M.history("relayed"), state: "state:relayed", sessions: "sessions:relayed" };

function typeOf(data: string): string | undefined {
  if (!data.startsWith("{")) return undefined;
  try {
    const v = JSON.parse(data) as { type?: unknown };
    return typeof v.type === "string" ? v.type : undefined;
  } catch {
    return undefined;
  }
}

function wsClassifier(): WsClassifier {
  /** A run is open (agent_start seen, agent_end not yet), and whether one ended since the last command. */
  let running = false;
  let justEnded = false;
  return {
    label: C.main,
    frame(direction, data) {
      // Of the server's frames only the run's brackets matter here: most are not parsed at all.
      if (direction === "in" && !data.includes('"agent_')) return undefined;
      const type = typeOf(data);
      if (direction === "in") {
        if (type === "agent_start") running = true;
        else if (type === "agent_end") {
          running = false;
          justEnded = true;
        }
        return undefined;
      }
      const after = justEnded;
      if (type !== "extension_ui_response") justEnded = false;
      switch (type) {
        // A prompt while a run is open is a queued or rejected one: no probe sends that unasked.
        case "prompt":
          return running ? undefined : RELAYED.prompt;
        case "get_messages":
          return after && !running ? RELAYED.history : undefined;
        case "get_state":
          return RELAYED.state;
        case "list_sessions":
          return RELAYED.sessions;
        default:
          return undefined;
      }
    },
  };
}

function classifier(): HttpClassifier {
  return {
    classify: (req) =>
      (req.method === "GET" || req.method === "HEAD") && req.path.split("?")[0] === "/health"
        ? { label: M.health, clientLabel: "health", stream: false }
        : { label: UNROUTED, clientLabel: "unknown", stream: false },
  };
}

export const piWebProxy: ProxyAdapter = {
  protocol: "pi-web",
  transport: "ws",
  // As the mock prints it: ws://host:port/ws (the target's own WebSocket path when it names one).
  clientUrl: (base, targetPath) => `${base.replace(/^http/, "ws")}${targetPath === "/" || targetPath === "" ? PI_WEB_WS_PATH : targetPath.replace(/\/+$/, "")}`,
  // A relayed prompt may start any kind of run (text, tools, a queue): the rules on runs judge whatever it started.
  labels: ["upgrade", "all", "prompt:*", M.prompt("tool"), M.prompt("two-tools"), "prompt:queue-*", "history:*", "messages:*", "state:*", "sessions:*", M.health],
  classifier,
  wsClassifier,
  recordsUpgrades: true,
  errorBody: (message) => ({ error: message }),
  needsKit: [
    {
      ids: [
        // The probes pair these commands with what they know of the run they started.
        "pi-web/conn/other-path-404",
        "pi-web/conn/token-401",
        "pi-web/conn/origin-403",
        "pi-web/rpc/response-unicast",
        "pi-web/session/changed",
        "pi-web/fanout/broadcast",
        "pi-web/cmd/list-sessions",
        "pi-web/stream/incremental",
      ],
      reason: NEEDS_TEST,
    },
  ],
  needsMock: [
    // It reads how the mock shut down under the client; a real server's frames (its dialogs, its
    // runs) are what the other client rules read of the mock, so they run on relayed traffic.
    { ids: ["pi-web/client/reconnect-resync"], reason: NEEDS_MOCK },
  ],
};
