/**
 * agentwire mock <protocol> — the reference mock as a long-running server. Started plainly it loads
 * the mock alone (no checks, schemas or runner), so it starts quickly; options that name a fault,
 * a profile or a catalogue, and --check-client, load the protocol to check them first.
 */
import { MockOptionError, type MockStartOptions } from "../core/run/protocol.js";
import { checkCatalogueOption, checkFaults, checkOrigin, checkWritableFile, credentialSetting, parseSettings, requireMock, requireProtocol, requireProtocolId, takesToken } from "./options.js";
import { UsageError } from "./errors.js";
import { hasMock } from "../protocol-loader.js";
import { onStopSignal } from "./stop-signals.js";

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
  catalogue?: string;
  baseline?: string;
}

export async function runMock(protocolId: string, o: MockCliOptions): Promise<number> {
  // A mock may come before its protocol's suite: it serves without one unless an option needs the suite.
  const id = hasMock(protocolId) ? protocolId : requireProtocolId(protocolId);
  if (o.report && !o.checkClient) throw new UsageError("--report goes with --check-client");
  if (o.report) checkWritableFile(o.report, "--report");
  if (o.baseline !== undefined && !o.checkClient) throw new UsageError("--baseline goes with --check-client");
  // The full protocol (checks, faults, profiles) only when an option needs checking against it.
  const needsProtocol = !!o.fault?.length || o.profile !== undefined || o.catalogue !== undefined || !!o.checkClient;
  const [mock, protocol] = await Promise.all([requireMock(id), needsProtocol ? requireProtocol(id) : undefined]);
  const p = { id, ...mock };
  let played: Record<string, unknown> = {};
  if (protocol) {
    await checkCatalogueOption(protocol, o.catalogue);
    checkFaults(protocol, o.fault);
    const { checkRunOptions, resolveProfile } = await import("../core/run/runner.js");
    const profile = resolveProfile(protocol, o.profile);
    if (o.checkClient) checkRunOptions(protocol, { ...(o.profile ? { profile: o.profile } : {}) }, "client");
    played = protocol.mockSettingsFor?.(profile) ?? {};
    if (o.profile && profile.name !== "default" && Object.keys(played).length === 0 && !o.checkClient) {
      throw new UsageError(
        `the ${p.id} mock has no ${profile.name} mode: it plays the contract; --profile ${profile.name} only changes how --check-client judges clients`,
      );
    }
  }
  for (const origin of o.allowOrigin ?? []) checkOrigin(origin, "--allow-origin");
  const settings: Record<string, unknown> = {
    ...played,
    ...parseSettings(o.set),
    ...(o.catalogue !== undefined ? { catalogue: o.catalogue } : {}),
    ...credentialSetting(p.id, o.token),
    ...(o.allowOrigin?.length ? { allowedOrigins: o.allowOrigin } : {}),
  };
  const mockOptions: MockStartOptions = {
    host: o.host ?? "127.0.0.1",
    port: o.port ?? p.defaultPort,
    ...(o.scenario ? { scenario: o.scenario } : {}),
    ...(o.fault?.length ? { faults: o.fault } : {}),
    ...(o.framing ? { framing: o.framing } : {}),
    ...(o.firstByteMs !== undefined ? { firstByteMs: o.firstByteMs } : {}),
    ...(o.chunkDelayMs !== undefined ? { chunkDelayMs: o.chunkDelayMs } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    settings,
  };

  let urls: string[];
  /** Stops the mock; `by` names the stop signal. */
  let stop: (by: string) => Promise<number>;
  /** The mock closed by itself (a client asked it to exit). */
  let selfClosed: Promise<void> | undefined;
  try {
    if (o.checkClient && protocol) {
      const [{ startClientSession }, { formatReport }, { writeReports }, { loadBaselineOption, withBaseline }] = await Promise.all([
        import("../core/run/runner.js"),
        import("../core/reporters/index.js"),
        import("./report-output.js"),
        import("./baseline.js"),
      ]);
      const baseline = await loadBaselineOption(o.baseline, [protocol]);
      const judged = `clients of agentwire mock ${p.id}`;
      // The report's rerun line ends in the command that starts the client: the mock does not know it.
      const rerun = (text: string) => text.split(` -- ${judged}`).join(" -- <the command that starts your client>");
      const session = await startClientSession(protocol, {
        mock: mockOptions,
        ...(o.profile ? { profile: o.profile } : {}),
        // The judge reads the catalogue the mock was given, not the profile's default one.
        ...(typeof settings.catalogue === "string" ? { params: { catalogue: settings.catalogue } } : {}),
        ...(o.token ? { secrets: [o.token] } : {}),
        target: judged,
      });
      urls = session.urls;
      stop = async (by) => {
        // The clients are cut off mid-way: what they still owed when the mock stopped is not judged.
        session.stopping(by);
        const [result] = await withBaseline([await session.finish()], baseline);
        if (o.report) writeReports([result], [{ reporter: "json", output: o.report }]);
        process.stderr.write(rerun(formatReport("console", [result])));
        if (o.report) process.stderr.write(`agentwire: client report written to ${o.report}\n`);
        return result.exitCode;
      };
    } else {
      const mock = await p.startMock(mockOptions);
      urls = mock.urls ?? [mock.url];
      selfClosed = mock.closed;
      stop = async () => {
        await mock.close();
        return 0;
      };
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "EADDRINUSE") throw new UsageError(`port ${mockOptions.port} on ${mockOptions.host} is in use; pick another with --port (0 = any free port)`);
    if (err.code === "EACCES" || err.code === "EADDRNOTAVAIL") throw new UsageError(`cannot listen on ${mockOptions.host}:${mockOptions.port}: ${err.code}`);
    if (err.code === "ENOTFOUND" || err.code === "EAI_AGAIN") throw new UsageError(`--host ${mockOptions.host} is not an address of this machine (${err.code})`);
    if (e instanceof MockOptionError) throw new UsageError(e.message);
    throw e;
  }

  // Handlers first: a script that stops the mock as soon as it reads the URL must find them set.
  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const off = onStopSignal((by) => {
      if (stopping) return;
      stopping = true;
      void stop(by).then(resolve, (e: unknown) => {
        process.stderr.write(`agentwire: error while stopping: ${(e as Error).message}\n`);
        resolve(1);
      });
    });
    void selfClosed?.then(() => {
      if (stopping) return;
      stopping = true;
      off();
      process.stderr.write(`agentwire: the ${p.id} mock stopped: a client asked it to exit\n`);
      resolve(0);
    });
  });

  if (!isLoopback(mockOptions.host!)) process.stderr.write(exposureWarning(p.id, mockOptions.host!, !!o.token));
  // First stdout line: the URL a client is pointed at, alone, so scripts can read it; others follow.
  process.stdout.write(urls.map((u) => `${u}\n`).join(""));
  process.stderr.write(
    `agentwire: ${p.id} mock listening on ${urls.join(" and ")}` +
      `${o.scenario ? `, scenario ${o.scenario}` : ""}${o.fault?.length ? `, faults ${o.fault.join(",")}` : ""}` +
      `${o.profile ? `, profile ${o.profile}` : ""}${o.checkClient ? ", judging clients" : ""}; Ctrl-C stops\n`,
  );
  return stopped;
}

/** Loopback names and addresses: only this machine can reach a mock bound to one. */
function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h) || /^::ffff:127\.\d+\.\d+\.\d+$/.test(h);
}

/** Says who can reach a mock bound beyond loopback, and what they can do with it. */
function exposureWarning(protocolId: string, host: string, token: boolean): string {
  const who = host === "0.0.0.0" || host === "::" ? "every network interface" : host;
  const guard = token ? "only the --token guards it" : `no credential is required${takesToken(protocolId) ? " (--token adds one)" : ""}`;
  return (
    `agentwire: warning: the ${protocolId} mock listens on ${who}, beyond loopback: any machine that can reach this host ` +
    `can read its state and drive it (chats, sessions, recorded traffic); ${guard}\n`
  );
}
