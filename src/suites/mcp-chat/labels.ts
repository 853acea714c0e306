/**
 * Exchange labels: the names probes give their exchanges and checks key on. One list, so a
 * renamed probe cannot silently starve a check.
 */

/** The seed file of the contract every check quotes. */
export const SEED = "002_f5cea501a704c7bf.txt";

/** The contract's paths, as preflighted ("{server_id}" is filled with a listed id). */
export const CONTRACT_PATHS = [
  { path: "/servers", method: "GET" },
  { path: "/connect/{server_id}", method: "POST" },
  { path: "/status", method: "GET" },
  { path: "/disconnect", method: "POST" },
  { path: "/chat/stream", method: "POST" },
  { path: "/chat", method: "POST" },
] as const;

export const BAD_INPUTS = [
  { name: "{}", body: "{}" },
  { name: '{"message":42}', body: '{"message":42}' },
  { name: '{"message":null}', body: '{"message":null}' },
  { name: '{"message":["hi"]}', body: '{"message":["hi"]}' },
  { name: "malformed-json", body: '{"message": "hi"' },
] as const;

export const L = {
  servers: "servers",
  preflight: (path: string) => `preflight:${path}`,
  foreignPreflight: "foreign-preflight:/chat/stream",
  foreignRequest: "foreign-request:/status",
  disconnectReset: "disconnect-reset",
  statusAfterReset: "status-after-reset",
  disconnectIdle: "disconnect-idle",
  connect: "connect",
  statusAfterConnect: "status-after-connect",
  connectUnknown: "connect-unknown",
  statusAfterUnknown: "status-after-unknown",
  connectB: "connect-b",
  statusAfterConnectB: "status-after-connect-b",
  reconnectB: "reconnect-b",
  statusAfterReconnect: "status-after-reconnect",
  connectForChat: "connect-for-chat",
  chatStream: "chat-stream",
  badInput: (name: string) => `bad-input:${name}`,
  chatSyncProbe: "chat-sync-probe",
  chatSync: "chat-sync",
  disconnect: "disconnect",
  statusAfterDisconnect: "status-after-disconnect",
  chatDisconnected: "chat-disconnected",
  connectRestore: "connect-restore",
} as const;

/** "Stream" in §4: every /chat/stream response observed — the happy path and the disconnected probe. */
export const STREAM_LABELS: ReadonlySet<string> = new Set([L.chatStream, L.chatDisconnected]);

export const isStreamLabel = (label: string): boolean => STREAM_LABELS.has(label);
export const isPreflightLabel = (label: string): boolean => label.startsWith("preflight:");
export const isBadInputLabel = (label: string): boolean => label.startsWith("bad-input:");
export const isForeignLabel = (label: string): boolean => label.startsWith("foreign-");

/** Labels of connects to a listed id whose body success-shape judges (the reconnect is separate). */
export const LISTED_CONNECT_LABELS: ReadonlySet<string> = new Set([L.connect, L.connectB, L.connectForChat, L.connectRestore]);

/** Facts the probes publish as note events. */
export const NOTE = {
  /** [{id, name}] of the listing, when it parsed as an array. */
  servers: "servers",
  /** {label, serverId, tools: string[]} after each 200 connect that returned a tools array. */
  connectedTools: "connected-tools",
  /** string[] | null: the tools of the connection the happy stream runs on. */
  chatTools: "chat-tools",
  /** {present: boolean, status?: number}. */
  chatSync: "chat-sync",
  /** boolean: /status confirmed the disconnect before the disconnected chat probe. */
  disconnectConfirmed: "disconnect-confirmed",
  /** string: why the probes stopped early. */
  stopped: "probes-stopped",
  /** {topic, reason}: the target legally lacks what a rule needs (one listed server, no second). */
  notApplicable: "not-applicable",
  /** {check, where}: a rule failed, so the probes could not create what the other rules need. */
  knockOn: "knock-on",
} as const;

export const isStatusLabel = (label: string): boolean => label.startsWith("status-");
