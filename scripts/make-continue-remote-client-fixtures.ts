/**
 * Writes the client-side fixture transcripts of continue-remote,
 * fixtures/continue-remote/transcripts/client/: the reference mock, over real HTTP and quickly
 * paced, records small scripted clients. One behaves; each other breaks one client rule (an `""`
 * interrupt, `GET /exit`, a stale requestId, 20 ms polling, ...) and otherwise behaves. The
 * verdicts each must give (by full check id) are in expected.json there, written by hand.
 *
 *   npx tsx scripts/make-continue-remote-client-fixtures.ts [name...]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { eventToJsonLine, TranscriptBus, type TranscriptEvent } from "../src/core/transcript/transcript.js";
import { startContinueRemoteMock, type ContinueRemoteMockOptions } from "../src/mocks/continue-remote/index.js";

const OUT = fileURLToPath(new URL("../fixtures/continue-remote/transcripts/client/", import.meta.url));
/** A turn of about half a second. */
const QUICK: ContinueRemoteMockOptions = { thinkMs: 60, chunkMs: 20, chunkChars: 24, gapMs: 30, toolMs: 120, exitDelayMs: 50 };
const JSON_TYPE = "application/json";

interface State {
  isProcessing: boolean;
  pendingPermission?: { requestId: string } | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A scripted client: plain calls, and a turn loop that polls and may answer permissions. */
class Client {
  readonly answered = new Set<string>();
  constructor(private readonly url: string) {}

  async call(method: string, path: string, body?: string, type?: string): Promise<{ status: number; json: unknown }> {
    const r = await fetch(`${this.url}${path}`, { method, ...(type ? { headers: { "content-type": type } } : {}), ...(body !== undefined ? { body } : {}) });
    const text = await r.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: r.status, json };
  }

  state = async () => (await this.call("GET", "/state")).json as State;
  send = (message: string) => this.call("POST", "/message", JSON.stringify({ message }), JSON_TYPE);
  answer = (requestId: string, approved: unknown = true) => this.call("POST", "/permission", JSON.stringify({ requestId, approved }), JSON_TYPE);
  exit = () => this.call("POST", "/exit");

  /**
   * Polls every `every` ms until the server is idle; a pending permission goes to `onPending`
   * (default: approve it once).
   */
  async turn(every = 200, onPending: (id: string) => Promise<void> = async (id) => void (await this.answer(id))): Promise<State> {
    for (;;) {
      const s = await this.state();
      const id = s.pendingPermission?.requestId;
      if (id && !this.answered.has(id)) {
        this.answered.add(id);
        await onPending(id);
      } else if (!s.isProcessing) return s;
      await sleep(every);
    }
  }
}

interface Fixture {
  mock?: ContinueRemoteMockOptions;
  run(c: Client): Promise<void>;
}

