/**
 * The GitHub Action (action.yml): its inputs and steps as GitHub reads them, and its shell steps
 * run here as the runner runs them (bash -eo pipefail, inputs as step variables), with a fake
 * $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT. The `uses:` steps (setup-node, upload-artifact) are
 * GitHub's own; only how they are called is checked.
 */
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { ROOT } from "../helpers/cli.js";
import { reportTargets } from "../../src/cli/options.js";

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};

/** `${{ inputs.x }}` as GitHub expands it in a step's env (the defaults under what the workflow gives). */
function expand(text: string, inputs: Record<string, string>): string {
  return text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, k: string) => inputs[k] ?? action.inputs[k]?.default ?? "");
}

async function runStep(step: Step, given: Record<string, string>, extraEnv: Record<string, string> = {}) {
  const work = mkdtempSync(join(tmpdir(), "agentwire-action-"));
  const summary = join(work, "step-summary.md");
  const output = join(work, "github-output");
  writeFileSync(summary, "");
  writeFileSync(output, "");
  const env: Record<string, string> = { ...(process.env as Record<string, string>), GITHUB_ACTION_PATH: ROOT, GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output, NO_COLOR: "" };
  Object.assign(env, extraEnv);
  for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expand(v, given);
  for (const [k, v] of Object.entries(given)) if (k === "__baseline_file") writeFileSync(join(work, "agentwire-baseline.yaml"), v);
  // Reports an earlier run left in the folder (a job that runs the action twice).
  if (given.__stale_reports) {
    mkdirSync(join(work, "agentwire-reports"));
    for (const f of ["junit.xml", "report.html", "summary.md"]) writeFileSync(join(work, "agentwire-reports", f), "## an earlier run\n");
  }
  // GitHub runs `shell: bash` steps as: bash --noprofile --norc -eo pipefail {file}
  const script = join(work, "step.sh");
  writeFileSync(script, step.run!);
  const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], { cwd: work, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  // "close": the step's output may still be in the pipes when bash exits.
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr, work, summary: readFileSync(summary, "utf8"), output: readFileSync(output, "utf8") };
}

const step = (id: string) => action.runs.steps.find((s) => s.id === id || s.name === id)!;

