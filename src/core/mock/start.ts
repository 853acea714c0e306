/**
 * What every mock's node server does with the options the CLI passes before it serves: settings
 * validated (the validator, zod, loads only when there are settings, so a plain mock starts
 * quickly), the generic pace knobs mapped onto the mock's own, and unset options dropped.
 * Node only: the msw handlers never come here.
 */
import type { MockStartOptions, RunningMock } from "../run/protocol.js";
import { serveMock, type ReplyHandler, type ServeOptions } from "./serve-fetch.js";
import { definedOnly } from "./option-checks.js";

export interface StartPlan<O> {
  defaultPort: number;
  /** Loads the mock's settings parser (a dynamic import of its settings module). */
  settings: () => Promise<{ parseSettings(settings: Record<string, unknown>): O }>;
  /** The mock's knob for the pause before the response head or the first event. */
  firstByteKey: keyof O & string;
  /** The mock's knob for the pause between events. */
  chunkDelayKey: keyof O & string;
}

export interface StartOptions<O> {
  host: string;
  port: number;
  /** Settings first, then the pace knobs, then the options given directly. */
  engine: O;
}

export async function startOptions<O extends object>(options: MockStartOptions & Partial<O>, plan: StartPlan<O>): Promise<StartOptions<O>> {
  const { host = "127.0.0.1", port = plan.defaultPort, firstByteMs, chunkDelayMs, settings, ...rest } = options;
  const fromSettings = settings && Object.keys(settings).length > 0 ? (await plan.settings()).parseSettings(settings) : {};
  const engine = {
    ...fromSettings,
    ...(firstByteMs !== undefined ? { [plan.firstByteKey]: firstByteMs } : {}),
    ...(chunkDelayMs !== undefined ? { [plan.chunkDelayKey]: chunkDelayMs } : {}),
    ...definedOnly(rest),
  } as O;
  return { host, port, engine };
}

export interface FetchMockPlan<O> extends StartPlan<O> {
  /** The engine (it may load what only some options need first). */
  create: (options: O) => { reply: ReplyHandler } | Promise<{ reply: ReplyHandler }>;
  /** How the server answers what never reaches the engine (body cap, error shape). */
  serve?: Omit<ServeOptions, "host" | "port">;
  /** The URLs to show for the served base URL (RunningMock.urls), e.g. a client's `/v1` base. */
  urls?: (url: string, engine: O) => string[];
}

/** A mock engine served on node:http (its replies written straight to node); names are checked before the port opens. */
export async function startFetchMock<O extends object>(options: MockStartOptions & Partial<O>, plan: FetchMockPlan<O>): Promise<RunningMock> {
  const { host, port, engine } = await startOptions(options, plan);
  const served = await serveMock((await plan.create(engine)).reply, { host, port, ...plan.serve });
  return { url: served.url, close: served.close, ...(plan.urls ? { urls: plan.urls(served.url, engine) } : {}) };
}
