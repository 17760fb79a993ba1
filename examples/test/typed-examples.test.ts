// The typed examples (examples/typed/*.ts), type-checked strictly and run the way their headers
// say, through tsx: the agent with sessions behind a login across three processes, the client with
// terminals and forms against the built-in agent, the WebSocket server behind a token, and the
// logging proxy between `acpkit run` and an agent.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { connectAgent } from "@acpkit/client";
import { isRpcError } from "@acpkit/core";
import { spawnAgent } from "@acpkit/transport-stdio";
import { connect } from "@acpkit/transport-websocket";
import { afterAll, describe, expect, it } from "vitest";
import { typeCheck } from "./typecheck.js";

const run = promisify(execFile);
const examples = join(import.meta.dirname, "..");
const typed = join(examples, "typed");
const cliBin = join(examples, "..", "packages", "cli", "dist", "bin.js");
const TSX = ["--import", "tsx"];
const scratch = mkdtempSync(join(tmpdir(), "acpkit-typed-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

/** The error a promise rejected with (fails the test when it resolved). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected a rejection"),
    (error: unknown) => error,
  );
}

const textOf = (content: readonly { type: string; text?: string }[]): string => content.map((block) => block.text ?? "").join("");

describe("the typed examples", () => {
  it("type-check strictly", () => {
    const files = readdirSync(typed)
      .filter((name) => name.endsWith(".ts"))
      .map((name) => join(typed, name));
    expect(files.length).toBe(4);
    expect(typeCheck(files, (file) => file.slice(examples.length + 1))).toEqual([]);
  }, 120_000);

  it("session-agent.ts: sessions wait for the login, then outlive the process (list, load with its history, resume)", async () => {
    const env = { ...process.env, SESSIONS_DIR: join(scratch, "sessions"), ECHO_AGENT_KEY: "k" };
    const start = (protocolVersion: 1 | 2) =>
      connectAgent(spawnAgent(process.execPath, [...TSX, "typed/session-agent.ts"], { cwd: examples, env }), { protocolVersion });

    const first = await start(1);
    expect(first.authMethods.map((method) => method.id)).toEqual(["agent-key"]);
    const refused = await rejection(first.newSession({ cwd: examples }));
    expect(isRpcError(refused) && refused.code).toBe(-32000);
    await first.authenticate("agent-key");
    const session = await first.newSession({ cwd: examples });
    expect((await session.prompt("first words")).stopReason).toBe("end_turn");
    expect(textOf(session.state.messages.at(-1)!.content)).toBe("Echo #1: first words");
    await first.close();

    // A new process (and another protocol version) finds the session, loads its history, goes on.
    const second = await start(2);
    await second.authenticate("agent-key");
    const listed = await second.listSessions({ cwd: examples });
    expect(listed.sessions.map((entry) => [entry.sessionId, entry.title])).toEqual([[session.sessionId, "first words"]]);
    const loaded = await second.loadSession({ sessionId: session.sessionId, cwd: examples });
    expect(loaded.state.messages.map((message) => [message.kind, textOf(message.content)])).toEqual([
      ["user_message", "first words"],
      ["agent_message", "Echo #1: first words"],
    ]);
    await loaded.prompt("second words");
    expect(textOf(loaded.state.messages.at(-1)!.content)).toBe("Echo #2: second words");
    await second.close();

    const third = await start(1);
    await third.authenticate("agent-key");
    const resumed = await third.resumeSession({ sessionId: session.sessionId, cwd: examples });
    expect(resumed.state.messages).toEqual([]); // resume replays nothing
    await resumed.prompt("third");
    expect(textOf(resumed.state.messages.at(-1)!.content)).toBe("Echo #3: third");
    const unknown = await rejection(third.resumeSession({ sessionId: `sess_${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}`, cwd: examples }));
    expect(isRpcError(unknown) && unknown.code).toBe(-32002);
    await third.close();

    // Without the key in its environment the agent refuses the login itself.
    const keyless = await connectAgent(
      spawnAgent(process.execPath, [...TSX, "typed/session-agent.ts"], { cwd: examples, env: { ...env, ECHO_AGENT_KEY: "" } }),
    );
    const login = await rejection(keyless.authenticate("agent-key"));
    expect(isRpcError(login) && login.code).toBe(-32000);
    await keyless.close();
  }, 120_000);

  it("terminal-client.ts: runs the agent's command in a real terminal and fills in its form", async () => {
    const agentCommand = ["--", process.execPath, cliBin, "agent"];
    const terminal = await run(process.execPath, [...TSX, "typed/terminal-client.ts", "/terminal node -e console.log(6*7)", ...agentCommand], {
      cwd: examples,
    });
    expect(terminal.stdout.trim().split("\n")).toEqual([
      "terminal term_1: node -e console.log(6*7)",
      'terminal term_1 exited 0: "42\\n"',
      "agent: The command exited with code 0.",
      "tool call: Run node -e console.log(6*7) (completed)",
      "stop reason: end_turn",
    ]);
    const form = await run(process.execPath, [...TSX, "typed/terminal-client.ts", "/elicit", ...agentCommand], {
      cwd: examples,
      env: { ...process.env, NAME_FOR_FORMS: "Grace" },
    });
    expect(form.stdout.trim().split("\n")).toEqual([
      'form: Tell the built-in agent about you -> {"name":"Grace","subscribe":false}',
      'agent: Elicitation answered: accept {"name":"Grace","subscribe":false}',
      "stop reason: end_turn",
    ]);
  }, 90_000);

  it("token-server.ts: refuses a connection without the token (401), serves one with it, stops cleanly on SIGTERM", async () => {
    const token = "0123456789abcdef-example";
    const server = spawn(process.execPath, [...TSX, "typed/token-server.ts", "0"], {
      cwd: examples,
      env: { ...process.env, ACP_TOKEN: token },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(server);
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      server.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(out.trim());
      });
      server.once("exit", (code) => reject(new Error(`token-server exited ${code} before printing its URL`)));
    });
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/acp$/);

    expect(String(await rejection(connect(url, { token: "not-the-token" })))).toMatch(/401/);
    expect(String(await rejection(connect(url)))).toMatch(/401/);

    const agent = await connectAgent(await connect(url, { token }), { protocolVersion: 2 });
    const session = await agent.newSession({ cwd: examples });
    await session.prompt("hello");
    expect(textOf(session.state.messages.at(-1)!.content)).toBe("You reached me over WebSocket and said: hello");
    await agent.close();

    server.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 90_000);

  it("logging-proxy.ts: acpkit run works through it unchanged, and its log is a transcript acpkit validate accepts", async () => {
    const log = join(scratch, "session.ndjson");
    const { stdout } = await run(
      process.execPath,
      [
        cliBin,
        "run",
        "--json",
        "--prompt",
        "/echo through the proxy",
        "--",
        process.execPath,
        ...TSX,
        "typed/logging-proxy.ts",
        log,
        "--",
        process.execPath,
        cliBin,
        "agent",
      ],
      { cwd: examples },
    );
    const state = JSON.parse(stdout) as { turns: { stopReason: string }[]; messages: { content: { text?: string }[] }[] };
    expect(state.turns.map((turn) => turn.stopReason)).toEqual(["end_turn"]);
    expect(textOf(state.messages.at(-1)!.content as { type: string; text?: string }[])).toBe("through the proxy");

    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(lines[0]).toMatch(/^→ \{"jsonrpc":"2\.0","id":0,"method":"initialize"/);
    expect(lines[1]).toMatch(/^← \{"jsonrpc":"2\.0","id":0,"result":/);
    expect(lines.filter((line) => line.includes('"method":"session/prompt"'))).toHaveLength(1);
    const validated = await run(process.execPath, [cliBin, "validate", log]);
    expect(validated.stdout).toMatch(/^valid: \d+ messages, protocol v1/);
  }, 90_000);
});