const FIXTURES: Record<string, Fixture> = {
  clean: {
    mock: { scenarios: ["permission"] },
    async run(c) {
      await c.send("Write notes.txt");
      await c.turn();
      await c.exit();
    },
  },
  "cn-session-pause": {
    mock: { profile: "cn-session", scenarios: ["slow", "permission"] },
    async run(c) {
      await c.send("Tell me a long story");
      await c.state();
      await sleep(200);
      await c.call("POST", "/pause");
      await c.turn();
      await c.send("Write notes.txt");
      await c.turn();
      await c.exit();
    },
  },
  "empty-interrupt": {
    mock: { scenarios: ["slow", "permission"] },
    async run(c) {
      await c.send("Tell me a long story");
      await c.state();
      await sleep(200);
      // The removed cn remote's "interrupt": an empty message (both servers answer 400).
      await c.send("");
      await c.turn();
      await c.send("Write notes.txt");
      await c.turn();
      await c.exit();
    },
  },
  "get-exit": {
    mock: { scenarios: ["permission"] },
    async run(c) {
      await c.send("Write notes.txt");
      await c.turn();
      await c.call("GET", "/exit");
    },
  },
  "stale-request-id": {
    mock: { scenarios: ["permission-twice"] },
    async run(c) {
      let first: string | undefined;
      await c.send("Write two files");
      await c.turn(200, async (id) => {
        if (first === undefined) first = id;
        else await c.answer(first); // the id of the request answered before: 400
        await c.answer(id);
      });
      await c.exit();
    },
  },
  "fast-polling": {
    mock: { scenarios: ["permission"] },
    async run(c) {
      await c.send("Write notes.txt");
      await c.turn(20);
      await c.exit();
    },
  },
  "form-encoded-message": {
    mock: { scenarios: ["permission"] },
    async run(c) {
      await c.call("POST", "/message", "message=Write+notes.txt", "application/x-www-form-urlencoded");
      await c.send("Write notes.txt");
      await c.turn();
      await c.exit();
    },
  },
  "requests-after-exit": {
    mock: { scenarios: ["permission"] },
    async run(c) {
      await c.send("Write notes.txt");
      await c.turn();
      await c.exit();
      await sleep(2500);
      await c.state();
    },
  },
  "pause-under-seed": {
    mock: { scenarios: ["slow", "permission"] },
    async run(c) {
      await c.send("Tell me a long story");
      await c.state();
      await sleep(200);
      await c.call("POST", "/pause"); // 404: the seed server has no /pause
      await c.turn();
      await c.send("Write notes.txt");
      await c.turn();
      await c.exit();
    },
  },
  "no-polling-while-busy": {
    mock: { scenarios: ["permission"] },
    async run(c) {
      await c.send("Write notes.txt");
      await c.state(); // busy
      await sleep(3000);
      await c.turn();
      await c.exit();
    },
  },
  "never-polls": {
    mock: { scenarios: ["permission"] },
    async run(c) {
      await c.send("Write notes.txt");
    },
  },
  "answer-nothing-pending": {
    mock: { scenarios: ["read-file", "permission"] },
    async run(c) {
      await c.send("Read the README file");
      await c.turn();
      await c.answer("perm-1"); // a guess: nothing is pending (400)
      await c.send("Write notes.txt");
      await c.turn();
      await c.exit();
    },
  },
  "answer-twice": {
    mock: { scenarios: ["permission"] },
    async run(c) {
      await c.send("Write notes.txt");
      await c.turn(200, async (id) => {
        await c.answer(id);
        await c.answer(id); // again, without a new state: 400
      });
      await c.exit();
    },
  },
  "approved-string": {
    mock: { scenarios: ["permission"] },
    async run(c) {
      await c.send("Write notes.txt");
      await c.turn(200, async (id) => {
        await c.answer(id, "true"); // not a boolean: 400
        await c.answer(id, true);
      });
      await c.exit();
    },
  },
  "unknown-route": {
    mock: { scenarios: ["permission"] },
    async run(c) {
      await c.call("GET", "/history");
      await c.send("Write notes.txt");
      await c.turn();
      await c.exit();
    },
  },
};

async function record(f: Fixture): Promise<TranscriptEvent[]> {
  const bus = new TranscriptBus();
  const events: TranscriptEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const mock = await startContinueRemoteMock({ port: 0, ...QUICK, ...f.mock, bus });
  try {
    await f.run(new Client(mock.url));
  } finally {
    await mock.close();
  }
  return events;
}

const only = process.argv.slice(2);
mkdirSync(OUT, { recursive: true });
for (const [name, f] of Object.entries(FIXTURES)) {
  if (only.length && !only.includes(name)) continue;
  const events = await record(f);
  const file = join(OUT, `${name}.jsonl`);
  // A fixture recorded under another profile says so in a header, so replay judges it the same way.
  const profile = f.mock?.profile;
  const header = profile
    ? `${JSON.stringify({ agentwire: "transcript", version: 1, protocol: "continue-remote", side: "client", profile, params: {}, target: "a scripted client of the reference mock", startedAt: new Date().toISOString() })}\n`
    : "";
  writeFileSync(file, header + events.map((e) => eventToJsonLine(e) + "\n").join(""));
  console.log(`wrote ${file} (${events.length} events)`);
}
