/** Auth: a backend that serves requests without the key lets anyone spend its model. */
import type { CheckDef } from "../../../core/checks/check.js";
import { isAuthLabel, L, NOTE } from "../labels.js";
import { all, describe, evidenceOf, onExchanges, onNote, serverCheck, skip } from "./support.js";

export const AUTH_CHECKS: CheckDef[] = [
  serverCheck("openai-chat/auth/rejects-unauthenticated", (t) => {
    let skipped: string | undefined;
    const seen: string[] = [];
    const observe = all(
      onNote(NOTE.authSkipped, (v) => {
        skipped = String(v);
      }),
      onExchanges((x) => {
        if (!isAuthLabel(x.label)) return;
        const what = x.label === L.authMissing ? "no Authorization" : "a wrong bearer key";
        if (x.status === undefined || x.status === 429) return t.untestable(`the request with ${what} got ${x.status === 429 ? "429" : "no response"}`);
        seen.push(`${what} → ${x.status}`);
        if (x.status === 401) t.ok();
        else t.fail("401 with an ErrorResponse", `the request with ${what} got ${describe(x)}${x.status < 300 ? ": anyone can use this backend" : ""}`, evidenceOf(x));
      }),
    );
    return {
      observe,
      finish: () => (skipped && !t.wasExercised ? skip(skipped) : t.outcome(`unauthenticated requests were refused (${seen.join(", ")})`, "the auth probes were not answered")),
    };
  }),
];
