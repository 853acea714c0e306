/**
 * The built-in tool catalogues of the openai-chat contract, as data: which functions exist, the
 * parameters a client sends for them, Continue's default policy, and the example arguments the
 * mock calls them with. `seed` is the seed's §4 (15 tools); `continue-2026` and
 * `continue-cli-2026` are what Continue's IDE and CLI offer today (protocol doc §5).
 *
 * The mock calls whatever tools a request offers; a catalogue only chooses example arguments and
 * `exclusive` flags. The suite's checks import the same records to match a client's `tools[]`.
 */

export type CatalogueName = "seed" | "continue-2026" | "continue-cli-2026";

export type ToolPolicy =
  | "allowedWithoutPermission"
  | "allowedWithPermission"
  | "disabled"
  | "allow"
  | "ask"
  | "exclude";

/** A JSON Schema object as a client sends it in `function.parameters`. */
export interface ToolParameters {
  type: "object";
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
  [key: string]: unknown;
}

export interface CatalogueTool {
  /** Exact function name. */
  name: string;
  /** English description, as the kit's probes send it. */
  description: string;
  parameters: ToolParameters;
  /** Kebab-case name of the args schema (tools/<args>.args.schema.json, or tools/cli/… for the CLI). */
  args: string;
  policy: ToolPolicy;
  /** Offered in Continue's plan mode. */
  readonly: boolean;
  /** Must be the only call of its assistant message. */
  exclusive: boolean;
  offeredWhen: string;
  exampleArgs: Record<string, unknown>;
  probePrompt: string;
}

export interface Catalogue {
  name: CatalogueName | "none";
  description: string;
  tools: readonly CatalogueTool[];
}

const str = (description: string) => ({ type: "string", description });
const bool = (description: string) => ({ type: "boolean", description });
const num = (description: string) => ({ type: "number", description });
const strings = (description: string) => ({ type: "array", items: { type: "string" }, description });

function params(properties: Record<string, Record<string, unknown>>, required: string[] = []): ToolParameters {
  return required.length ? { type: "object", properties, required } : { type: "object", properties };
}

/** A parameterless tool: empty properties, no `required`. */
const NO_PARAMS: ToolParameters = { type: "object", properties: {} };

type Entry = Omit<CatalogueTool, "args"> & { args?: string };

/** snake_case or PascalCase → kebab-case: read_file → read-file, CheckBackgroundJob → check-background-job. */
export function kebabName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[_\s]+/g, "-")
    .toLowerCase();
}

function tool(e: Entry, argsPrefix = ""): CatalogueTool {
  return { ...e, args: e.args ?? argsPrefix + kebabName(e.name) };
}

const SEARCH_REPLACE_BLOCK = "------- SEARCH\n# Old title\n=======\n# New title\n+++++++ REPLACE";

// --- seed §4 ---------------------------------------------------------------------------------

const READ_FILE: Entry = {
  name: "read_file",
  description: "Read the contents of a file, given its path relative to the workspace root.",
  parameters: params({ filepath: str("The path of the file to read, relative to the workspace root") }, ["filepath"]),
  policy: "allowedWithoutPermission",
  readonly: true,
  exclusive: false,
  offeredWhen: "always",
  exampleArgs: { filepath: "README.md" },
  probePrompt: "Read the file README.md.",
};

const READ_CURRENTLY_OPEN_FILE: Entry = {
  name: "read_currently_open_file",
  description: "Read the contents of the file currently open in the IDE.",
  parameters: NO_PARAMS,
  policy: "allowedWithPermission",
  readonly: true,
  exclusive: false,
  offeredWhen: "always",
  exampleArgs: {},
  probePrompt: "Show me the file I have open.",
};

const CREATE_NEW_FILE: Entry = {
  name: "create_new_file",
  description: "Create a new file and write its contents.",
  parameters: params(
    {
      filepath: str("The path of the new file, relative to the workspace root"),
      contents: str("The contents of the new file"),
    },
    ["filepath", "contents"],
  ),
  policy: "allowedWithPermission",
  readonly: false,
  exclusive: false,
  offeredWhen: "always",
  exampleArgs: { filepath: "hello.txt", contents: "Hello, world!\n" },
  probePrompt: "Create a file hello.txt that says Hello, world!",
};

