// The built binary: `node dist/bin.js agent` over real stdio. stdout must carry protocol lines only
// and the process must exit 0 once its stdin closes. Build first: npx tsc -p tsconfig.build.json.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PassThrough } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { connectAgent } from "@acpkit/client";
import { NdjsonStreamTransport } from "@acpkit/transport-stdio";
import { agentCommand } from "../src/commands/agent.js";
import { createStyle } from "../src/style.js";
import { validateTranscript } from "@acpkit/schema";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

type Message = { jsonrpc: string; id?: number | string | null; method?: string; params?: any; result?: any; error?: any };

/** A line-level client: records both directions as a → / ← transcript. */
class StdioLineClient {
  readonly stdoutLines: string[] = [];
  readonly transcript: string[] = [];
  stderr = "";
  private pending = "";
  private watchers: Array<{ match: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
  readonly exit: Promise<number | null>;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      this.pending += chunk;
      let newline: number;
      while ((newline = this.pending.indexOf("\n")) !== -1) {
        const line = this.pending.slice(0, newline);
        this.pending = this.pending.slice(newline + 1);
        this.stdoutLines.push(line);
        this.transcript.push(`← ${line}`);
        let message: Message;
        try {
          message = JSON.parse(line) as Message;
        } catch {
          continue; // the test asserts on stdoutLines
        }
        this.watchers = this.watchers.filter((w) => {
          if (!w.match(message)) return true;
          w.resolve(message);
          return false;
        });
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (this.stderr += chunk));
    this.exit = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  }

  send(message: object): void {
    const line = JSON.stringify({ jsonrpc: "2.0", ...message });
    this.transcript.push(`→ ${line}`);
    this.child.stdin.write(line + "\n");
  }

  next(match: (m: Message) => boolean): Promise<Message> {
    return new Promise((resolve) => this.watchers.push({ match, resolve }));
  }

  async request(id: number, method: string, params: object): Promise<Message> {
    const answer = this.next((m) => m.id === id && m.method === undefined);
    this.send({ id, method, params });
    return answer;
  }
}

describe("acpkit agent over stdio (built binary)", () => {
  beforeAll(() => {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: build the cli first (cd packages/cli && npx tsc -p tsconfig.build.json)`);
  });

  it("v1 demo turn: only protocol lines on stdout, a valid transcript, exit 0 when stdin closes", async () => {
    const client = new StdioLineClient(spawn(process.execPath, [bin, "agent"], { stdio: "pipe" }));
    const init = await client.request(0, "initialize", {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: false }, terminal: false },
    });
    expect(init.result.protocolVersion).toBe(1);
    const { result } = await client.request(1, "session/new", { cwd: "/home/user/project", mcpServers: [] });

    // Answer the agent's requests as they come: allow the edit, serve the read.
    const permission = client.next((m) => m.method === "session/request_permission");
    const read = client.next((m) => m.method === "fs/read_text_file");
    const done = client.request(2, "session/prompt", { sessionId: result.sessionId, prompt: [{ type: "text", text: "Hello agent" }] });
    const asked = await permission;
    client.send({ id: asked.id, result: { outcome: { outcome: "selected", optionId: "allow" } } });
    const readRequest = await read;
    expect(readRequest.params.path).toBe("/home/user/project/README.md");
    client.send({ id: readRequest.id, result: { content: "# Project\n" } });
    expect((await done).result).toEqual({ stopReason: "end_turn" });

    const echo = await client.request(3, "session/prompt", { sessionId: result.sessionId, prompt: [{ type: "text", text: "/stream 500" }] });
    expect(echo.result).toEqual({ stopReason: "end_turn" });

    client.child.stdin.end();
    expect(await client.exit).toBe(0);
    expect(client.stderr).toBe("");
    for (const line of client.stdoutLines) {
      const message = JSON.parse(line) as Message;
      expect(message.jsonrpc).toBe("2.0");
    }
    expect(client.stdoutLines.filter((l) => l.includes('"agent_message_chunk"')).length).toBeGreaterThan(500);
    const report = validateTranscript(client.transcript.join("\n") + "\n");
    expect(report.problems).toEqual([]);
    expect(report.protocolVersion).toBe(1);
  });

  it("exits 0 when stdin closes during a /wait turn", async () => {
    const client = new StdioLineClient(spawn(process.execPath, [bin, "agent", "--max-protocol", "2"], { stdio: "pipe" }));
    await client.request(0, "initialize", { protocolVersion: 2, capabilities: {} });
    const { result } = await client.request(1, "session/new", { cwd: "/tmp", mcpServers: [] });
    const firstChunk = client.next((m) => m.method === "session/update");
    client.send({ id: 2, method: "session/prompt", params: { sessionId: result.sessionId, prompt: [{ type: "text", text: "/wait" }] } });
    await firstChunk;
    client.child.stdin.end();
    expect(await client.exit).toBe(0);
    expect(client.stdoutLines.every((line) => (JSON.parse(line) as Message).jsonrpc === "2.0")).toBe(true);
  });

  it("an invalid script: exit 2, the problem on stderr, nothing on stdout", async () => {
    const client = new StdioLineClient(spawn(process.execPath, [bin, "agent", "--script", "does-not-exist.json"], { stdio: "pipe" }));
    client.child.stdin.end();
    expect(await client.exit).toBe(2);
    expect(client.stdoutLines).toEqual([]);
    expect(client.stderr).toMatch(/^acpkit agent: does-not-exist\.json: cannot read the script: ENOENT/);
  });
});

describe("agentCommand in-process", () => {
  it("serves the streams it is given and returns 0 when its stdin ends", async () => {
    const agentStdin = new PassThrough();
    const agentStdout = new PassThrough();
    const stderr = new PassThrough();
    let errors = "";
    stderr.on("data", (chunk) => (errors += chunk));
    const style = createStyle(false);
    const exit = agentCommand(["--max-protocol", "1"], { stdin: agentStdin, stdout: agentStdout, stderr, out: style, err: style, cwd: "/tmp" });
    const agent = await connectAgent(new NdjsonStreamTransport(agentStdout, agentStdin), { protocolVersion: 2 });
    expect(agent.protocolVersion).toBe(1);
    const session = await agent.newSession({ cwd: "/tmp" });
    expect((await session.prompt("/stop refusal")).stopReason).toBe("refusal");
    agentStdin.end();
    expect(await exit).toBe(0);
    expect(errors).toBe("");
  });

  it("refuses positional arguments as a usage error", async () => {
    const style = createStyle(false);
    const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), out: style, err: style, cwd: "/tmp" };
    await expect(agentCommand(["extra"], io)).rejects.toThrow(/agent takes no arguments/);
  });
});
