/**
 * One self-contained HTML file: the summary, the checks grouped by id prefix, and for each failure
 * the rule, the contract sentence, expected vs actual, the evidence and the exchange it came from
 * (request, response head, the events or frames around the offending one). No scripts and no
 * external assets; a Content-Security-Policy forbids the page any network access.
 */
import { contractPlace } from "./names.js";
import type { CheckResult, ExchangeRecord, RunResult } from "../verdicts/result.js";
import { baselineNote, formatEvidence } from "./console.js";
import { curlCommand, replayCommand } from "./reproduce.js";

const CSS = `
:root { --fail:#b91c1c; --warn:#b45309; --pass:#15803d; --info:#0e7490; --skip:#6b7280; --incomplete:#7e22ce; color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1100px; padding: 1.5rem; color:#111; background:#fff; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #ddd; } h3 { margin: 1.25rem 0 .4rem; font-size: 1.05rem; }
h4 { margin: .8rem 0 .3rem; font-size: .9rem; text-transform: uppercase; letter-spacing: .04em; color:#444; }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background:#f6f8fa; border:1px solid #e5e7eb; padding:.5rem .7rem; overflow-x:auto; white-space: pre-wrap; word-break: break-all; margin:.3rem 0; }
.overall { font-size: 1.1rem; font-weight: 600; } .meta { color:#555; margin:.2rem 0; }
table.summary { border-collapse: collapse; margin:.5rem 0; } table.summary td, table.summary th { border:1px solid #ddd; padding:.2rem .6rem; text-align:right; }
.badge { display:inline-block; min-width:5.5em; text-align:center; font-weight:700; font-size:.75rem; color:#fff; border-radius:3px; padding:.05rem .3rem; margin-right:.4rem; }
.v-fail .badge{background:var(--fail)} .v-warn .badge{background:var(--warn)} .v-pass .badge{background:var(--pass)} .v-info .badge{background:var(--info)} .v-skip .badge{background:var(--skip)} .v-incomplete .badge{background:var(--incomplete)}
details.check { border-left: 3px solid transparent; padding: .15rem .5rem; margin: .1rem 0; }
details.check.v-fail { border-color: var(--fail); background:#fef2f2; } details.check.v-warn { border-color: var(--warn); background:#fffbeb; }
details.check > summary { cursor: pointer; } .level { color:#555; font-size:.8rem; } .title { color:#333; }
dl { display:grid; grid-template-columns: 7rem 1fr; gap:.2rem .8rem; margin:.4rem 0; } dt { font-weight:600; color:#444; } dd { margin:0; }
blockquote { margin:0; padding-left:.6rem; border-left:3px solid #cbd5e1; font-style: italic; }
ol.events { list-style:none; padding:0; margin:.3rem 0; } ol.events li { font: 12.5px/1.4 ui-monospace, Menlo, monospace; padding:.1rem .4rem; white-space: pre-wrap; word-break: break-all; }
ol.events li.offending { background:#fee2e2; outline:1px solid var(--fail); } .seq { color:#666; }
.problem { color: var(--fail); font-weight:600; } .known { color: var(--skip); }
`;

export function formatHtml(results: readonly RunResult[]): string {
  const exit = results.some((r) => r.exitCode === 1) ? 1 : results.some((r) => r.exitCode === 3) ? 3 : 0;
  const total = (k: keyof RunResult["summary"]) => results.reduce((n, r) => n + r.summary[k], 0);
  const title = `agentwire report — ${results.map((r) => `${r.protocol} (${r.side})`).join(", ")}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>agentwire report</h1>
<p class="overall" id="overall">${exit === 0 ? "passed" : exit === 1 ? "failed" : "incomplete"} — ${total("pass")} passed, ${total("fail")} failed, ${total("warn")} warnings, ${total("info")} info, ${total("skip")} skipped, ${total("incomplete")} incomplete — exit ${exit}</p>
</header>
${results.map(run).join("\n")}
</body>
</html>
`;
}

function run(r: RunResult): string {
  const s = r.summary;
  const groups = new Map<string, CheckResult[]>();
  for (const c of r.checks) {
    const prefix = c.id.split("/").slice(0, 2).join("/");
    (groups.get(prefix) ?? groups.set(prefix, []).get(prefix)!).push(c);
  }
  const problems = (r.baseline?.problems ?? []).map((p) => `<p class="problem">baseline: ${esc(p)}</p>`).join("\n");
  return `<section class="run" id="${esc(anchor(`run-${r.protocol}-${r.side}`))}">
<h2>${esc(r.protocol)} (${r.side} side)</h2>
<p class="meta">target ${esc(r.target)} · profile ${esc(r.profile)}${r.strict ? " · strict" : ""} · started ${esc(r.startedAt)} · ${r.durationMs} ms · exit ${r.exitCode}${r.replay ? " · replayed" : ""}</p>
${r.error ? `<p class="problem">${esc(r.error)}</p>` : ""}
<table class="summary"><tr><th>pass</th><th>fail</th><th>warn</th><th>info</th><th>skip</th><th>incomplete</th></tr>
<tr><td>${s.pass}</td><td>${s.fail}</td><td>${s.warn}</td><td>${s.info}</td><td>${s.skip}</td><td>${s.incomplete}</td></tr></table>
${r.baseline ? `<p class="known">baseline ${esc(r.baseline.file)}: ${r.baseline.known} known failure(s) accepted</p>` : ""}
${problems}
${[...groups].map(([prefix, checks]) => group(prefix, checks, r)).join("\n")}
</section>`;
}