describe("action.yml", () => {
  it("is a composite action with the inputs a workflow sets, and GitHub's own steps called as documented", () => {
    expect(action.runs.using).toBe("composite");
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(["protocol", "url", "profile", "baseline", "args"]));
    expect(action.inputs.protocol!.required).toBe(true);
    expect(action.outputs["exit-code"]!.value).toBe("${{ steps.test.outputs.exit-code }}");
    for (const s of action.runs.steps) if (s.run) expect(s.shell, s.name).toBe("bash");
    const upload = action.runs.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"))!;
    expect(upload.uses).toBe("actions/upload-artifact@v4");
    expect(upload.if).toContain("always()");
    expect(upload.with!.path).toBe("${{ inputs.reports }}");
    const setup = action.runs.steps.find((s) => s.uses?.startsWith("actions/setup-node@"))!;
    // Set up only as the Node.js check says (a version asked for, or the job's too old).
    expect(setup.if).toBe("steps.node.outputs.setup != ''");
    expect(setup.with!["node-version"]).toBe("${{ steps.node.outputs.setup }}");
    // Inputs never go into a script's text (no injection from a workflow's values).
    for (const s of action.runs.steps) if (s.run) expect(s.run).not.toContain("${{");
  });

  it("keeps the job's Node.js when it is new enough, and sets one up when asked or when the job's is too old", async () => {
    const own = await runStep(step("node"), {});
    expect(own.code, own.stderr).toBe(0);
    expect(own.output).toBe("");
    expect(own.stdout).toContain(`the job's Node.js ${process.version}`);

    const asked = await runStep(step("node"), { "node-version": "22" });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.output).toBe("setup=22\n");

    // A node on the PATH that is too old (it fails the version test, as node 18 would).
    const bin = mkdtempSync(join(tmpdir(), "agentwire-old-node-"));
    writeFileSync(join(bin, "node"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    const old = await runStep(step("node"), {}, { PATH: `${bin}:${process.env.PATH ?? ""}` });
    expect(old.code, old.stderr).toBe(0);
    expect(old.output).toBe("setup=20\n");
    expect(old.stdout).toContain("setting up Node.js 20");
  });

  it("the install step looks for the build the bin runs", () => {
    const bin = readFileSync(join(ROOT, "bin", "agentwire.js"), "utf8").match(/from "\.\.\/(dist\/[^"]+)"/)![1]!;
    expect(step("Install agentwire").run).toContain(`"$GITHUB_ACTION_PATH/${bin}"`);
  });

  it("the install step keeps the dev dependencies the build needs, even under NODE_ENV=production", () => {
    expect(step("Install agentwire").run).toMatch(/npm ci --include=dev /);
  });

  it("names the artefact uniquely per step by default (matrix legs share a job id), or as asked", async () => {
    const upload = action.runs.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"))!;
    expect(upload.with!.name).toBe("${{ steps.artifact.outputs.name }}");
    const ci = { GITHUB_JOB: "conformance", GITHUB_ACTION: "__agentwire", RUNNER_NAME: "GitHub Actions 3" };
    const [a, b] = [await runStep(step("artifact"), { protocol: "mcp-chat" }, ci), await runStep(step("artifact"), { protocol: "mcp-chat" }, ci)];
    for (const r of [a, b]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.output).toMatch(/^name=agentwire-mcp-chat-conformance-[0-9a-f]{8}\n$/);
    }
    expect(a.output).not.toBe(b.output);
    const named = await runStep(step("artifact"), { protocol: "mcp-chat", "artifact-name": "reports-node-22" }, ci);
    expect(named.output).toBe("name=reports-node-22\n");
  });

  it("the install step finds the built kit and prints its version", async () => {
    const r = await runStep(step("Install agentwire"), {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("a failing run: exit 1, the markdown summary on the step summary, JUnit and HTML reports written, the exit code as an output", async () => {
    const r = await runStep(step("test"), { protocol: "mcp-chat", args: `--quiet --fault sse-crlf --only "mcp-chat/sse"` });
    expect(r.code, r.stderr).toBe(1);
    expect(r.summary).toMatch(/^## agentwire ❌ failed/);
    expect(r.summary).toContain("`mcp-chat/sse/lf-only`");
    expect(r.output).toBe("exit-code=1\n");
    expect(readFileSync(join(r.work, "agentwire-reports/junit.xml"), "utf8")).toContain('<testcase name="mcp-chat/sse/lf-only"');
    expect(existsSync(join(r.work, "agentwire-reports/report.html"))).toBe(true);
    // The console report goes to the log, in colour (GitHub shows it).
    expect(r.stdout).toContain("\x1b[31mFAIL");
    expect(r.stdout.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/FAIL\s+mcp-chat\/sse\/lf-only/);
  });

  it("with a baseline listing the failure the step passes", async () => {
    const r = await runStep(step("test"), {
      protocol: "mcp-chat",
      baseline: "agentwire-baseline.yaml",
      args: "--quiet --fault sse-crlf --only mcp-chat/sse",
      __baseline_file: "failures:\n  - id: mcp-chat/sse/lf-only\n    reason: accepted while the proxy is replaced\n",
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.summary).toMatch(/^## agentwire ✅ passed/);
    expect(r.summary).toContain("1 known failure(s) accepted");
    expect(r.output).toBe("exit-code=0\n");
  });

  it("a usage error (exit 2) says so on the step summary, and no earlier run's report passes for its own", async () => {
    const r = await runStep(step("test"), { protocol: "no-such-protocol", __stale_reports: "yes" });
    expect(r.code).toBe(2);
    expect(r.summary).toContain("usage error (exit 2)");
    expect(r.summary).not.toContain("an earlier run");
    expect(existsSync(join(r.work, "agentwire-reports/junit.xml"))).toBe(false);
    expect(r.stderr).toContain('unknown protocol "no-such-protocol"');
  });

  it("the README's workflow sets only inputs the action has, and its GitLab recipe pairs each report with its file", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const github = parse(blocks.find((b) => b.includes(".github/workflows/"))!) as { jobs: Record<string, { steps: Step[] }> };
    const ours = Object.values(github.jobs).flatMap((j) => j.steps).find((s) => s.uses?.includes("/agentwire@"))!;
    for (const key of Object.keys(ours.with!)) expect(Object.keys(action.inputs), key).toContain(key);
    const gitlab = parse(blocks.find((b) => b.includes(".gitlab-ci.yml"))!) as { agentwire: { script: string[]; artifacts: { reports: { junit: string } } } };
    const command = gitlab.agentwire.script.find((l) => l.includes("agentwire test"))!.trim().split(/\s+/);
    const values = (flag: string) => command.flatMap((w, i) => (w === flag ? [command[i + 1]!] : []));
    const targets = reportTargets(values("--reporter"), values("--output"));
    expect(targets).toEqual([
      { reporter: "junit", output: gitlab.agentwire.artifacts.reports.junit },
      { reporter: "html", output: "agentwire-reports/report.html" },
      { reporter: "markdown", output: "agentwire-reports/summary.md" },
      { reporter: "console" },
    ]);
  });
});
