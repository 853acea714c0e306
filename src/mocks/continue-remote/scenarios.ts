/**
 * The §6 scenarios as data: rounds of (optional streamed preamble, one tool) and a final text. The
 * profile-specific turns (turn-seed.ts, turn-cn.ts) write them as DisplayMessages or Session items.
 */

export interface ToolUse {
  /** Display name, as in `○ Read(…)`; cn uses it as the function name. */
  display: string;
  args: Record<string, unknown>;
  /** The text between the parentheses: the first argument's value, or nothing. */
  arg: string;
  /** What the tool returns; absent when it fails with `error`. */
  result?: string;
  error?: string;
  /** The call waits for `POST /permission`. */
  ask?: boolean;
}

export interface Round {
  preamble?: string;
  tool: ToolUse;
}

export interface ContinueRemoteScenario {
  name: string;
  description: string;
  rounds: Round[];
  final: string;
  /** The final text when a permission was denied. */
  deniedFinal?: string;
  /** The turn fails at once with `Error: <llmError>`, not streamed. */
  llmError?: string;
  /** Factor on `chunkMs` while streaming. */
  chunkFactor?: number;
  /** seed: the result replaces its start in place, as the legacy `● Read`. */
  legacyReplace?: boolean;
  /** seed: finalising drops `isStreaming` instead of setting it false. */
  dropStreamingFlag?: boolean;
  /** The assistant text streams in exactly this many chunks (rather than by `chunkChars`). */
  chunkCount?: number;
  /** The turn ends after its last tool, with no final text (a fault's doing). */
  endsAtTool?: boolean;
}

/** The seed's name table; tools outside it keep their display name in lower case. */
export const TOOL_NAMES: Record<string, string> = {
  Read: "read_file",
  Write: "write_file",
  Bash: "run_terminal_command",
  List: "list_files",
  Search: "search_code",
  Diff: "view_diff",
  Fetch: "fetch",
  Exit: "exit",
};

export const SEED_README = "# My Project\n\nThis is a sample README file.\n\n## Installation\n\nRun `npm install`";
export const DENIED_RESULT = "Permission denied by user";
export const CANCELLED_RESULT = "Cancelled due to previous tool rejection";

const readme: ToolUse = { display: "Read", args: { filepath: "README.md" }, arg: "README.md", result: SEED_README };
const readmeFinal = "I've read the README file. It contains installation instructions that recommend running `npm install`.";
const bash: ToolUse = {
  display: "Bash",
  args: { command: "ls -la" },
  arg: "ls -la",
  result: "total 8\ndrwxr-xr-x 2 user user 4096 Jan  1 00:00 .\n-rw-r--r-- 1 user user  120 Jan  1 00:00 README.md",
};
const write = (file: string, ask = false): ToolUse => ({
  display: "Write",
  args: { filepath: file, content: "Remember to run npm install.\n" },
  arg: file,
  result: `Successfully wrote ${file}`,
  ...(ask ? { ask } : {}),
});

/** 256 KiB of listing, for clients that must cope with large results. */
function longListing(): string {
  const line = "-rw-r--r-- 1 user user 4096 Jan  1 00:00 file-0000000000000000000000000000.txt\n"; // 80 bytes
  const n = (256 * 1024) / line.length;
  let out = "";
  for (let i = 0; i < n; i++) out += line;
  return out.slice(0, 256 * 1024);
}

const UNICODE_TEXT =
  "多语言测试：你好，世界。 Family: 👨‍👩‍👧‍👦, flags 🇯🇵. RTL: שלום עולם, مرحبا. Combining: e\u0301, n\u0303. Line\u2028separator.";