const EDIT_EXISTING_FILE: Entry = {
  name: "edit_existing_file",
  description:
    "Apply changes to an existing file. Give the edited result; abbreviate unchanged regions of large files with a comment such as `// ... existing code ...`.",
  parameters: params(
    {
      filepath: str("The path of the file to edit, relative to the workspace root"),
      changes: str("The edited file content, unchanged regions abbreviated"),
    },
    ["filepath", "changes"],
  ),
  policy: "allowedWithPermission",
  readonly: false,
  exclusive: false,
  offeredWhen: "always",
  exampleArgs: { filepath: "README.md", changes: "# Title\n// ... existing code ...\n" },
  probePrompt: "Change the title of README.md to Title.",
};

const SEARCH_AND_REPLACE_IN_FILE: Entry = {
  name: "search_and_replace_in_file",
  description:
    "Replace exact sections of a file, each described by a SEARCH/REPLACE block. Never call it in parallel with other tools.",
  parameters: params(
    {
      filepath: str("The path of the file to change, relative to the workspace root"),
      diffs: strings("One or more SEARCH/REPLACE blocks"),
    },
    ["filepath", "diffs"],
  ),
  policy: "allowedWithPermission",
  readonly: false,
  exclusive: true,
  offeredWhen: "always",
  exampleArgs: { filepath: "README.md", diffs: [SEARCH_REPLACE_BLOCK] },
  probePrompt: "In README.md, replace the heading '# Old title' with '# New title'.",
};

const GREP_SEARCH: Entry = {
  name: "grep_search",
  description: "Search the repository's text with a ripgrep regular expression (output may be truncated).",
  parameters: params({ query: str("A ripgrep regular expression") }, ["query"]),
  policy: "allowedWithoutPermission",
  readonly: true,
  exclusive: false,
  offeredWhen: "always",
  exampleArgs: { query: "TODO" },
  probePrompt: "Find every TODO in the code.",
};

const FILE_GLOB_SEARCH: Entry = {
  name: "file_glob_search",
  description: "Find files in the project whose paths match a glob pattern (`**` recurses).",
  parameters: params({ pattern: str("A glob pattern, e.g. **/*.ts") }, ["pattern"]),
  policy: "allowedWithoutPermission",
  readonly: true,
  exclusive: false,
  offeredWhen: "always",
  exampleArgs: { pattern: "**/*.ts" },
  probePrompt: "List every TypeScript file in the project.",
};

const SEARCH_WEB: Entry = {
  name: "search_web",
  description: "Search the web and return the top results. Use only when needed.",
  parameters: params({ query: str("A natural-language search query") }, ["query"]),
  policy: "allowedWithoutPermission",
  readonly: true,
  exclusive: false,
  offeredWhen: "always",
  exampleArgs: { query: "OpenAI streaming tool calls" },
  probePrompt: "Search the web for how OpenAI streams tool calls.",
};

const VIEW_DIFF: Entry = {
  name: "view_diff",
  description: "Show the git diff of the current working directory.",
  parameters: NO_PARAMS,
  policy: "allowedWithoutPermission",
  readonly: true,
  exclusive: false,
  offeredWhen: "always",
  exampleArgs: {},
  probePrompt: "Show me the current git diff.",
};

const LS: Entry = {
  name: "ls",
  description: "List the files and folders of a directory.",
  parameters: params({
    dirPath: str("The directory, relative to the workspace root; defaults to the root"),
    recursive: bool("List recursively (use sparingly)"),
  }),
  policy: "allowedWithoutPermission",
  readonly: true,
  exclusive: false,
  offeredWhen: "always",
  exampleArgs: { dirPath: ".", recursive: false },
  probePrompt: "List the files in the project root.",
};

const FETCH_URL_CONTENT: Entry = {
  name: "fetch_url_content",
  description: "Fetch the content of a web page (not for downloading files).",
  parameters: params({ url: str("The URL to fetch") }, ["url"]),
  policy: "allowedWithPermission",
  readonly: true,
  exclusive: false,
  offeredWhen: "always",
  exampleArgs: { url: "https://example.com" },
  probePrompt: "Fetch https://example.com and summarise it.",
};

