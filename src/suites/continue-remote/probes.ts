/**
 * The probes that drive a continue-remote server, in the eight phases of §4: idle polls, bad input
 * (the state must not change), a turn, three queued messages, an interrupt (seed) or `/pause`
 * (cn-session), permissions whenever one is pending, `/diff`, under cn-session the non-string
 * messages (they break a real 1.5.47 session), and the shutdown routes last. Every
 * GET /state goes through the client's single-flight poller; every wait ends at the turn timeout.
 * The first wait that runs out marks the server stuck: no later wait is made, and the phases that
 * start a turn from rest (turn, queue, interrupt, permission) are not run, so a server that never
 * settles costs one turn timeout, not one per phase.
 * Branches a legal server may not take (it never asks for permission, never says `willInterrupt`)
 * are published as not-applicable notes, so their checks end `skip` with the reason.
 */
import { untilStopped } from "../../core/probes/probe-session.js";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import type { ExchangeResult } from "../../core/transport/http-exchange.js";
import type { ProbeContext } from "../../core/run/protocol.js";
import { sleep } from "../../core/mock/timing.js";
import { L, MISSING_OR_EMPTY, NON_STRING, NOTE, PHASE, SIMPLE_REQUESTS, TOPIC, UNKNOWN_ROUTES, UNPARSEABLE } from "./labels.js";
import { readParams, type ContinueRemoteParams } from "./params.js";
import { ProbeClient, type Seen } from "./probe-client.js";
import { isCn } from "./profiles.js";

/** How long after POST /exit the server must refuse connections (§4 exit/shuts-down), and how often to try. */
const EXIT_DEADLINE_MS = 2000;
const EXIT_RETRY_MS = 100;
const BIND_CONNECT_MS = 1000;

export async function runProbes(ctx: ProbeContext): Promise<void> {
  const params = readParams(ctx.params);
  const client = new ProbeClient(ctx, params);
  await untilStopped(() => sequence(client, ctx, params));
}

