/**
 * Mock start-up: spawn of `agentwire mock <protocol>` to its first answered request, against
 * `node -e` serving a bare http server the same way (median of a few spawns each, alternated).
 * Lower is better: the ratio is the kit's time over the bare server's.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { quick } from "./common.js";

const BIN = fileURLToPath(new URL("../bin/agentwire.js", import.meta.url));
const BARE = "const s=require('http').createServer((q,r)=>r.end('ok'));s.listen(0,'127.0.0.1',()=>console.log('http://127.0.0.1:'+s.address().port))";

/** A plain GET each mock answers without a scenario. */
const FIRST_REQUEST = { "mcp-chat": "/status", "openai-chat": "/v1/models", "pi-web": "/", "continue-remote": "/state", "stagewise-chat": "/stagewise/info" };

/** Milliseconds from spawn to the end of the first answer (the process prints its URL first). */
async function startOnce(args, path) {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const url = await new Promise((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`no URL printed within 10 s: ${args.join(" ")}`)), 10_000);
      child.stdout.on("data", (d) => {
        out += d;
        const m = out.match(/http:\/\/\S+/);
        if (m) {
          clearTimeout(timer);
          resolve(m[0]);
        }
      });
      child.once("exit", (code) => reject(new Error(`exited (${code}) before printing a URL: ${args.join(" ")}`)));
    });
    // The origin: a mock may print its API base first (openai-chat: …/v1), and the paths below are from the root.
    const res = await fetch(new URL(url).origin + path, { signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`start-up: ${path} answered ${res.status}: ${args.join(" ")}`);
    return performance.now() - t0;
  } finally {
    child.kill();
    await exited;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function benchStartup() {
  const n = quick ? 5 : 9;
  const rows = [];
  for (const [id, path] of Object.entries(FIRST_REQUEST)) {
    const kit = [];
    const bare = [];
    for (let i = 0; i < n; i++) {
      bare.push(await startOnce(["-e", BARE], "/"));
      kit.push(await startOnce([BIN, "mock", id, "--port", "0"], path));
    }
    rows.push({ name: `${id} mock start-up (ms to 1st answer)`, kit: median(kit), base: median(bare), baseName: "node -e bare http server", unit: "ms", work: `GET ${path}, median of ${n}` });
  }
  return rows;
}