const CREATE_RULE_BLOCK: Entry = {
  name: "create_rule_block",
  description: "Create and store a rule for later conversations. Edit existing rules with the file tools.",
  parameters: params(
    {
      name: str("Short name of the rule"),
      rule: str("The rule text"),
      description: str("When the rule applies"),
      globs: str("File globs the rule applies to, as one string"),
      regex: str("A regular expression the rule applies to"),
      alwaysApply: bool("Apply the rule to every request"),
    },
    ["name", "rule"],
  ),
  policy: "allowedWithPermission",
  readonly: false,
  exclusive: false,
  offeredWhen: "always",
  exampleArgs: { name: "tabs", rule: "Indent with tabs." },
  probePrompt: "Create a rule named tabs saying: Indent with tabs.",
};

const REQUEST_RULE: Entry = {
  name: "request_rule",
  description: "Get the content of an available rule by its name.",
  parameters: params({ name: str("The name of the rule") }, ["name"]),
  policy: "disabled",
  readonly: true,
  exclusive: false,
  offeredWhen: "only in some configurations",
  exampleArgs: { name: "tabs" },
  probePrompt: "Show me the rule named tabs.",
};

const CODEBASE: Entry = {
  name: "codebase",
  description: "Search the codebase for code relevant to a natural-language query.",
  parameters: params({ query: str("What to look for, in natural language") }, ["query"]),
  policy: "allowedWithPermission",
  readonly: true,
  exclusive: false,
  offeredWhen: "always",
  exampleArgs: { query: "where is the HTTP server started" },
  probePrompt: "Where in the codebase is the HTTP server started?",
};

const RUN_TERMINAL_COMMAND: Entry = {
  name: "run_terminal_command",
  description:
    "Run a terminal command in the current directory. The shell starts fresh on every call; never run commands that need administrator rights.",
  parameters: params(
    {
      command: str("The command line to run"),
      waitForCompletion: bool("Wait for the command to finish (default true); false runs it in the background"),
    },
    ["command"],
  ),
  policy: "allowedWithPermission",
  readonly: false,
  exclusive: false,
  offeredWhen: "always",
  exampleArgs: { command: "npm install", waitForCompletion: true },
  probePrompt: "Install the project's dependencies.",
};

const SEED: Catalogue = {
  name: "seed",
  description: "The seed's §4: the 15 built-in tools of Continue with their parameters and policies",
  tools: [
    READ_FILE,
    READ_CURRENTLY_OPEN_FILE,
    CREATE_NEW_FILE,
    EDIT_EXISTING_FILE,
    SEARCH_AND_REPLACE_IN_FILE,
    GREP_SEARCH,
    FILE_GLOB_SEARCH,
    SEARCH_WEB,
    VIEW_DIFF,
    LS,
    FETCH_URL_CONTENT,
    CREATE_RULE_BLOCK,
    REQUEST_RULE,
    CODEBASE,
    RUN_TERMINAL_COMMAND,
  ].map((e) => tool(e)),
};

// --- continue-2026: the IDE's current set ----------------------------------------------------

