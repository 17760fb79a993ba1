// `acpkit run` and `acpkit sessions` over the whole v1 surface, from outside (the built binary in a
// child process): against an agent built with the official SDK that requires authentication and
// uses every feature, against the built-in agent's new commands, against a dual-version SDK agent
// that refuses acpkit's v2 (fallback to v1), and behind a launcher that leaves its child running.
import { spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BIN, BUILTIN_AGENT, runCli, runJson } from "../support/cli.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const SURFACE_AGENT = [process.execPath, fileURLToPath(new URL("../../../client/test/fixtures/sdk-surface-agent.mjs", import.meta.url))];
const LATER_AGENT = [process.execPath, fileURLToPath(new URL("../../../../test-support/fixtures/sdk-later-v2-agent.mjs", import.meta.url))];
const cwd = realpathSync(tmpdir());

describe("acpkit run against an official-SDK agent that uses every v1 feature", () => {
  it("without --auth: 'Authentication required' lists the methods, prints the error's data, exits 3", async () => {
    const result = await runCli(["run", "--prompt", "hi", "--", ...SURFACE_AGENT]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      'session/new failed: authentication required. The agent said: "Authentication required" (data: {"hint":"set SDK_AGENT_KEY, then authenticate with method key"}).\nRun again with --auth METHOD_ID, one of:',
    );
    expect(result.stderr).toContain("  key  API key — Reads SDK_AGENT_KEY");
  });

  it("--auth with a method the agent does not list exits 3 and names the ones it does", async () => {
    const result = await runCli(["run", "--auth", "password", "--prompt", "hi", "--", ...SURFACE_AGENT]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("--auth password: the agent offers no such method (it lists key)");
  });

  it("--auth, --mode, --config, --terminal allow, --elicit accept-defaults: every feature in the JSON state, no internal tags", async () => {
    const result = await runJson([
      "--auth",
      "key",
      "--mode",
      "build",
      "--config",
      "model=large",
      "--config",
      "fast=true",
      "--terminal",
      "allow",
      "--elicit",
      "accept-defaults",
      "--cwd",
      cwd,
      "--prompt",
      "features",
      "--",
      ...SURFACE_AGENT,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const state = result.state;
    expect(state.modes.currentModeId).toBe("build");
    expect(state.configOptions.map((option: any) => [option.id, option.currentValue])).toEqual([
      ["model", "large"],
      ["fast", true],
    ]);
    expect(state.availableCommands).toEqual([{ name: "features", description: "Use every feature" }]);
    expect(state.sessionInfo).toEqual({ title: "Feature tour", updatedAt: "2026-11-23T12:00:00Z" });
    expect(state.notices).toEqual([{ severity: "warning", title: "Quota at 80%" }]);
    expect(state.compactions).toEqual([{ compactionId: "c1", status: "completed", summary: [{ type: "text", text: "We toured the features." }] }]);
    expect(state.terminals).toHaveLength(1);
    expect(state.terminals[0]).toMatchObject({ output: "from the terminal\n", exitStatus: { exitCode: 0, signal: null } });
    // The terminal item is printed under its protocol name.
    expect(state.toolCalls[0].content).toEqual([{ type: "terminal", terminalId: state.terminals[0].terminalId }]);
    // accept-defaults answered the form with its default.
    expect(JSON.stringify(state.messages.at(-1))).toContain('elicitation accept {\\"color\\":\\"blue\\"}');
    expect(result.stdout).not.toContain("_acpkit");
  });

  it("human output shows mode, config, commands, title, notice, compaction and the terminal readably", async () => {
    const result = await runCli(["run", "--auth", "key", "--terminal", "allow", "--cwd", cwd, "--prompt", "features", "--", ...SURFACE_AGENT]);
    expect(result.code, result.stderr).toBe(0);
    for (const line of [
      "mode → build",
      "config model=large fast=false",
      "title Feature tour",
      "⚠ Quota at 80%",
      "compaction completed",
      "▶ terminal",
      "■ terminal",
      "exit 0",
      "? Pick a color → decline (--elicit)",
    ]) {
      expect(result.stdout).toContain(line);
    }
    expect(result.stdout + result.stderr).not.toContain("_acpkit");
  });

  it("acpkit sessions lists the agent's sessions; --delete deletes one", async () => {
    // A fresh agent process has no sessions; the listing itself is what is under test.
    const listed = await runCli(["sessions", "--json", "--", ...SURFACE_AGENT]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({ sessions: [] });
    const deleted = await runCli(["sessions", "--delete", "sdk-9", "--", ...SURFACE_AGENT]);
    expect(deleted.code).toBe(1);
    expect(deleted.stderr).toContain("-32002");
  });
});

describe("acpkit run against the built-in agent's session commands", () => {
  it("runs /mode, /config, /title, /plan, /notice, /terminal, /elicit (form and URL), /commands in one session", async () => {
    const prompts = [
      "/mode code",
      "/config model thorough",
      "/title Release",
      "/plan",
      "/notice Heads up",
      "/terminal node -e process.exit(3)",
      "/elicit",
      "/elicit https://example.com/login",
      "/commands",
    ];
    const result = await runJson([
      ...prompts.flatMap((p) => ["--prompt", p]),
      "--terminal",
      "allow",
      "--elicit",
      "accept-defaults",
      "--cwd",
      cwd,
      "--",
      ...BUILTIN_AGENT,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const state = result.state;
    expect(state.turns.map((turn: any) => turn.stopReason)).toEqual(prompts.map(() => "end_turn"));
    expect(state.modes.currentModeId).toBe("code");
    expect(state.configOptions[0].currentValue).toBe("thorough");
    expect(state.sessionInfo.title).toBe("Release");
    expect(state.plans[0].entries.map((entry: any) => entry.status)).toEqual(["completed", "completed", "completed"]);
    expect(state.notices).toEqual([{ severity: "info", title: "Heads up" }]);
    expect(state.terminals[0]).toMatchObject({ command: "node", args: ["-e", "process.exit(3)"], exitStatus: { exitCode: 3, signal: null } });
    expect(JSON.stringify(state.messages)).toContain("The command exited with code 3.");
    expect(JSON.stringify(state.messages)).toContain('Elicitation answered: accept {\\"name\\":\\"Ada\\",\\"subscribe\\":false}');
    // The URL elicitation, accepted ("the user will open it"): no form content.
    expect(JSON.stringify(state.messages)).toContain("Elicitation answered: accept {}");
    expect(state.availableCommands.map((command: any) => command.name)).toContain("terminal");
  });

  it("/terminal without --terminal allow fails the turn with the agent's -32602 naming the capability", async () => {
    const result = await runCli(["run", "--prompt", "/terminal ls", "--", ...BUILTIN_AGENT]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("terminal/create: the client did not advertise clientCapabilities.terminal");
    expect(result.stderr).toContain('(data: {"path":"/prompt","reason":"Unsupported"})');
  });
});

describe("acpkit run --protocol 2 against an agent that speaks the later official v2 draft and v1", () => {
  it("reaches the later draft on the same connection, names the dialect, and the turn runs (the echo is not shown twice)", async () => {
    const result = await runCli(["run", "--protocol", "2", "--prompt", "hello", "--", ...LATER_AGENT]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("refused the pinned v2 initialize (-32602");
    expect(result.stdout).toContain("protocol v2 negotiated (offered v2) · dialect v2-later");
    expect(result.stdout).toContain("hello over later v2");
    expect(result.stdout.match(/› hello/g)).toHaveLength(1);
    expect(result.stdout).toContain("■ end_turn");
  });

  it("--dialect later offers only the later draft (no refusal first); --dialect pinned gets the refusal and v1", async () => {
    const later = await runCli(["run", "--protocol", "2", "--dialect", "later", "--prompt", "hello", "--", ...LATER_AGENT]);
    expect(later.code, later.stderr).toBe(0);
    expect(later.stderr).not.toContain("refused");
    expect(later.stdout).toContain("dialect v2-later");
    const pinned = await runCli(["run", "--protocol", "2", "--dialect", "pinned", "--prompt", "hi", "--", ...LATER_AGENT]);
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(pinned.stderr).toContain("retrying with protocol v1");
    expect(pinned.stdout).toContain("protocol v1 negotiated (offered v2) · dialect v1");
    expect(pinned.stdout).toContain("hello over v1");
  });
});

describe.skipIf(process.platform === "win32")("acpkit run behind a launcher whose child keeps the pipes", () => {
  // The CLI's grace periods add up to 1.4 s (stdin end, 700 ms, SIGTERM to the group, 700 ms,
  // SIGKILL); without the group kill it would wait on the child's pipes for ever. The 10 s bound
  // separates the two with room for a loaded CI machine.
  it("exits within 10 s of the turn's end, and the agent does not outlive it", async () => {
    const child = spawn(
      process.execPath,
      [BIN, "run", "--prompt", "/echo done", "--", process.execPath, fixture("launcher.mjs"), process.execPath, fixture("stubborn-agent.mjs")],
      {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, ACPKIT_TEST_PID_FILE: "" },
      },
    );
    let turnEnded = 0;
    let stdout = "";
    child.stdout!.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
      if (turnEnded === 0 && stdout.includes("■ end_turn")) turnEnded = Date.now();
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    const exited = Date.now();
    expect(code).toBe(0);
    expect(turnEnded).toBeGreaterThan(0);
    expect(exited - turnEnded).toBeLessThan(10_000);
  });
});
