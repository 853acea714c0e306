/**
 * Builds a protocol's `ProtocolDef` from the modules every protocol folder has (see
 * docs/architecture.md, "Protocol folders"), so a protocol's index says only what is its own: its
 * name, contract and the few options that differ.
 */
import type { CheckDef, ProfileDef } from "../checks/check.js";
import type { MockNames } from "../mock/listing.js";
import type { MockStartOptions, ProbeContext, ProtocolDef, RunningMock, SelfTestPacing, Timeouts } from "./protocol.js";

/** The suite's own modules, as `import * as …` gives them. */
export interface SuiteParts {
  /** `params.ts`: the defaults, the contract's time limits, and the quicker pacing against the built-in mock. */
  params: { DEFAULT_PARAMS: Readonly<Record<string, unknown>>; TIMEOUTS: Timeouts; SELF_TEST?: SelfTestPacing };
  /** `probes.ts`. */
  probes: { runProbes(ctx: ProbeContext): Promise<void> };
  /** `mock.ts`: the reference mock as the kit starts it. */
  mock: { DEFAULT_PORT: number; startMock(options: MockStartOptions): Promise<RunningMock> };
  profiles: ProfileDef[];
  /** The server-side catalogue, then the client-side one. */
  checks: [server: readonly CheckDef[], client: readonly CheckDef[]];
  /** What the reference mock plays, by name. */
  names: MockNames;
}

type Wired = "checks" | "scenarios" | "faults" | "framings" | "profiles" | "defaultPort" | "defaultParams" | "selfTest" | "runProbes" | "startMock" | "timeouts";

export type ProtocolSpec = Omit<ProtocolDef, Wired> & { suite: SuiteParts };

export function defineProtocol({ suite, ...own }: ProtocolSpec): ProtocolDef {
  const { params, probes, mock, profiles, checks, names } = suite;
  return {
    ...own,
    ...names,
    checks: [...checks[0], ...checks[1]],
    profiles,
    defaultPort: mock.DEFAULT_PORT,
    // A copy: a run resolves its parameters over these and must not change the module's.
    defaultParams: { ...params.DEFAULT_PARAMS },
    timeouts: params.TIMEOUTS,
    ...(params.SELF_TEST ? { selfTest: params.SELF_TEST } : {}),
    runProbes: probes.runProbes,
    startMock: mock.startMock,
  };
}