const CONTINUE_2026: Catalogue = {
  name: "continue-2026",
  description: "The Continue IDE's built-in tools in 2026 (search_and_replace_in_file replaced by the find-and-replace tools)",
  tools: [
    READ_FILE,
    READ_CURRENTLY_OPEN_FILE,
    CREATE_NEW_FILE,
    { ...EDIT_EXISTING_FILE, exclusive: true, offeredWhen: "the model is not a recommended agent model" },
    {
      name: "single_find_and_replace",
      description: "Replace one exact string in a file (or every occurrence with replace_all).",
      parameters: params(
        {
          filepath: str("The path of the file to edit, relative to the workspace root"),
          old_string: str("The exact text to replace"),
          new_string: str("The replacement text"),
          replace_all: bool("Replace every occurrence (default false)"),
        },
        ["filepath", "old_string", "new_string"],
      ),
      policy: "allowedWithPermission",
      readonly: false,
      exclusive: true,
      offeredWhen: "the model is not a recommended agent model",
      exampleArgs: { filepath: "README.md", old_string: "# Old title", new_string: "# New title" },
      probePrompt: "In README.md, replace '# Old title' with '# New title'.",
    },
    {
      name: "multi_edit",
      description: "Apply several exact replacements to one file, in order.",
      parameters: params(
        {
          filepath: str("The path of the file to edit, relative to the workspace root"),
          edits: {
            type: "array",
            minItems: 1,
            description: "The replacements, applied in order",
            items: {
              type: "object",
              properties: {
                old_string: str("The exact text to replace"),
                new_string: str("The replacement text"),
                replace_all: bool("Replace every occurrence (default false)"),
              },
              required: ["old_string", "new_string"],
            },
          },
        },
        ["filepath", "edits"],
      ),
      policy: "allowedWithPermission",
      readonly: false,
      exclusive: true,
      offeredWhen: "the model is a recommended agent model (gpt-4.1, gpt-5+, o-series, Claude Sonnet 3.7+/4+, Opus 4+, Gemini 2.5 Pro...)",
      exampleArgs: { filepath: "README.md", edits: [{ old_string: "# Old title", new_string: "# New title" }] },
      probePrompt: "In README.md, replace '# Old title' with '# New title'.",
    },
    { ...GREP_SEARCH, offeredWhen: "the IDE is not remote" },
    FILE_GLOB_SEARCH,
    SEARCH_WEB,
    VIEW_DIFF,
    LS,
    FETCH_URL_CONTENT,
    { ...CREATE_RULE_BLOCK, policy: "disabled", offeredWhen: "never in agent mode" },
    REQUEST_RULE,
    { ...CODEBASE, offeredWhen: "experimental tools enabled" },
    RUN_TERMINAL_COMMAND,
    {
      name: "read_skill",
      description: "Read the instructions of a skill by its name.",
      parameters: params({ skillName: str("The name of the skill") }, ["skillName"]),
      policy: "allowedWithPermission",
      readonly: true,
      exclusive: false,
      offeredWhen: "always",
      exampleArgs: { skillName: "testing" },
      probePrompt: "Load the skill named testing.",
    },
    {
      name: "read_file_range",
      description: "Read a range of lines of a file (1-based, inclusive).",
      parameters: params(
        {
          filepath: str("The path of the file, relative to the workspace root"),
          startLine: num("The first line, 1-based"),
          endLine: num("The last line, 1-based"),
        },
        ["filepath", "startLine", "endLine"],
      ),
      policy: "allowedWithoutPermission",
      readonly: true,
      exclusive: false,
      offeredWhen: "experimental tools enabled",
      exampleArgs: { filepath: "README.md", startLine: 1, endLine: 20 },
      probePrompt: "Show me lines 1 to 20 of README.md.",
    },
    {
      name: "view_repo_map",
      description: "Show a map of the repository's files and their main symbols.",
      parameters: NO_PARAMS,
      policy: "allowedWithPermission",
      readonly: true,
      exclusive: false,
      offeredWhen: "experimental tools enabled",
      exampleArgs: {},
      probePrompt: "Give me an overview of the repository.",
    },
    {
      name: "view_subdirectory",
      description: "Show the files and symbols of one directory of the repository.",
      parameters: params({ directory_path: str("The directory, relative to the workspace root") }, ["directory_path"]),
      policy: "allowedWithPermission",
      readonly: true,
      exclusive: false,
      offeredWhen: "experimental tools enabled",
      exampleArgs: { directory_path: "src" },
      probePrompt: "Give me an overview of the src directory.",
    },
  ].map((e) => tool(e as Entry)),
};

// --- continue-cli-2026: the `cn` CLI ---------------------------------------------------------

type CliEntry = Omit<Entry, "readonly" | "exclusive"> & { readonly?: boolean; exclusive?: boolean };

const cli = (e: CliEntry): CatalogueTool =>
  tool({ readonly: false, exclusive: false, ...e }, "cli/");

