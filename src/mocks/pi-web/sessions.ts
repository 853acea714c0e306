/**
 * The mock's session store (contract §6 "State"): three seeded sessions with distinct `modified`
 * times, and the active session, which starts fresh and is listed only once it holds an
 * assistant reply (pi writes the session file then). Memory only.
 */
import type { IdSource } from "./ids.js";
import { assistantSkeleton, finalAssistant, textOf, toolResultMessage, userMessage } from "./messages.js";
import type { AgentMessage, Json } from "./types.js";

export const MOCK_CWD = "/mock/cwd";
export const OTHER_CWD = "/mock/other";

export interface Session {
  id: string;
  path: string;
  cwd: string;
  created: string;
  modified: string;
  name?: string;
  parentSessionPath?: string;
  messages: AgentMessage[];
  /** Entry id of each message, parallel to `messages` (leafId is the last one). */
  entryIds: string[];
  /** Written to "disk" (listed) once an assistant message arrived. */
  listed: boolean;
  /** Message count when the last run started, for history-shaped faults. */
  lastRunStart: number;
}

/** `/mock/sessions/--mock-cwd--/<iso>_<uuid>.jsonl`, pi's layout with `:` and `.` made `-`. */
export function sessionPath(cwd: string, created: string, id: string): string {
  const dir = `--${cwd.replace(/^\/+/, "").replace(/\//g, "-")}--`;
  return `/mock/sessions/${dir}/${created.replace(/[:.]/g, "-")}_${id}.jsonl`;
}

export class SessionStore {
  private readonly sessions: Session[] = [];
  active: Session;

  constructor(
    private readonly ids: IdSource,
    seeded = true,
  ) {
    for (const seed of seeded ? seededSessions() : []) {
      const id = ids.uuid();
      const s: Session = {
        id,
        path: sessionPath(seed.cwd, seed.created, id),
        cwd: seed.cwd,
        created: seed.created,
        modified: seed.modified,
        ...(seed.name ? { name: seed.name } : {}),
        messages: seed.messages,
        entryIds: seed.messages.map(() => ids.entry()),
        listed: true,
        lastRunStart: 0,
      };
      this.sessions.push(s);
    }
    this.active = this.fresh();
  }

  /** A new, unlisted session in the mock cwd. */
  fresh(parentSessionPath?: string, path?: string): Session {
    const id = this.ids.uuid();
    const created = new Date().toISOString();
    return {
      id,
      path: path ?? sessionPath(MOCK_CWD, created, id),
      cwd: MOCK_CWD,
      created,
      modified: created,
      ...(parentSessionPath !== undefined ? { parentSessionPath } : {}),
      messages: [],
      entryIds: [],
      listed: false,
      lastRunStart: 0,
    };
  }

  /** Makes `s` the active session; the one left behind stays only if it was listed. */
  activate(s: Session): void {
    if (this.active.listed && !this.sessions.includes(this.active)) this.sessions.push(this.active);
    this.active = s;
  }

  /** Listed sessions plus, once written, the active one. */
  all(): Session[] {
    const out = [...this.sessions];
    if (this.active.listed && !out.includes(this.active)) out.push(this.active);
    return out;
  }

  find(path: string): Session | undefined {
    return this.all().find((s) => s.path === path);
  }

  append(s: Session, message: AgentMessage): void {
    s.messages.push(message);
    s.entryIds.push(this.ids.entry());
    if (message.role === "assistant") s.listed = true;
    s.modified = new Date().toISOString();
  }
}

/** One `list_sessions` item (session-summary). */
export function summaryOf(s: Session): Json {
  const first = s.messages.find((m) => m.role === "user");
  return {
    path: s.path,
    id: s.id,
    cwd: s.cwd,
    created: s.created,
    modified: s.modified,
    messageCount: s.messages.length,
    firstMessage: first ? textOf(first) : "",
    allMessagesText: s.messages
      .filter((m) => m.role === "user" || m.role === "assistant")
      .map(textOf)
      .filter((t) => t !== "")
      .join(" "),
    ...(s.name !== undefined ? { name: s.name } : {}),
    ...(s.parentSessionPath !== undefined ? { parentSessionPath: s.parentSessionPath } : {}),
  };
}

interface SeedSession {
  cwd: string;
  created: string;
  modified: string;
  name?: string;
  messages: AgentMessage[];
}

/**
 * S1: a tool round trip with thinking (4 messages); S2 and S3: one exchange each. The modified
 * order (S2, S1, S3) differs from the creation order, so an unsorted listing shows.
 */
function seededSessions(): SeedSession[] {
  const t = (iso: string) => Date.parse(iso);
  const s1Call = { type: "toolCall" as const, id: "call_seed_1", name: "read", arguments: { path: "README.md" } };
  const s1a1 = finalAssistant(
    assistantSkeleton(t("2026-02-20T09:00:02.000Z")),
    [{ type: "thinking", thinking: "The user wants the README; read it first." }, s1Call],
    "toolUse",
    12,
  );
  const s1a2 = finalAssistant(
    assistantSkeleton(t("2026-02-20T09:00:04.000Z")),
    [{ type: "text", text: "The README is titled \"Mock README\"." }],
    "stop",
    30,
  );
  return [
    {
      cwd: MOCK_CWD,
      created: "2026-02-20T09:00:00.000Z",
      modified: "2026-02-22T09:00:00.000Z",
      name: "README tour",
      messages: [
        userMessage({ text: "What does README.md say?", images: [] }, t("2026-02-20T09:00:01.000Z")),
        s1a1,
        toolResultMessage("call_seed_1", "read", "# Mock README", false, t("2026-02-20T09:00:03.000Z")),
        s1a2,
      ],
    },
    {
      cwd: MOCK_CWD,
      created: "2026-02-21T10:00:00.000Z",
      modified: "2026-02-23T10:00:00.000Z",
      messages: [
        userMessage({ text: "Say hello", images: [] }, t("2026-02-21T10:00:01.000Z")),
        finalAssistant(assistantSkeleton(t("2026-02-21T10:00:02.000Z")), [{ type: "text", text: "Hello!" }], "stop", 3),
      ],
    },
    {
      cwd: OTHER_CWD,
      created: "2026-02-19T08:00:00.000Z",
      modified: "2026-02-21T08:00:00.000Z",
      messages: [
        userMessage({ text: "List the files", images: [] }, t("2026-02-19T08:00:01.000Z")),
        finalAssistant(
          assistantSkeleton(t("2026-02-19T08:00:02.000Z")),
          [{ type: "text", text: "There are no files in /mock/other." }],
          "stop",
          4,
        ),
      ],
    },
  ];
}
