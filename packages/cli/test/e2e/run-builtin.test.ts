// `acpkit run --json` against `acpkit agent`, both built binaries, for each command prompt the
// built-in agent knows, on protocol v1 and v2. The printed SessionState is checked field by field.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_AGENT, runCli, runJson } from "../support/cli.js";

let workspace: string;
const NOTES = "first line\nsecond line\n";
const README = "# scratch\n\nthree lines\n";

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), "acpkit-run-e2e-"));
  await writeFile(join(workspace, "notes.txt"), NOTES);
  await writeFile(join(workspace, "README.md"), README);
  await symlink("/etc/hostname", join(workspace, "escape-link"));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** `acpkit run --json --protocol v --cwd <workspace> [flags] --prompt p… -- acpkit agent` */
function run(version: 1 | 2, prompts: readonly string[], flags: readonly string[] = []) {
  const args = ["--protocol", String(version), "--cwd", workspace, ...flags];
  for (const prompt of prompts) args.push("--prompt", prompt);
  return runJson([...args, "--", ...BUILTIN_AGENT]);
}

function textOf(message: { content: { type: string; text?: string }[] }): string {
  return message.content.map((block) => block.text ?? "").join("");
}

describe.concurrent.each([1, 2] as const)("acpkit run --json against acpkit agent, protocol v%i", (version) => {
  it("/echo streams the text back as chunks of one agent message", async () => {
    const { code, state, stderr } = await run(version, ["/echo hello big world"]);
    expect(code, stderr).toBe(0);
    const keys = ["messages", "permissions", "plans", "protocolVersion", "sessionId", "toolCalls", "turns", "usage"];
    keys.push("availableCommands", "compactions", "configOptions", "notices", "terminals");
    // Modes exist only in v1 (the built-in agent has two); pinned v2 has none.
    if (version === 1) keys.push("modes");
    expect(Object.keys(state).sort()).toEqual(keys.sort());
    expect(state.protocolVersion).toBe(version);
    expect(typeof state.sessionId).toBe("string");
    expect(state.messages).toHaveLength(2);
    expect(state.messages[0].kind).toBe("user_message");
    expect(state.messages[0].content).toEqual([{ type: "text", text: "/echo hello big world" }]);
    expect(state.messages[1].kind).toBe("agent_message");
    expect(typeof state.messages[1].messageId).toBe("string");
    expect(state.messages[1].content).toEqual([
      { type: "text", text: "hello" },
      { type: "text", text: " big" },
      { type: "text", text: " world" },
    ]);
    expect(state.toolCalls).toEqual([]);
    expect(state.plans).toEqual([]);
    expect(state.permissions).toEqual([]);
    expect(state.usage).toBeNull();
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
  });

  it("an ordinary prompt plays the demo turn: plan, thought, permission, read (v1), answer, usage", async () => {
    const prompt = "Say hello";
    const { code, state, stderr } = await run(version, [prompt]);
    expect(code, stderr).toBe(0);
    expect(state.plans).toHaveLength(1);
    expect(state.plans[0].entries.map((entry: { status: string }) => entry.status)).toEqual(["completed", "completed", "completed", "completed"]);
    const kinds = state.messages.map((message: { kind: string }) => message.kind);
    expect(kinds[0]).toBe("user_message");
    expect(kinds).toContain("agent_thought");
    const answer = state.messages.filter((message: { kind: string }) => message.kind === "agent_message").at(-1);
    expect(textOf(answer)).toContain(`You asked: "${prompt}"`);
    expect(textOf(answer)).toContain("You allowed the edit");

    const edit = state.toolCalls.find((call: { title: string }) => call.title === "Edit hello.txt");
    expect(edit).toMatchObject({ kind: "edit", status: "completed" });
    expect(edit.content[0]).toEqual({ type: "diff", path: join(workspace, "hello.txt"), oldText: "Hello\n", newText: "Hello, world!\n" });
    expect(state.permissions).toEqual([
      {
        toolCallId: edit.toolCallId,
        options: [
          { optionId: "allow", name: "Allow", kind: "allow_once" },
          { optionId: "reject", name: "Reject", kind: "reject_once" },
        ],
        outcome: { outcome: "selected", optionId: "allow" },
      },
    ]);
    const read = state.toolCalls.find((call: { title: string }) => call.title === "Read README.md");
    if (version === 1) {
      expect(read).toMatchObject({ kind: "read", status: "completed", locations: [{ path: join(workspace, "README.md") }] });
      expect(read.content).toEqual([{ type: "content", content: { type: "text", text: `${Buffer.byteLength(README)} bytes, 3 lines` } }]);
      expect(textOf(answer)).toContain("README.md has 3 lines");
    } else {
      // Pinned v2 has no client file system: the agent skips the read and says why in a thought.
      expect(read).toBeUndefined();
      expect(textOf(answer)).toContain("no file was read");
    }
    expect(state.usage).toEqual({ used: 1200 + prompt.length, size: 200000, cost: { amount: 0.0042, currency: "USD" } });
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
  });

  it("--cancel-after against /wait sends session/cancel and the turn ends cancelled", async () => {
    const { code, state, stderr } = await run(version, ["/wait"], ["--cancel-after", "300"]);
    expect(code, stderr).toBe(0);
    expect(state.turns).toEqual([{ stopReason: "cancelled" }]);
    expect(textOf(state.messages[1])).toBe("Waiting until the turn is cancelled…");
  });

  it("/permission with the default policy allows the edit", async () => {
    const { code, state } = await run(version, ["/permission"]);
    expect(code).toBe(0);
    expect(state.toolCalls).toHaveLength(1);
    expect(state.toolCalls[0]).toMatchObject({ title: "Edit hello.txt", kind: "edit", status: "completed" });
    expect(state.permissions[0].outcome).toEqual({ outcome: "selected", optionId: "allow" });
    expect(textOf(state.messages[1])).toBe("Permission granted: the edit was applied.");
  });

  it("--permission reject selects the reject option; the tool call fails", async () => {
    const { code, state } = await run(version, ["/permission"], ["--permission", "reject"]);
    expect(code).toBe(0);
    expect(state.permissions[0].outcome).toEqual({ outcome: "selected", optionId: "reject" });
    expect(state.toolCalls[0].status).toBe("failed");
    expect(state.toolCalls[0].content.at(-1)).toEqual({ type: "content", content: { type: "text", text: "Skipped: permission was not granted." } });
    expect(textOf(state.messages[1])).toBe("Permission not granted: the edit was skipped.");
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
  });

  it("--permission cancel answers the request cancelled; the turn itself still ends normally", async () => {
    const { code, state } = await run(version, ["/permission"], ["--permission", "cancel"]);
    expect(code).toBe(0);
    expect(state.permissions[0].outcome).toEqual({ outcome: "cancelled" });
    expect(state.toolCalls[0].status).toBe("failed");
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
  });

  it("/read reads through the client's confined file system on v1 and explains its absence on v2", async () => {
    const { code, state, stderr } = await run(version, ["/read notes.txt"]);
    expect(code, stderr).toBe(0);
    if (version === 1) {
      expect(state.toolCalls).toHaveLength(1);
      expect(state.toolCalls[0]).toMatchObject({ title: "Read notes.txt", kind: "read", status: "completed" });
      expect(state.toolCalls[0].content[0].content.text).toBe(`${Buffer.byteLength(NOTES)} bytes, 2 lines`);
      expect(textOf(state.messages[1])).toBe(`Read ${join(workspace, "notes.txt")}: ${Buffer.byteLength(NOTES)} bytes (UTF-8), 2 lines.`);
    } else {
      expect(state.toolCalls).toEqual([]);
      expect(textOf(state.messages[1])).toContain("protocol v2 has no fs/* methods");
    }
  });

  it("/stop REASON ends the turn with that stop reason", async () => {
    const { code, state } = await run(version, ["/stop max_tokens"]);
    expect(code).toBe(0);
    expect(state.turns).toEqual([{ stopReason: "max_tokens" }]);
    expect(textOf(state.messages[1])).toBe("Stopping with stop reason max_tokens.");
  });

  it("/error: the agent answers with a JSON-RPC error, exit 1, the state is still printed", async () => {
    const { code, state, stderr } = await run(version, ["/error"]);
    expect(code).toBe(1);
    expect(stderr).toContain("error -32603");
    expect(state.turns).toEqual([]);
    expect(state.messages).toHaveLength(1);
  });

  it("a bad command argument is a -32602 error from the agent, exit 1", async () => {
    const { code, stderr } = await run(version, ["/stream lots"]);
    expect(code).toBe(1);
    expect(stderr).toContain("error -32602");
  });

  it("/stream N sends N chunks of one message", async () => {
    const { code, state } = await run(version, ["/stream 25"]);
    expect(code).toBe(0);
    const chunks = state.messages[1].content;
    expect(chunks).toHaveLength(25);
    chunks.forEach((block: { text: string }, index: number) => {
      expect(block.text.startsWith(`${index} `)).toBe(true);
    });
  });

  it("several --prompt flags run turns in order in one session", async () => {
    const { code, state } = await run(version, ["/echo one", "/stop refusal", "/echo three"]);
    expect(code).toBe(0);
    expect(state.turns).toEqual([{ stopReason: "end_turn" }, { stopReason: "refusal" }, { stopReason: "end_turn" }]);
    const userTexts = state.messages.filter((m: { kind: string }) => m.kind === "user_message").map(textOf);
    expect(userTexts).toEqual(["/echo one", "/stop refusal", "/echo three"]);
  });
});