const CONTINUE_CLI_2026: Catalogue = {
  name: "continue-cli-2026",
  description: "The Continue CLI's (cn) tools in 2026: PascalCase names, policies allow/ask/exclude",
  tools: [
    cli({
      name: "Read",
      description: "Read a file.",
      parameters: params({ filepath: str("The path of the file to read") }, ["filepath"]),
      policy: "allow",
      readonly: true,
      offeredWhen: "always",
      exampleArgs: { filepath: "README.md" },
      probePrompt: "Read the file README.md.",
    }),
    cli({
      name: "Write",
      description: "Write a whole file, creating it if needed.",
      parameters: params({ filepath: str("The path of the file"), content: str("The whole new content") }, [
        "filepath",
        "content",
      ]),
      policy: "ask",
      offeredWhen: "interactive, or headless with --auto",
      exampleArgs: { filepath: "hello.txt", content: "Hello, world!\n" },
      probePrompt: "Create a file hello.txt that says Hello, world!",
    }),
    cli({
      name: "List",
      description: "List the files of a directory.",
      parameters: params({ dirpath: str("The directory to list") }, ["dirpath"]),
      policy: "allow",
      readonly: true,
      offeredWhen: "always",
      exampleArgs: { dirpath: "." },
      probePrompt: "List the files in the project root.",
    }),
    cli({
      name: "Bash",
      description: "Run a shell command.",
      parameters: params(
        { command: str("The command line to run"), timeout: num("Timeout in seconds, at most 600") },
        ["command"],
      ),
      policy: "ask",
      offeredWhen: "always",
      exampleArgs: { command: "npm install" },
      probePrompt: "Install the project's dependencies.",
    }),
    cli({
      name: "Fetch",
      description: "Fetch the content of a URL.",
      parameters: params({ url: str("The URL to fetch") }, ["url"]),
      policy: "allow",
      readonly: true,
      offeredWhen: "always",
      exampleArgs: { url: "https://example.com" },
      probePrompt: "Fetch https://example.com and summarise it.",
    }),
    cli({
      name: "Checklist",
      description: "Write or update the task checklist.",
      parameters: params({ checklist: str("The checklist, one item per line") }, ["checklist"]),
      policy: "allow",
      offeredWhen: "always",
      exampleArgs: { checklist: "- [ ] read README.md\n- [ ] summarise it" },
      probePrompt: "Make a checklist for summarising README.md.",
    }),
    cli({
      name: "CheckBackgroundJob",
      description: "Report the status and output of a background command.",
      parameters: params({ job_id: str("The id of the background job") }, ["job_id"]),
      policy: "allow",
      readonly: true,
      offeredWhen: "always",
      exampleArgs: { job_id: "job-1" },
      probePrompt: "How is background job job-1 doing?",
    }),
    cli({
      name: "AskQuestion",
      description: "Ask the user a multiple-choice question.",
      parameters: params(
        {
          question: str("The question"),
          options: strings("The answers the user can pick"),
          defaultAnswer: str("The answer picked when the user just confirms"),
        },
        ["question", "options"],
      ),
      policy: "allow",
      readonly: true,
      offeredWhen: "always",
      exampleArgs: { question: "Which package manager?", options: ["npm", "pnpm"] },
      probePrompt: "Ask me which package manager to use: npm or pnpm.",
    }),
    cli({
      name: "Search",
      description: "Search file contents with a ripgrep regular expression.",
      parameters: params(
        {
          pattern: str("A ripgrep regular expression"),
          path: str("Where to search"),
          file_pattern: str("A glob limiting the files searched"),
        },
        ["pattern"],
      ),
      policy: "allow",
      readonly: true,
      offeredWhen: "ripgrep is installed",
      exampleArgs: { pattern: "TODO" },
      probePrompt: "Find every TODO in the code.",
    }),
    cli({
      name: "Edit",
      description: "Replace one exact string in a file.",
      parameters: params(
        {
          file_path: str("The path of the file to edit"),
          old_string: str("The exact text to replace"),
          new_string: str("The replacement text"),
          replace_all: bool("Replace every occurrence"),
        },
        ["file_path", "old_string", "new_string"],
      ),
      policy: "ask",
      exclusive: true,
      offeredWhen: "by model; headless only with --auto",
      exampleArgs: { file_path: "README.md", old_string: "# Old title", new_string: "# New title" },
      probePrompt: "In README.md, replace '# Old title' with '# New title'.",
    }),
    cli({
      name: "MultiEdit",
      description: "Apply several exact replacements to one file.",
      parameters: params(
        {
          file_path: str("The path of the file to edit"),
          edits: {
            type: "array",
            minItems: 1,
            description: "The replacements, applied in order",
            items: {
              type: "object",
              properties: {
                old_string: str("The exact text to replace"),
                new_string: str("The replacement text"),
                replace_all: bool("Replace every occurrence"),
              },
              required: ["old_string", "new_string"],
            },
          },
        },
        ["file_path", "edits"],
      ),
      policy: "ask",
      exclusive: true,
      offeredWhen: "by model",
      exampleArgs: { file_path: "README.md", edits: [{ old_string: "# Old title", new_string: "# New title" }] },
      probePrompt: "In README.md, replace '# Old title' with '# New title'.",
    }),
    cli({
      name: "Exit",
      description: "End the headless session.",
      parameters: NO_PARAMS,
      policy: "allow",
      offeredWhen: "headless mode",
      exampleArgs: {},
      probePrompt: "You are done; end the session.",
    }),
    cli({
      name: "Skills",
      description: "Load a skill by its name.",
      parameters: params({ skill_name: str("The name of the skill") }, ["skill_name"]),
      policy: "allow",
      readonly: true,
      offeredWhen: "always",
      exampleArgs: { skill_name: "testing" },
      probePrompt: "Load the skill named testing.",
    }),
    cli({
      name: "Subagent",
      description: "Hand a task to a subagent.",
      parameters: params(
        {
          description: str("A short description of the task"),
          prompt: str("The task for the subagent"),
          subagent_name: str("Which subagent runs it"),
        },
        ["description", "prompt", "subagent_name"],
      ),
      policy: "ask",
      offeredWhen: "subagents configured",
      exampleArgs: { description: "Summarise", prompt: "Summarise README.md.", subagent_name: "general" },
      probePrompt: "Ask the general subagent to summarise README.md.",
    }),
    cli({
      name: "ReportFailure",
      description: "Report that the task could not be completed.",
      parameters: params({ errorMessage: str("What went wrong") }, ["errorMessage"]),
      policy: "allow",
      offeredWhen: "headless mode",
      exampleArgs: { errorMessage: "README.md does not exist" },
      probePrompt: "Report that README.md does not exist.",
    }),
    cli({
      name: "UploadArtifact",
      description: "Upload a file as an artifact of the session.",
      parameters: params({ filePath: str("The path of the file to upload") }, ["filePath"]),
      policy: "ask",
      offeredWhen: "remote sessions",
      exampleArgs: { filePath: "report.md" },
      probePrompt: "Upload report.md as an artifact.",
    }),
    cli({
      name: "Status",
      description: "Set the session's status line.",
      parameters: params({ status: str("The status text") }, ["status"]),
      policy: "exclude",
      offeredWhen: "never (defined, not offered)",
      exampleArgs: { status: "working" },
      probePrompt: "Set the status to working.",
    }),
    cli({
      name: "Diff",
      description: "Show the git diff.",
      parameters: params({ path: str("Limit the diff to this path") }),
      policy: "exclude",
      readonly: true,
      offeredWhen: "never (defined, not offered)",
      exampleArgs: {},
      probePrompt: "Show me the current git diff.",
    }),
  ],
};

