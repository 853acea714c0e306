/**
 * `agentwire proxy`: a loopback relay between a client and the server it talks to. It forwards
 * every byte both ways unchanged (only `Host` and hop-by-hop headers differ), records both
 * directions in one transcript, and judges both sides live: the server checks on what the target
 * sent, the client checks on what the client sent. Checks that need the kit's own probes or mock
 * end `skip` with the reason.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Side } from "../core/checks/check.js";
import type { ProtocolDef } from "../core/run/protocol.js";
import type { CheckResult, RunResult, ViolationListener } from "../core/verdicts/result.js";
import { UsageError } from "../core/run/usage-error.js";
import { loadProtocol, isImplemented } from "../protocol-loader.js";
import type { ProxyAdapter } from "./adapter.js";
import { loadProxyAdapter, PROXIED_IDS } from "./adapters.js";
import { HttpRelay } from "./http-relay.js";
import { WsRelay } from "./ws-relay.js";
import { ProxyJudge } from "./judge.js";
import { SeenSecrets } from "./secrets.js";
import { noteRunStopped } from "../core/checks/run-stop.js";

export interface ProxyOptions {
  /** Protocol id (mcp-chat, openai-chat, pi-web, continue-remote, stagewise-chat). */
  protocol: string;
  /** The server's URL, as `agentwire test --url` takes it. */
  target: string;
  /** 0 or absent: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  profile?: string;
  strict?: boolean;
  only?: string[];
  skip?: string[];
  /** Protocol parameters the checks read (--set). */
  params?: Record<string, unknown>;
  /** Write the transcript (both directions, credentials redacted) into this directory. */
  saveTranscript?: string;
  /** Each verdict as it is decided (at the end: a check's verdict needs all of its traffic). */
  onVerdict?: (check: CheckResult, run: { protocol: string; side: Side }) => void;
  /** Each violation the moment a check sees it, with the evidence (the exchange or connection it belongs to). */
  onViolation?: ViolationListener;
  /** Stop relaying after this many exchanges (HTTP requests and WebSocket connections); see `limitReached`. */
  maxExchanges?: number;
  /** Longest wait for the target's response head, in ms (default: the protocol's stream head timeout). */
  headTimeout?: number;
}

export interface RunningProxy {
  /** The URL a client is pointed at (the protocol's client URL form, as `agentwire mock` prints it). */
  url: string;
  /** The proxy's base URL (http://host:port). */
  base: string;
  /** Resolves when `maxExchanges` exchanges have ended. */
  limitReached: Promise<void>;
  /**
   * Stops relaying (open streams are cut) and judges: the server side first, then the client side. `by` names the
   * stop ("Ctrl-C", "--duration 60 s"): the client is cut off mid-way, and what it still owed is not judged.
   */
  close(by?: string): Promise<ProxyResult>;
}

/** Both sides' results (reporters take the list). */
export interface ProxyResult {
  results: RunResult[];
  server: RunResult | undefined;
  client: RunResult | undefined;
  /** As `agentwire test`: 1 when a check failed, 3 when something was incomplete, else 0. */
  exitCode: 0 | 1 | 3;
}

function parseTarget(raw: string, adapter: ProxyAdapter): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--target ${JSON.stringify(raw)} is not a URL; give e.g. http://127.0.0.1:8000`);
  }
  const schemes = adapter.transport === "ws" ? ["http:", "https:", "ws:", "wss:"] : ["http:", "https:"];
  if (!schemes.includes(url.protocol)) throw new UsageError(`--target must be ${schemes.map((s) => s.replace(":", "")).join(" or ")} for ${adapter.protocol}, not ${url.protocol.replace(":", "")}`);
  return url;
}

export async function resolveProxied(id: string): Promise<{ protocol: ProtocolDef; adapter: ProxyAdapter }> {
  const load = loadProxyAdapter(id);
  if (!load) {
    const known = PROXIED_IDS.join(", ");
    throw new UsageError(isImplemented(id) ? `${id} has no proxy yet; proxied: ${known}` : `unknown protocol "${id}"; proxied: ${known}`);
  }
  const [protocol, adapter] = await Promise.all([loadProtocol(id), load]);
  return { protocol, adapter };
}

