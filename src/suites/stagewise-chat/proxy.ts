/**
 * stagewise-chat through `agentwire proxy`: discovery is the probes' `info` exchange, each toolbar
 * socket a "main" connection, and the toolbar's subscriptions get the probes' labels (the first
 * chat subscription is subscription A, whose updates the chat rules reduce and compare).
 */
import { INFO_PATH, WS_PATH } from "../../mocks/stagewise-chat/pace.js";
import { mirrorPath, NEEDS_MOCK, NEEDS_TEST, UNROUTED, type HttpClassifier, type ProxyAdapter, type WsClassifier } from "../../proxy/adapter.js";
import { FIRST_PORT, LAST_PORT } from "../../stagewise/adapter/ports.js";
import { C, M, X } from "./labels.js";
import { ownEntry } from "../../core/checks/check-helpers.js";

/** Subscription procedures and the labels the probes give them (the chat one: A, first only). */
const SUBSCRIPTIONS: Record<string, string> = {
  "availability.getAvailability": M.subAvailability,
  "state.getState": M.subState,
  "messaging.getMessage": M.subMessaging,
};

function requestOf(data: string): { method?: unknown; path?: unknown } | undefined {
  if (!data.startsWith("{")) return undefined;
  try {
    const v = JSON.parse(data) as { method?: unknown; params?: { path?: unknown } };
    return { method: v.method, path: v.params?.path };
  } catch {
    return undefined;
  }
}

function classifier(): HttpClassifier {
  return {
    classify: (req) =>
      req.path.split("?")[0] === INFO_PATH ? { label: X.info, clientLabel: "discovery", stream: false } : { label: UNROUTED, clientLabel: "http", stream: false },
  };
}

/** One per proxy: subscription A is the first chat subscription the toolbar takes, on any socket. */
function wsClassifiers(): (path: string) => WsClassifier {
  let chatSubscribed = false;
  return () => ({
    label: C.main,
    frame(direction, data) {
      if (direction !== "out") return undefined;
      const r = requestOf(data);
      if (r?.method !== "subscription" || typeof r.path !== "string") return undefined;
      if (r.path.endsWith("getChatUpdates") && !chatSubscribed) {
        chatSubscribed = true;
        return M.subA;
      }
      return ownEntry(SUBSCRIPTIONS, r.path);
    },
  });
}

export function stagewiseChatProxy(): ProxyAdapter {
  return {
    protocol: "stagewise-chat",
    transport: "ws",
    // As the mock prints it: the agent's origin, from which the toolbar finds discovery and the socket.
    clientUrl: mirrorPath,
    labels: ["discovery", "connect", "subscribe", "turn"],
    classifier,
    wsClassifier: wsClassifiers(),
    discoveryPorts: [FIRST_PORT, LAST_PORT],
    errorBody: (message) => ({ error: message }),
    needsKit: [
      {
        ids: [
          // The probes know where the agent listens, what they prompted, and which mutation they
          // expect to be refused; the toolbar's own requests carry none of that.
          "stagewise-chat/wire/port-range",
          "stagewise-chat/security/ws-foreign-origin",
          // Comparisons with fresh subscriptions the probes take at chosen moments.
          "stagewise-chat/messaging/no-replay",
          "stagewise-chat/messaging/reduced-equals-fresh",
          "stagewise-chat/chat/snapshot-equals-reduced",
          "stagewise-chat/chat/seq-global",
          // Mutations the probes send expecting a success or a named refusal, and their long prompt.
          "stagewise-chat/chat/send-message",
          "stagewise-chat/chat/send-returns-promptly",
          "stagewise-chat/chat/update-title",
          "stagewise-chat/chat/stream-incremental",
          "stagewise-chat/chat/reject-",
        ],
        reason: NEEDS_TEST,
      },
    ],
    needsMock: [{ ids: ["stagewise-chat/chat/client-resubscribe", "stagewise-chat/chat/client-last-event-id"], reason: NEEDS_MOCK }],
  };
}

/** The default path of the agent's socket, for the tests. */
export const STAGEWISE_WS_PATH = WS_PATH;
