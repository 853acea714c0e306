/**
 * What a protocol tells the live proxy: how to name the traffic it relays (the labels the kit's
 * probes give the same requests, so the server checks judge it), which URL a client is pointed at,
 * and which checks cannot be decided from traffic the proxy did not choose.
 */

/** A request as the proxy saw it, before it is forwarded. */
export interface ProxiedRequest {
  method: string;
  /** Path plus query, as the client sent it. */
  path: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

/** How one HTTP exchange is named on each side. */
export interface HttpNames {
  /** The label of the kit probe that would make the same request (server checks key on it). */
  label: string;
  /** The label the protocol's mock gives the request (client checks key on it). */
  clientLabel: string;
  /** Read the answer as SSE (the request asks for a stream), whatever its content type says. */
  stream: boolean;
  /**
   * What the relayed traffic showed of the server's state when the request came, in the shape the
   * protocol's mock records as `meta` (client rules read it); absent while the proxy does not know.
   */
  meta?: Record<string, unknown>;
}

/** How one WebSocket connection is named, and the frames the client sends on it. */
export interface WsClassifier {
  /** The connection's label (server checks key on it). */
  label: string;
  /**
   * The label of the probe message the client's frame stands for, or undefined. Called for every
   * frame, both ways (`out`: client → target), so a classifier may follow the conversation.
   */
  frame?(direction: "in" | "out", data: string, binary: boolean): string | undefined;
}

/** A set of checks the proxy cannot decide, and why (the reason ends the check `skip`). */
export interface Undecidable {
  /** Full ids or id prefixes. */
  ids: readonly string[];
  reason: string;
}

/** The per-connection (HTTP: per-proxy) state a classifier keeps: the protocol's state machine. */
export interface HttpClassifier {
  classify(req: ProxiedRequest): HttpNames;
  /** The answer's head arrived (a state machine advances on successes only). */
  answered?(names: HttpNames, req: ProxiedRequest, status: number): void;
  /** A non-stream answer ended: its text (capped), for state the classifier learns from bodies. */
  ended?(names: HttpNames, req: ProxiedRequest, status: number, text: string): void;
}

export interface ProxyAdapter {
  protocol: string;
  transport: "http" | "ws";
  /**
   * The URL a client is pointed at, from the proxy's base URL and the target's path, as the
   * protocol's mock prints it (openai-chat's `/v1`, pi-web's `ws://…/ws`).
   */
  clientUrl(base: string, targetPath: string): string;
  /**
   * Every label the classifier gives. A server check whose probes name none of them (nor "every
   * request") needs the kit's own probes.
   */
  labels: readonly string[];
  /** HTTP protocols: a fresh classifier per proxy. */
  classifier?(): HttpClassifier;
  /** WebSocket protocols: a classifier per connection upgraded at `path`. */
  wsClassifier?(path: string): WsClassifier;
  /** The mock records each upgrade as an http-request "ws-upgrade" its client checks read. */
  recordsUpgrades?: boolean;
  /**
   * Where clients look for this protocol's servers (stagewise toolbars scan 5746..5776): with no port given, the proxy
   * takes the first free one of the range, so a client finds it as it would find the server.
   */
  discoveryPorts?: readonly [first: number, last: number];
  /** The body of the proxy's own error answer (502: target down), in the protocol's error shape. */
  errorBody(message: string): unknown;
  /** Server checks that need the kit's own probes (bad input, forced choices, unknown ids...). */
  needsKit: Undecidable[];
  /** Client checks that need the kit's mock (its state in `meta`, the robustness cases and adapters). */
  needsMock: Undecidable[];
}

/** The mock's own client-URL rule where the base URL is what clients use (mcp-chat, continue-remote). */
export const mirrorPath = (base: string, targetPath: string): string => `${base}${targetPath === "/" ? "" : targetPath.replace(/\/+$/, "")}`;

export const NEEDS_TEST = "needs `agentwire test`: the kit's own probes create what this rule judges";
export const NEEDS_MOCK = "needs `agentwire test-client` or `agentwire mock --check-client`: the rule reads what the kit's mock knows or serves";

/** The kit's own endpoints, and its robustness cases (a `case` and a `scenario` in the query): the kit's doing, not the target's. */
export function isKitRequest(path: string): boolean {
  if (path.split("?")[0]!.includes("/__agentwire/")) return true;
  const q = path.indexOf("?");
  if (q < 0) return false;
  const params = new URLSearchParams(path.slice(q + 1));
  return params.has("case") && params.has("scenario");
}

/** The server-side label of kit requests: recorded, but no server check is shown them. */
export const KIT_LABEL = "kit-request";
/** The server-side label of requests outside the protocol's routes: recorded, not judged. */
export const UNROUTED = "unrouted";
/** Labels whose exchanges the server checks are not shown. */
export const UNJUDGED: ReadonlySet<string> = new Set([KIT_LABEL, UNROUTED, "ws-upgrade"]);