/** Listens on `port`; with none, on the first free port of the protocol's discovery range, else any free port. */
export async function listen(server: http.Server, host: string, port: number | undefined, range: readonly [number, number] | undefined): Promise<void> {
  const candidates = port !== undefined || !range ? [port ?? 0] : Array.from({ length: range[1] - range[0] + 1 }, (_, i) => range[0] + i);
  for (const [i, candidate] of candidates.entries()) {
    const bound = await new Promise<boolean>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        server.off("listening", onListening);
        // A busy port of the range: the next one, as the server itself would have done.
        if (error.code === "EADDRINUSE" && port === undefined && i < candidates.length - 1) resolve(false);
        else reject(error.code === "EADDRINUSE" && port === undefined ? new UsageError(`no free port in ${range![0]}..${range![1]} on ${host}, where clients look; give --port`) : error);
      };
      const onListening = () => {
        server.off("error", onError);
        resolve(true);
      };
      server.once("error", onError);
      server.once("listening", onListening);
      server.listen(candidate, host);
    });
    if (bound) return;
  }
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const { protocol, adapter } = await resolveProxied(options.protocol);
  const target = parseTarget(options.target, adapter);
  if (options.maxExchanges !== undefined && !(Number.isInteger(options.maxExchanges) && options.maxExchanges > 0)) {
    throw new UsageError("maxExchanges must be a positive integer");
  }
  const secrets = new SeenSecrets();
  const judge = new ProxyJudge(protocol, adapter, target.href, secrets.secrets, options);
  let ended = 0;
  let reachLimit!: () => void;
  const limitReached = new Promise<void>((resolve) => (reachLimit = resolve));
  const onEnded = () => {
    if (options.maxExchanges !== undefined && ++ended >= options.maxExchanges) reachLimit();
  };
  const relay = new HttpRelay({ target, adapter, judge, secrets, headTimeout: options.headTimeout ?? protocol.timeouts.headers, ended: onEnded });
  const server = http.createServer({ noDelay: true }, relay.handle);
  const ws = adapter.transport === "ws" ? new WsRelay({ target, adapter, judge, secrets, openTimeout: options.headTimeout ?? protocol.timeouts.headers, ended: onEnded }) : undefined;
  // An HTTP protocol has no WebSocket: an upgrade there is refused, as a plain HTTP server would.
  server.on("upgrade", ws ? ws.upgrade : (_req, socket: import("node:stream").Duplex) => socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"));
  // A client that misbehaves at the socket level costs its own connection only.
  server.on("clientError", (_err, socket) => socket.destroy());
  // Each relayed chunk leaves at once: Nagle would hold a small one back until the client's ACK.
  server.on("connection", (socket: import("node:net").Socket) => socket.setNoDelay(true));
  const host = options.host ?? "127.0.0.1";
  try {
    await listen(server, host, options.port, adapter.discoveryPorts);
  } catch (e) {
    // Nothing was relayed: no run to report, and no transcript file left open.
    void ws?.close();
    void relay.close();
    await judge.abandon();
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const base = `http://${shownHost}:${port}`;
  let closing: Promise<ProxyResult> | undefined;
  return {
    url: adapter.clientUrl(base, target.pathname),
    base,
    limitReached,
    close(by = "the proxy's close") {
      closing ??= (async () => {
        // Noted before the cuts: the client's side of them is the stop's doing.
        noteRunStopped(judge.bus, by);
        // Open streams and sockets are cut first, so their ends are recorded before the judging.
        const cut = ws?.close();
        // A coded body the target has ended is read to its end first (briefly): the client has it whole.
        await relay.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await cut;
        const results = await judge.finish();
        const server_ = results.find((r) => r.side === "server");
        const client = results.find((r) => r.side === "client");
        const exitCode = results.some((r) => r.exitCode === 1) ? 1 : results.some((r) => r.exitCode === 3) ? 3 : 0;
        return { results, server: server_, client, exitCode };
      })();
      return closing;
    },
  };
}