export const OPENAI_CHAT_CATALOGUES: readonly Catalogue[] = [SEED, CONTINUE_2026, CONTINUE_CLI_2026];

export const DEFAULT_CATALOGUE: CatalogueName = "seed";

/** Tool names per catalogue, in catalogue order. */
export const OPENAI_CHAT_CATALOGUE_TOOLS: Readonly<Record<CatalogueName, readonly string[]>> = Object.fromEntries(
  OPENAI_CHAT_CATALOGUES.map((c) => [c.name, c.tools.map((t) => t.name)]),
) as unknown as Record<CatalogueName, readonly string[]>;

/** `none`: no built-in catalogue; calls take their arguments from the offered parameters alone. */
export const NO_CATALOGUE: Catalogue = { name: "none", description: "No built-in tool catalogue.", tools: [] };

export function findCatalogue(name: string): Catalogue | undefined {
  return OPENAI_CHAT_CATALOGUES.find((c) => c.name === name);
}

export function catalogueTool(catalogue: Catalogue, name: string): CatalogueTool | undefined {
  return catalogue.tools.find((t) => t.name === name);
}

/** Every distinct tool name over all catalogues, first appearance first (the `tool-*` scenarios). */
export function allCatalogueTools(): CatalogueTool[] {
  const seen = new Map<string, CatalogueTool>();
  for (const c of OPENAI_CHAT_CATALOGUES) for (const t of c.tools) if (!seen.has(t.name)) seen.set(t.name, t);
  return [...seen.values()];
}

/** The record of a tool: the active catalogue's first, else any catalogue's. */
export function lookupTool(catalogue: Catalogue, name: string): CatalogueTool | undefined {
  return catalogueTool(catalogue, name) ?? allCatalogueTools().find((t) => t.name === name);
}
