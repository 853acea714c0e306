/** Parses a mock's `settings` (from --set or a config) and words a refusal for the person who typed it. */
import { z } from "zod";
import { MockOptionError } from "../run/protocol.js";
import { MAX_DELAY_MS } from "./timing.js";

/** A number of milliseconds a timer can wait (see MAX_DELAY_MS); a longer one would fire at once. */
export const delayMs = z
  .number()
  .finite()
  .nonnegative()
  .max(MAX_DELAY_MS, `must be at most ${MAX_DELAY_MS} (the longest a timer waits, about 24.8 days)`);

export function parseMockSettings<S extends z.ZodObject>(protocolId: string, schema: S, settings: unknown): z.infer<S> {
  const parsed = schema.safeParse(settings ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) =>
    i.code === "unrecognized_keys"
      ? `unknown setting ${i.keys.map((k) => `"${k}"`).join(", ")} (known: ${Object.keys(schema.shape).join(", ")})`
      : `${i.path.join(".") || "settings"}: ${i.message}`,
  );
  throw new MockOptionError(`${protocolId} mock: invalid settings: ${problems.join("; ")}`);
}