function group(prefix: string, checks: CheckResult[], r: RunResult): string {
  const counts = new Map<string, number>();
  for (const c of checks) counts.set(c.verdict, (counts.get(c.verdict) ?? 0) + 1);
  const tally = [...counts].map(([v, n]) => `${n} ${v}`).join(", ");
  return `<section class="group" data-prefix="${esc(prefix)}">
<h3>${esc(prefix)} <span class="meta">(${tally})</span></h3>
${checks.map((c) => check(c, r)).join("\n")}
</section>`;
}

function check(c: CheckResult, r: RunResult): string {
  const explained = c.verdict === "fail" || c.verdict === "warn";
  const head = `<summary><span class="badge">${c.verdict.toUpperCase()}</span><code>${esc(c.id)}</code> <span class="level">[${c.level}]</span> <span class="title">${esc(c.title)}</span>${
    c.durationMs !== undefined ? ` <span class="meta">${c.durationMs} ms</span>` : ""
  }${c.baseline ? ` <span class="known">(${esc(baselineNote(c.baseline))})</span>` : ""}</summary>`;
  const body: string[] = [`<p class="message">${esc(c.message)}</p>`];
  if (explained) {
    body.push(`<dl>
<dt>rule</dt><dd class="rule">${esc(c.rule)}</dd>
<dt>contract</dt><dd class="contract"><blockquote>${esc(c.ref.quote)}</blockquote>${esc(contractPlace(c))}</dd>
${c.expected !== undefined ? `<dt>expected</dt><dd class="expected">${esc(c.expected)}</dd>` : ""}
${c.actual !== undefined ? `<dt>actual</dt><dd class="actual">${esc(c.actual)}</dd>` : ""}
</dl>`);
    if (c.evidence.length) body.push(`<h4>evidence</h4><ul class="evidence">${c.evidence.map((e) => `<li>${esc(formatEvidence(e))}</li>`).join("")}</ul>`);
    for (const x of exchangesOf(c, r)) body.push(exchange(x, r));
    body.push(`<h4>replay</h4><pre class="cmd">${esc(replayCommand(r, c))}</pre>`);
  }
  return `<details class="check v-${c.verdict}" id="${esc(anchor(`${r.side}-${c.id}`))}"${explained ? " open" : ""}>${head}
${body.join("\n")}
</details>`;
}

/** The exchanges (at most three) a check's evidence points at, by id or by the offending event. */
function exchangesOf(c: CheckResult, r: RunResult): ExchangeRecord[] {
  const out: ExchangeRecord[] = [];
  for (const e of c.evidence) {
    const x = (r.exchanges ?? []).find((x) => (e.exchange && x.id === e.exchange) || (e.seq !== undefined && x.events?.some((l) => l.seq === e.seq)));
    if (x && !out.includes(x)) out.push(x);
    if (out.length === 3) break;
  }
  return out;
}

function exchange(x: ExchangeRecord, r: RunResult): string {
  const parts = [`<div class="exchange" data-exchange="${esc(x.id)}"><h4>${x.kind === "ws" ? "connection" : "exchange"} ${esc(x.id)}${x.label ? ` (${esc(x.label)})` : ""} · probe ${esc(x.probe)}</h4>`];
  if (x.request) {
    const head = [`${x.request.method} ${x.request.url}`, ...Object.entries(x.request.headers).map(([k, v]) => `${k}: ${v}`)].join("\n");
    parts.push(`<pre class="request">${esc(head)}${x.request.body !== undefined ? `\n\n${esc(x.request.body)}` : ""}</pre>`);
  }
  if (x.response) {
    const head = [`${x.kind === "ws" && x.response.status === 101 ? "101 Switching Protocols" : `HTTP ${x.response.status}`}`, ...Object.entries(x.response.headers).map(([k, v]) => `${k}: ${v}`)].join("\n");
    parts.push(`<pre class="response">${esc(head)}${x.response.body !== undefined ? `\n\n${esc(x.response.body)}` : ""}</pre>`);
  }
  if (x.error) parts.push(`<p class="problem">${esc(x.error)}</p>`);
  if (x.events?.length) {
    parts.push(
      `<ol class="events">${x.events
        .map((l) => `<li${l.offending ? ' class="offending"' : ""}><span class="seq">#${l.seq} ${Math.round(l.t)} ms ${esc(l.kind)}</span> ${esc(l.text)}</li>`)
        .join("")}</ol>`,
    );
  }
  const curl = r.side === "server" ? curlCommand(x) : undefined;
  if (curl) parts.push(`<pre class="cmd curl">${esc(curl)}</pre>`);
  parts.push("</div>");
  return parts.join("\n");
}

const anchor = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, "-");

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}