async function sequence(c: ProbeClient, ctx: ProbeContext, p: ContinueRemoteParams): Promise<void> {
  const cn = isCn(ctx.profile);
  const permissions = new PermissionProber(c);
  const each = (s: Seen) => permissions.onSnapshot(s);
  /** Polls until idle with nothing pending; false after the turn timeout. */
  const settle = (phase: string) => c.pollUntil(phase, (s) => !s.isProcessing && s.pendingId === undefined, each);
  /** The phase whose wait for rest timed out first: from then on the server is taken as stuck busy. */
  let stuck: string | undefined;
  /**
   * Waits for the server to settle. Once a wait has timed out, later ones are not made: each would
   * cost the whole turn timeout again and show only what processing/false-when-done already failed on.
   */
  const turn = async (phase: string) => {
    if (stuck) return;
    if (!(await settle(phase))) stuck = phase;
  };
  /** Phases skipped because the server never settled (each starts a turn from rest). */
  const notRun: string[] = [];
  /** A phase that starts a turn from rest: not run once the server is stuck; the checks it feeds end as knock-ons. */
  const fromRest = async (name: string, what: string, fn: () => Promise<void>) => {
    if (stuck) notRun.push(name);
    else await c.group(name, what, fn);
  };
  const sendNonString = async () => {
    for (const b of NON_STRING) await c.request(L.nonString(b.name), "POST", "/message", { body: b.body });
  };
  const send = (name: string, text: string) => {
    const busy = c.last?.isProcessing === true;
    c.note(NOTE.sending, { label: L.message(name), busy });
    return c.request(L.message(name), "POST", "/message", { body: JSON.stringify({ message: text }) });
  };

  await c.group("idle", "GET /state while idle, twice (and POST /pause while idle under cn-session)", async () => {
    const first = await c.poll(PHASE.idle);
    // A server started with a prompt may be busy: the idle probes wait for it.
    if (first?.isProcessing) await turn(PHASE.idle);
    await c.poll(PHASE.idle);
    // POST /pause on a server that never settled would stop a turn, not test pause while idle.
    if (cn && !stuck) {
      await c.poll(PHASE.beforePause);
      await c.request(L.pauseIdle, "POST", "/pause");
      await c.pollNow(PHASE.afterPause);
    } else if (!cn) c.note(NOTE.notApplicable, { topic: TOPIC.pause, reason: "the seed profile has no POST /pause" });
  });

  await c.group("bad-input", "malformed messages, unknown routes and a permission answer with nothing pending; the state must not change", async () => {
    await c.poll(PHASE.beforeBadInput);
    for (const b of MISSING_OR_EMPTY) await c.request(L.missingOrEmpty(b.name), "POST", "/message", { body: b.body });
    if (!cn) await sendNonString();
    for (const b of UNPARSEABLE) await c.request(L.unparseable(b.name), "POST", "/message", { body: b.body, contentType: b.contentType ?? null });
    for (const r of UNKNOWN_ROUTES) await c.request(L.unknownRoute(r.name), r.method, r.path, r.method === "POST" ? { body: "{}" } : {});
    await c.request(L.permissionIdle, "POST", "/permission", { body: JSON.stringify({ requestId: "agentwire-none", approved: true }) });
    await c.pollNow(PHASE.afterBadInput);
  });
  await turn(PHASE.afterBadInput);

  await c.group("security", "CORS-simple POSTs, a foreign Origin and Host, and connects to this host's other addresses", async () => {
    await c.poll(PHASE.beforeSimple);
    for (const s of SIMPLE_REQUESTS) {
      await c.request(L.simple(s.name), "POST", "/message", { body: s.body, contentType: s.contentType, headers: { origin: p.foreignOrigin } });
    }
    await c.pollNow(PHASE.afterSimple);
    await c.request(L.foreignPreflight, "OPTIONS", "/message", {
      headers: { origin: p.foreignOrigin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    await c.request(L.foreignOrigin, "GET", "/state", { headers: { origin: p.foreignOrigin }, maxBytes: 16 * 1024 * 1024 });
    await c.request(L.foreignHost, "GET", "/state", { headers: { host: p.foreignHost }, without: ["authorization", "cookie"], maxBytes: 16 * 1024 * 1024 });
    await probeBinding(c, ctx.url);
  });
  await turn(PHASE.afterSimple);

  await fromRest("turn", `POST /message "${p.prompt}", then poll until idle`, async () => {
    await send("turn", p.prompt);
    await c.pollNow("turn");
    await turn("turn");
  });

  const [q1, q2, q3] = [0, 1, 2].map((i) => p.queuePrompts[i] ?? `agentwire queued message ${i + 1}`) as [string, string, string];
  await fromRest("queue", "three messages, the last two sent while the first runs, then poll until idle", async () => {
    await send("queue-1", q1);
    await c.pollNow("queue");
    await send("queue-2", q2);
    await send("queue-3", q3);
    await c.pollNow("queue");
    await turn("queue");
  });

  await fromRest(
    "interrupt",
    cn ? "a slow message, then POST /pause while it runs" : "a slow message, then a message while it runs (willInterrupt?)",
    async () => {
      await send("slow", p.slowPrompt);
      await c.pollNow("interrupt");
      if (!c.last?.isProcessing) {
        c.ctx.progress("continue-remote: the slow message's turn was over before the kit could interrupt it");
        c.note(NOTE.notApplicable, {
          topic: cn ? TOPIC.pause : TOPIC.willInterrupt,
          reason: "the slow message's turn ended before the first poll, so nothing could be interrupted",
        });
      } else if (cn) {
        await c.request(L.pauseBusy, "POST", "/pause");
        await c.pollNow("interrupt");
      } else {
        const r = await send("interrupt", p.interruptPrompt);
        if ((r.json as { willInterrupt?: unknown } | undefined)?.willInterrupt !== true) {
          c.note(NOTE.notApplicable, { topic: TOPIC.willInterrupt, reason: "a message sent during a turn was queued without willInterrupt:true" });
        }
        await c.pollNow("interrupt");
      }
      await turn("interrupt");
    },
  );

  if (p.permissionPrompt) {
    await fromRest("permission", "a message meant to ask for permission; answers as pending requests appear", async () => {
      await send("permission", p.permissionPrompt);
      await c.pollNow("permission");
      await turn("permission");
    });
  }
  if (stuck) {
    if (notRun.length) c.ctx.progress(`continue-remote: the server never settled (${stuck} phase); not run: ${notRun.join(", ")}`);
    c.note(NOTE.knockOn, { check: "continue-remote/processing/false-when-done", where: `the ${stuck} phase` });
  }
  permissions.report();

  await c.group("diff", "GET /diff", async () => {
    await c.request(L.diff, "GET", "/diff", { maxBytes: 16 * 1024 * 1024 });
  });

  if (cn) {
    // cn serve 1.5.47 queues a non-string message, and its history then fails every later turn
    // ("Unsupported content type: number"): sent with the other bad input, they would leave
    // nothing for the turn, queue, pause and tool probes to judge. So under cn-session they go last.
    await c.group("late-input", "non-string messages, sent last under cn-session (a server that queues them may break its session)", async () => {
      await c.poll(PHASE.beforeLateInput);
      await sendNonString();
      await c.pollNow(PHASE.afterLateInput);
      await turn(PHASE.afterLateInput);
    });
  }

  await c.group(
    "exit",
    p.noExit ? "GET and HEAD /exit; the server must keep running (--no-exit: no POST /exit)" : "GET and HEAD /exit, then POST /exit; the server must stop",
    async () => {
      // A server that GET /exit shuts down refuses the HEAD: that must not end the probes before
      // the poll that shows it (exit/post-only's evidence).
      await c.request(L.getExit, "GET", "/exit");
      await c.request(L.headExit, "HEAD", "/exit", { mayFail: true });
      await sleep(p.getExitWaitMs, ctx.signal);
      const alive = await c.pollNow(PHASE.afterGetExit);
      if (p.noExit) {
        c.note(NOTE.notApplicable, { topic: TOPIC.exit, reason: "--no-exit: POST /exit was not sent" });
        return;
      }
      if (!alive) {
        c.note(NOTE.knockOn, { check: "continue-remote/exit/post-only", where: "GET /state after GET and HEAD /exit" });
        return;
      }
      const r = await c.request(L.postExit, "POST", "/exit");
      if (r.status === undefined) return;
      const start = performance.now();
      while (performance.now() - start < EXIT_DEADLINE_MS + EXIT_RETRY_MS) {
        await sleep(EXIT_RETRY_MS, ctx.signal);
        const after = await c.request(L.afterExit, "GET", "/state", { mayFail: true, timeoutMs: 500 });
        if (after.status === undefined) break;
      }
    },
  );
}

/**
 * Answers pending permissions as they appear, working through one list of probes across requests:
 * a wrong id, the non-boolean answers "false" and 1, then the right answer (approve), then a denial
 * for the next request. A probe the server wrongly accepts consumes its request; the rest waits
 * for the next one (§4 phase 6). Later requests are approved.
 */
class PermissionProber {
  private readonly steps = ["wrong-id", 'non-boolean:"false"', "non-boolean:1", "approve", "deny"] as const;
  private next = 0;
  private readonly handled = new Set<string>();
  private busy = false;

  constructor(private readonly c: ProbeClient) {}

  async onSnapshot(s: Seen): Promise<void> {
    const id = s.pendingId;
    if (id === undefined || this.handled.has(id) || this.busy) return;
    this.handled.add(id);
    this.busy = true;
    try {
      for (;;) {
        const step = this.steps[this.next] ?? "approve";
        if (this.next < this.steps.length) this.next++;
        const consumed = await this.run(step, id);
        if (consumed || step === "approve" || step === "deny") return;
        // A rejected probe must change nothing: the request must still be pending.
        const after = await this.c.pollNow("permission");
        if (after?.pendingId !== id) return;
      }
    } finally {
      this.busy = false;
    }
  }

  /** Runs one probe on request `id`; true when the server took it as the answer. */
  private async run(step: (typeof this.steps)[number], id: string): Promise<boolean> {
    const post = (label: string, body: unknown) => this.c.request(label, "POST", "/permission", { body: JSON.stringify(body) });
    let r: ExchangeResult;
    if (step === "wrong-id") r = await post(L.permissionWrongId, { requestId: `wrong-${id}`, approved: true });
    else if (step === 'non-boolean:"false"') r = await post(L.permissionNonBoolean('"false"'), { requestId: id, approved: "false" });
    else if (step === "non-boolean:1") r = await post(L.permissionNonBoolean("1"), { requestId: id, approved: 1 });
    else {
      r = await post(L.permissionAnswer, { requestId: id, approved: step === "approve" });
      await this.c.pollNow("permission");
    }
    return r.status !== undefined && r.status >= 200 && r.status < 300;
  }

  /** Notes for what the run could not show: no request at all, or none left to deny. */
  report(): void {
    if (this.handled.size === 0) {
      this.c.note(NOTE.notApplicable, { topic: TOPIC.permission, reason: "the server never asked for permission (no snapshot had a pendingPermission)" });
      this.c.note(NOTE.notApplicable, { topic: TOPIC.deny, reason: "the server never asked for permission (no snapshot had a pendingPermission)" });
    } else if (this.next < this.steps.length) {
      this.c.note(NOTE.notApplicable, {
        topic: TOPIC.deny,
        reason: `the server asked for permission ${this.handled.size} time(s); no request was left to deny`,
      });
    }
  }
}

/**
 * security/loopback-bind: when the target is this host's loopback, try its port on the host's
 * other addresses. A target elsewhere, or a host with no other address, cannot be judged this way.
 */
async function probeBinding(c: ProbeClient, url: string): Promise<void> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
  if (!(host === "localhost" || host === "::1" || /^127\./.test(host))) {
    c.note(NOTE.notApplicable, { topic: TOPIC.bind, reason: `the target (${host}) is not this host's loopback; binding can only be probed locally` });
    return;
  }
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal && !(a.family === "IPv6" && a.address.startsWith("fe80")))
    .map((a) => a!.address)
    .slice(0, 4);
  if (addresses.length === 0) {
    c.note(NOTE.notApplicable, { topic: TOPIC.bind, reason: "this host has no non-loopback address to try" });
    return;
  }
  for (const address of addresses) {
    const outcome = await tryConnect(address, port, c.ctx.signal);
    c.note(NOTE.bindProbe, { address, port, ...outcome });
  }
}

function tryConnect(host: string, port: number, signal: AbortSignal): Promise<{ reachable: boolean; error?: string }> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (out: { reachable: boolean; error?: string }) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      resolve(out);
    };
    const onAbort = () => done({ reachable: false, error: "aborted" });
    const timer = setTimeout(() => done({ reachable: false, error: `no answer within ${BIND_CONNECT_MS} ms` }), BIND_CONNECT_MS);
    signal.addEventListener("abort", onAbort, { once: true });
    socket.once("connect", () => done({ reachable: true }));
    socket.once("error", (e: NodeJS.ErrnoException) => done({ reachable: false, error: e.code ?? e.message }));
  });
}
