/**
 * How long each check took on the wire, read from the transcript's own clock (so a replay gives
 * the live run's times): the span of the probes and exchanges that feed it (`CheckDef.probes`
 * names either, with `*` as a wildcard). A check fed by the whole run ("every request", a client
 * session) gets the run's span. Only group boundaries are looked at: a long stream costs nothing.
 */
import type { TranscriptEvent } from "../transcript/transcript.js";

interface Span {
  start: number;
  end: number;
  /** The probe the span's events belong to (a single labelled frame borrows its probe's span). */
  probe: string;
}

export class CheckClock {
  private readonly spans = new Map<string, Span>();
  private readonly connectionLabel = new Map<string, string>();
  private first: number | undefined;
  private last = 0;

  observe = (ev: TranscriptEvent): void => {
    if (this.first === undefined) this.first = ev.t;
    this.last = ev.t;
    switch (ev.kind) {
      case "probe-start":
      case "probe-end":
        this.mark(`probe:${ev.probe}`, ev.t, ev.probe);
        return;
      case "http-request":
      case "http-response":
      case "http-error":
      case "body-end":
        this.mark(`label:${ev.label}`, ev.t, ev.probe);
        return;
      case "ws-open":
      case "ws-reject":
        if (ev.label) {
          this.connectionLabel.set(ev.connection, ev.label);
          this.mark(`label:${ev.label}`, ev.t, ev.probe);
        }
        return;
      case "ws-close": {
        const label = this.connectionLabel.get(ev.connection);
        if (label) this.mark(`label:${label}`, ev.t, ev.probe);
        return;
      }
      case "ws-frame":
        if (ev.label) this.mark(`label:${ev.label}`, ev.t, ev.probe);
        return;
      default:
        return;
    }
  };

  private mark(key: string, t: number, probe: string): void {
    const s = this.spans.get(key);
    if (!s) this.spans.set(key, { start: t, end: t, probe });
    else {
      if (t < s.start) s.start = t;
      if (t > s.end) s.end = t;
    }
  }

  /** Milliseconds of wire time behind a check fed by `names`. */
  durationOf(names: readonly string[]): number {
    const matched: Span[] = [];
    for (const name of names) {
      const exact = [this.spans.get(`probe:${name}`), this.spans.get(`label:${name}`)].filter((s): s is Span => !!s);
      if (exact.length) matched.push(...exact);
      else if (name.includes("*")) {
        const re = new RegExp(`^(probe|label):${name.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
        for (const [k, s] of this.spans) if (re.test(k)) matched.push(s);
      }
    }
    if (matched.length === 0) return this.round(this.last - (this.first ?? this.last));
    let span = union(matched);
    if (span.end === span.start) {
      // Labelled single frames: the probe that sent them is the exchange they began.
      const probes = matched.map((s) => this.spans.get(`probe:${s.probe}`)).filter((s): s is Span => !!s);
      if (probes.length) span = union(probes);
    }
    return this.round(span.end - span.start);
  }

  private round(ms: number): number {
    return Math.round(ms * 1000) / 1000;
  }
}

function union(spans: Span[]): { start: number; end: number } {
  return { start: Math.min(...spans.map((s) => s.start)), end: Math.max(...spans.map((s) => s.end)) };
}
