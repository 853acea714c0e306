/**
 * agentwire mock <protocol> — the reference mock as a long-running server. Without
 * --check-client it loads the mock alone (no checks, schemas or runner), so it starts quickly.
 */
import type { MockStartOptions } from "../core/protocol.js";
import { credentialSetting, parseSettings, requireMock, requireProtocol, requireProtocolId } from "./options.js";
import { UsageError } from "./errors.js";

export interface MockCliOptions {
  host?: string;
  port?: number;
  scenario?: string;
  fault?: string[];
  framing?: string;
  firstByteMs?: number;
  chunkDelayMs?: number;
  seed?: number;
  set?: string[];
  token?: string;
  allowOrigin?: string[];
  checkClient?: boolean;
  report?: string;
  reporter?: string;
  profile?: string;
}

export async function runMock(protocolId: string, o: MockCliOptions): Promise<number> {
  const id = requireProtocolId(protocolId);
  if (o.report && !o.checkClient) throw new UsageError("--report goes with --check-client");
  const p = { id, ...(await requireMock(id)) };
  const mockOptions: MockStartOptions = {
    host: o.host ?? "127.0.0.1",
    port: o.port ?? p.defaultPort,
    ...(o.scenario ? { scenario: o.scenario } : {}),
    ...(o.fault?.length ? { faults: o.fault } : {}),
    ...(o.framing ? { framing: o.framing } : {}),
    ...(o.firstByteMs !== undefined ? { firstByteMs: o.firstByteMs } : {}),
    ...(o.chunkDelayMs !== undefined ? { chunkDelayMs: o.chunkDelayMs } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    settings: {
      ...parseSettings(o.set),
      ...credentialSetting(p.id, o.token),
      ...(o.allowOrigin?.length ? { allowedOrigins: o.allowOrigin } : {}),
    },
  };

  let url: string;
  let stop: () => Promise<number>;
  try {
    if (o.checkClient) {
      const [{ startClientSession }, { formatReport }, { writeReports }, protocol] = await Promise.all([
        import("../core/runner.js"),
        import("../core/reporters/index.js"),
        import("./report-output.js"),
        requireProtocol(id),
      ]);
      const session = await startClientSession(protocol, {
        mock: mockOptions,
        ...(o.profile ? { profile: o.profile } : {}),
        target: `clients of agentwire mock ${p.id}`,
      });
      url = session.url;
      stop = async () => {
        const result = await session.finish();
        if (o.report) writeReports([result], [{ reporter: "json", output: o.report }]);
        process.stderr.write(formatReport("console", [result]));
        if (o.report) process.stderr.write(`agentwire: client report written to ${o.report}\n`);
        return result.exitCode;
      };
    } else {
      const mock = await p.startMock(mockOptions);
      url = mock.url;
      stop = async () => {
        await mock.close();
        return 0;
      };
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "EADDRINUSE") throw new UsageError(`port ${mockOptions.port} on ${mockOptions.host} is in use; pick another with --port (0 = any free port)`);
    if (err.code === "EACCES" || err.code === "EADDRNOTAVAIL") throw new UsageError(`cannot listen on ${mockOptions.host}:${mockOptions.port}: ${err.code}`);
    if (!(e instanceof UsageError) && e instanceof Error && !err.code) throw new UsageError(e.message);
    throw e;
  }

  // First stdout line: the URL alone, so scripts can read it.
  process.stdout.write(`${url}\n`);
  process.stderr.write(
    `agentwire: ${p.id} mock listening on ${url}` +
      `${o.scenario ? `, scenario ${o.scenario}` : ""}${o.fault?.length ? `, faults ${o.fault.join(",")}` : ""}` +
      `${o.checkClient ? ", judging clients" : ""}; Ctrl-C stops\n`,
  );

  return new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = () => {
      if (stopping) return;
      stopping = true;
      void stop().then(resolve, (e: unknown) => {
        process.stderr.write(`agentwire: error while stopping: ${(e as Error).message}\n`);
        resolve(1);
      });
    };
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
  });
}