describe.concurrent("acpkit run: prompts, file system and failures", () => {
  it("reads prompts from stdin, one per non-blank line", async () => {
    const { code, state } = await runJson(["--cwd", workspace, "--", ...BUILTIN_AGENT], { input: "/echo one\n\n/echo two\n" });
    expect(code).toBe(0);
    expect(state.turns).toHaveLength(2);
    expect(state.messages.filter((m: { kind: string }) => m.kind === "agent_message").map(textOf)).toEqual(["one", "two"]);
  });

  it("refuses reads outside --cwd (also through a symlink) with an error and a stderr note", async () => {
    for (const path of ["/etc/hostname", "escape-link"]) {
      const { code, state, stderr } = await runJson(["--cwd", workspace, "--prompt", `/read ${path}`, "--", ...BUILTIN_AGENT]);
      expect(code).toBe(0);
      expect(stderr).toMatch(/refused fs\/read_text_file: .* is outside the working directory/);
      expect(state.toolCalls[0].status).toBe("failed");
      expect(state.toolCalls[0].content[0].content.text).toContain("outside the working directory");
    }
  });

  // Before: opening the FIFO waited for a writer, so the read was never answered and the turn never ended.
  it.skipIf(process.platform === "win32")("answers a read of a FIFO inside --cwd with an error, and the turn ends", async () => {
    const fifo = join(workspace, "pipe.fifo");
    execFileSync("mkfifo", [fifo]);
    expect(existsSync(fifo)).toBe(true);
    const { code, state, stderr } = await runJson(["--cwd", workspace, "--prompt", "/read pipe.fifo", "--", ...BUILTIN_AGENT]);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/refused fs\/read_text_file: .*pipe\.fifo: is not a regular file/);
    expect(state.toolCalls[0].status).toBe("failed");
    expect(state.toolCalls[0].content[0].content.text).toContain("is not a regular file");
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
  });

  it("--fs none advertises no file system to a v1 agent", async () => {
    const { code, state } = await runJson(["--cwd", workspace, "--fs", "none", "--prompt", "/read notes.txt", "--", ...BUILTIN_AGENT]);
    expect(code).toBe(0);
    expect(state.toolCalls).toEqual([]);
    expect(textOf(state.messages[1])).toContain("did not advertise fs.readTextFile");
  });

  it("offering v2 to an agent limited to v1 negotiates v1", async () => {
    const { code, state } = await runJson(["--protocol", "2", "--cwd", workspace, "--prompt", "/echo hi", "--", ...BUILTIN_AGENT, "--max-protocol", "1"]);
    expect(code).toBe(0);
    expect(state.protocolVersion).toBe(1);
  });

  it("prints the turn for people without --json, with nothing but the turn on stdout", async () => {
    const { code, stdout } = await runCli(["run", "--cwd", workspace, "--prompt", "/echo hello there", "--", ...BUILTIN_AGENT]);
    expect(code).toBe(0);
    // The built-in agent reports the CLI package's own version.
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(stdout.split("\n")).toEqual([
      `acpkit-agent ${version} · protocol v1 negotiated (offered v1) · dialect v1`,
      "› /echo hello there",
      "hello there",
      "■ end_turn",
      "",
    ]);
  });

  it("exit 1 when the agent process dies during a turn", async () => {
    const script = "process.stdin.once('data', () => process.exit(3))";
    const { code, stderr } = await runCli(["run", "--prompt", "hi", "--", process.execPath, "-e", script]);
    expect(code).toBe(1);
    expect(stderr).toContain("exited with code 3");
  });

  it("exit 1 when the agent command cannot be started", async () => {
    const { code, stderr } = await runCli(["run", "--prompt", "hi", "--", "/nonexistent/agent-binary"]);
    expect(code).toBe(1);
    expect(stderr).toContain("could not start");
  });
});

describe.concurrent("acpkit run: usage errors exit 2", () => {
  it.each([
    [["run", "--prompt", "hi"], "no agent"],
    [["run", "--protocol", "3", "--", "x"], "--protocol must be one of 1, 2"],
    [["run", "--cancel-after", "soon", "--", "x"], "--cancel-after must be a non-negative integer"],
    [["run", "--permission", "maybe", "--", "x"], "--permission must be one of allow, reject, cancel, ask"],
    [["run", "--fs", "all", "--", "x"], "--fs must be one of none, read, write"],
    [["run", "--cwd", "/nonexistent/dir", "--", "x"], "is not a directory"],
    [["run", "--ws", "ws://127.0.0.1:1/acp", "--", "x"], "not both"],
    [["run", "--ws", "http://example", "--prompt", "x"], "ws:// or wss://"],
    [["run", "--permission", "ask", "--prompt", "x", "--", "x"], "needs a terminal"],
    [["run", "--bogus", "--", "x"], "unknown option --bogus"],
  ])("%j", async (args, message) => {
    const { code, stderr, stdout } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain("usage: acpkit run");
    expect(stdout).toBe("");
  });
});
