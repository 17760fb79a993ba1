// `acpkit run` against agents acpkit did not write: one built on the official
// @agentclientprotocol/sdk, and hand-written ones that break the protocol.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runJson, SDK_AGENT } from "../support/cli.js";

const BROKEN_AGENT = fileURLToPath(new URL("../fixtures/broken-agent.mjs", import.meta.url));
let workspace: string;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), "acpkit-sdk-e2e-"));
  await writeFile(join(workspace, "notes.txt"), "notes from the test\n");
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe.concurrent("acpkit run against an agent built with the official SDK", () => {
  it("runs a full turn: plan, chunks, permission, a client file read, usage, end_turn", async () => {
    const { code, state, stderr } = await runJson(["--cwd", workspace, "--prompt", "hello", "--", process.execPath, SDK_AGENT]);
    expect(code, stderr).toBe(0);
    expect(state.protocolVersion).toBe(1);
    expect(state.sessionId).toBe("sdk-session-1");
    expect(state.messages[1]).toEqual({
      messageId: "answer-1",
      kind: "agent_message",
      content: [
        { type: "text", text: "Hello " },
        { type: "text", text: "from the SDK." },
      ],
    });
    expect(state.toolCalls).toEqual([
      {
        toolCallId: "look-1",
        title: "Look at notes.txt",
        kind: "read",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "notes from the test\n" } }],
      },
    ]);
    expect(state.permissions).toEqual([
      {
        toolCallId: "look-1",
        options: [
          { optionId: "yes", name: "Allow", kind: "allow_once" },
          { optionId: "no", name: "Reject", kind: "reject_once" },
        ],
        outcome: { outcome: "selected", optionId: "yes" },
      },
    ]);
    expect(state.plans).toHaveLength(1);
    expect(state.plans[0].entries).toEqual([{ content: "Look at the file", priority: "high", status: "completed" }]);
    expect(state.usage).toEqual({ used: 10, size: 1000 });
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
  });

  it("offering v2 to the v1-only SDK agent negotiates v1; --permission reject is honoured", async () => {
    const { code, state } = await runJson([
      "--protocol",
      "2",
      "--permission",
      "reject",
      "--cwd",
      workspace,
      "--prompt",
      "hello",
      "--",
      process.execPath,
      SDK_AGENT,
    ]);
    expect(code).toBe(0);
    expect(state.protocolVersion).toBe(1);
    expect(state.permissions[0].outcome).toEqual({ outcome: "selected", optionId: "no" });
    expect(state.toolCalls[0].status).toBe("failed");
  });

  it("exit 1 when the SDK agent answers a prompt with an error", async () => {
    const { code, state, stderr } = await runJson(["--cwd", workspace, "--prompt", "fail", "--", process.execPath, SDK_AGENT]);
    expect(code).toBe(1);
    expect(stderr).toContain("error -32603");
    expect(state.turns).toEqual([]);
  });
});

describe.concurrent("acpkit run against agents that break the protocol", () => {
  it("exit 1 for an update that fails the schema, though the turn ended", async () => {
    const { code, state, stderr } = await runJson(["--prompt", "hi", "--", process.execPath, BROKEN_AGENT, "bad-update"]);
    expect(code).toBe(1);
    expect(stderr).toContain("broke the protocol (invalid_params)");
    expect(stderr).toContain("/update/content");
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
  });

  it("--json still prints the state when it holds a value nested 10,000 deep (cut at MAX_JSON_DEPTH)", async () => {
    const { code, state, stderr } = await runJson(["--prompt", "go", "--", process.execPath, BROKEN_AGENT, "deep-input"]);
    expect(code, stderr).toBe(0);
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
    let level: unknown = state.toolCalls[0].rawInput;
    let depth = 0;
    while (Array.isArray(level)) {
      level = level[0];
      depth++;
    }
    expect(level).toBe("[acpkit: nested deeper than 256 levels; omitted]");
    expect(depth).toBeGreaterThan(200);
  });

  it("exit 1 for a line that is not JSON", async () => {
    const { code, stderr } = await runJson(["--prompt", "hi", "--", process.execPath, BROKEN_AGENT, "garbage"]);
    expect(code).toBe(1);
    expect(stderr).toContain("broke the protocol (parse_error)");
  });

  it("exit 1 when the agent exits mid-turn, naming the exit code", async () => {
    const { code, state, stderr } = await runJson(["--prompt", "hi", "--", process.execPath, BROKEN_AGENT, "die"]);
    expect(code).toBe(1);
    expect(stderr).toContain("turn 1 failed");
    expect(stderr).toContain("exited with code 7");
    expect(state.turns).toEqual([]);
  });

  it("the human output marks the failed turn", async () => {
    const { code, stdout } = await runCli(["run", "--prompt", "hi", "--", process.execPath, BROKEN_AGENT, "die"]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/✗ turn 1 failed: .*exited with code 7/);
  });
});
