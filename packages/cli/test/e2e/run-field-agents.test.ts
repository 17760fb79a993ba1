// `acpkit run` against from-scratch agents that behave like the real ones tried on 2026-11-28
// (fixtures/field-agent.mjs): each failure names the step it happened at and keeps the agent's own
// words; logins are exit 3 at every step; vendor notifications are quiet; a turn that does not end
// "cancelled" after a cancel is reported; a v1 agent that answered a v2 offer learns our capabilities.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, runJson } from "../support/cli.js";

const FIELD_AGENT = [process.execPath, fileURLToPath(new URL("../fixtures/field-agent.mjs", import.meta.url))];
const agent = (...flags: string[]) => ["--", ...FIELD_AGENT, ...flags];

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("acpkit run: each step names itself", () => {
  it("a refused --auth is 'authenticate failed' with the agent's error, exit 3, and no session/new is blamed", async () => {
    const result = await runCli(["run", "--prompt", "hi", "--auth", "api-key", ...agent("--auth-refused")]);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain("authenticate failed: the agent answered with error -32000: Authentication failed: invalid API key");
    expect(result.stderr).not.toContain("session/new failed");
  });

  it("--auth with a terminal method says what to run instead of calling authenticate", async () => {
    const result = await runCli(["run", "--prompt", "hi", "--auth", "copilot-login", ...agent("--auth-refused")]);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain("--auth copilot-login is a terminal login, which authenticate cannot do: run COPILOT_MODE='login now'");
    expect(result.stderr).toContain("field-agent.mjs --auth-refused --login in a terminal");
  });

  it("a failing --mode is 'session/set_mode failed', not 'session/new failed'", async () => {
    const result = await runCli(["run", "--prompt", "hi", "--mode", "code", ...agent("--mode-refused")]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain("session/set_mode failed: the agent answered with error -32603: modes are broken today");
    expect(result.stderr).not.toContain("session/new failed");
  });

  it("a failing --config is 'session/set_config_option ID failed'", async () => {
    const result = await runCli(["run", "--prompt", "hi", "--config", "model=fast", ...agent()]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain("session/set_config_option model failed: the agent answered with error -32601");
  });
});

describe("acpkit run: an agent that needs a login", () => {
  it("keeps the agent's own words and data, lists agent and terminal methods apart, exit 3", async () => {
    const result = await runCli(["run", "--prompt", "hi", ...agent("--auth-refused")]);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain(
      'session/new failed: authentication required. The agent said: "Gemini API key is missing or not configured." (data: {"hint":"set GEMINI_API_KEY"})',
    );
    expect(result.stderr).toMatch(/Run again with --auth METHOD_ID, one of:\n\s+api-key {2}API key/);
    expect(result.stderr).toMatch(
      /Or log in in a terminal first \(these cannot be done with --auth\):\n\s+copilot-login {2}Log in with GitHub\n\s+run: COPILOT_MODE=/,
    );
  });

  it("reads the older _meta terminal-auth convention as a terminal login", async () => {
    const result = await runCli(["run", "--prompt", "hi", ...agent("--login-meta")]);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain("run: field-login --device");
  });

  it("--json prints why on stdout when no session was opened, with the auth methods and the agent's error", async () => {
    const { code, state } = await runJson(["--prompt", "hi", ...agent("--needs-login")]);
    expect(code).toBe(3);
    expect(state).toMatchObject({
      session: null,
      agent: "field-agent 1.0.0",
      protocolVersion: 1,
      failedStep: {
        step: "session/new",
        error: { code: -32000, message: "Gemini API key is missing or not configured.", data: { hint: "set GEMINI_API_KEY" } },
      },
      authMethods: [{ id: "gemini-api-key", name: "Use Gemini API key" }],
    });
    expect(state.failures[0]).toContain("authentication required");
  });

  it("-32000 on the prompt is a login problem too: exit 3, the agent's words kept", async () => {
    const result = await runCli(["run", "--prompt", "hi", ...agent("--prompt-needs-login")]);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain(
      'turn 1 (session/prompt) failed: authentication required. The agent said: "Please run /login" (data: {"detail":"Invalid API key"})',
    );
    expect(result.stderr).toContain("The agent lists no authentication methods.");
  });
});

describe("acpkit run: noise and silence", () => {
  it("a vendor _ notification is ignored quietly, and shown with --show-extensions", async () => {
    const quiet = await runCli(["run", "--prompt", "hi", ...agent("--vendor-notification")]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain("_auth/status_update");
    const shown = await runCli(["run", "--show-extensions", "--prompt", "hi", ...agent("--vendor-notification")]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toContain("unknown_notification");
    expect(shown.stderr).toContain("_auth/status_update");
  });

  it("end_turn after session/cancel is a warning naming the rule (exit 0), and a failure with --strict (exit 1)", async () => {
    const lenient = await runCli(["run", "--prompt", "hi", "--cancel-after", "200", ...agent("--end-turn-after-cancel")]);
    expect(lenient.code, lenient.stderr).toBe(0);
    expect(lenient.stderr).toContain(
      'warning: the agent broke the protocol (docs/protocol.md C7): turn 1 ended with stopReason "end_turn" after session/cancel was sent; a cancelled turn must end with "cancelled"',
    );
    const strict = await runCli(["run", "--strict", "--prompt", "hi", "--cancel-after", "200", ...agent("--end-turn-after-cancel")]);
    expect(strict.code, strict.stderr).toBe(1);
    expect(strict.stderr).toContain("the agent broke the protocol (docs/protocol.md C7)");
    expect(strict.stderr).not.toContain("warning:");
  });

  it("a v1 agent that answered a v2 offer is started again with a v1 offer that carries the client's capabilities", async () => {
    dir = mkdtempSync(join(tmpdir(), "acpkit-field-"));
    const log = join(dir, "wire.ndjson");
    const result = await runCli(["run", "--protocol", "2", "--prompt", "hi", ...agent("--log", log)]);
    expect(result.code, result.stderr).toBe(0);
    const initializes = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((message) => message.method === "initialize");
    expect(initializes.map((message) => message.params.protocolVersion)).toEqual([2, 1]);
    expect(initializes[0].params).not.toHaveProperty("clientCapabilities");
    expect(initializes[1].params.clientCapabilities.fs).toEqual({ readTextFile: true, writeTextFile: false });
    expect(result.stdout).toContain("protocol v1 negotiated (offered v2)");
  });
});