export const SCENARIOS: ContinueRemoteScenario[] = [
  { name: "chat", description: "streamed text, no tool", rounds: [], final: "Hello! How can I help?" },
  {
    name: "read-file",
    description: "reads README.md and sums it up",
    rounds: [{ preamble: "I'll read the README file.", tool: readme }],
    final: readmeFinal,
  },
  {
    name: "write-file",
    description: "writes notes.txt, auto-approved",
    rounds: [{ preamble: "I'll write the notes file.", tool: write("notes.txt") }],
    final: "I wrote notes.txt.",
  },
  {
    name: "bash",
    description: "runs ls -la",
    rounds: [{ preamble: "Let me list the directory.", tool: bash }],
    final: "The directory holds README.md.",
  },
  {
    name: "list",
    description: "lists src",
    rounds: [
      {
        preamble: "Let me look at src.",
        tool: { display: "List", args: { dirpath: "src" }, arg: "src", result: "src/index.ts\nsrc/util.ts" },
      },
    ],
    final: "src holds two files.",
  },
  {
    name: "search",
    description: "searches for TODO",
    rounds: [
      {
        preamble: "Searching for TODOs.",
        tool: { display: "Search", args: { pattern: "TODO" }, arg: "TODO", result: "src/index.ts:3: // TODO: handle errors" },
      },
    ],
    final: "There is one TODO, in src/index.ts.",
  },
  {
    name: "diff",
    description: "views the working diff",
    rounds: [
      {
        preamble: "Let me check the diff.",
        tool: {
          display: "Diff",
          args: {},
          arg: "",
          result: "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-# My Project\n+# My Project (renamed)\n",
        },
      },
    ],
    final: "The README title changed.",
  },
  {
    name: "fetch",
    description: "fetches https://example.com",
    rounds: [
      {
        preamble: "Fetching the page.",
        tool: {
          display: "Fetch",
          args: { url: "https://example.com" },
          arg: "https://example.com",
          result: "<!doctype html><html><head><title>Example Domain</title></head><body><h1>Example Domain</h1></body></html>",
        },
      },
    ],
    final: "The page is the Example Domain placeholder.",
  },
  {
    name: "exit",
    description: "calls the exit tool",
    rounds: [{ preamble: "Finishing up.", tool: { display: "Exit", args: {}, arg: "", result: "Exiting." } }],
    final: "Done.",
  },
  {
    name: "tool-error",
    description: "reads a missing file; the tool fails",
    rounds: [
      {
        preamble: "I'll read missing.txt.",
        tool: { display: "Read", args: { filepath: "missing.txt" }, arg: "missing.txt", error: "File not found" },
      },
    ],
    final: "The file does not exist.",
  },
  {
    name: "permission",
    description: "writes notes.txt after asking permission",
    rounds: [{ preamble: "I'll write the notes file.", tool: write("notes.txt", true) }],
    final: "I wrote notes.txt.",
    deniedFinal: "Okay, I did not write the file.",
  },
  {
    name: "permission-twice",
    description: "two writes in one turn, each asking permission",
    rounds: [
      { preamble: "I'll write the notes file.", tool: write("notes.txt", true) },
      { preamble: "And the todo file.", tool: write("todo.txt", true) },
    ],
    final: "I wrote both files.",
    deniedFinal: "Okay, I did not write the files.",
  },
  {
    name: "multi-tool",
    description: "a Read round, then a Bash round",
    rounds: [
      { preamble: "I'll read the README file.", tool: readme },
      { preamble: "Now the directory.", tool: bash },
    ],
    final: "The README asks for npm install and the directory holds README.md.",
  },
  { name: "llm-error", description: "the model call fails", rounds: [], final: "", llmError: "500 mock upstream failure" },
  {
    name: "slow",
    description: "60 chunks at 5×chunkMs, then a Read",
    rounds: [{ preamble: "Thinking slowly about this. ".repeat(10), tool: readme }],
    final: readmeFinal,
    chunkFactor: 5,
    chunkCount: 60,
  },
  {
    name: "long-output",
    description: "a 256 KiB Bash result",
    rounds: [{ preamble: "Listing everything.", tool: { ...bash, args: { command: "ls -laR" }, arg: "ls -laR", result: longListing() } }],
    final: "That is a long listing.",
  },
  {
    name: "unicode",
    description: "CJK, ZWJ emoji, RTL, combining marks and U+2028",
    rounds: [
      {
        preamble: "读取文件 👩‍💻…",
        tool: { display: "Read", args: { filepath: "文档/说明.md" }, arg: "文档/说明.md", result: UNICODE_TEXT },
      },
    ],
    final: UNICODE_TEXT,
  },
  {
    name: "legacy-replace",
    description: "read-file, resolved in place as the legacy `● Read`",
    rounds: [{ preamble: "I'll read the README file.", tool: readme }],
    final: readmeFinal,
    legacyReplace: true,
  },
  {
    name: "seed-example",
    description: "the seed's Example Response, exactly",
    rounds: [{ tool: readme }],
    final: readmeFinal,
    dropStreamingFlag: true,
  },
];

export function findScenario(name: string): ContinueRemoteScenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

/** The name after a leading `#scenario:`, if the message starts with one. */
export function scenarioDirective(message: string): string | undefined {
  return /^#scenario:(\S+)/.exec(message)?.[1];
}
