// The programmatic entry of @acpkit/cli: what src/index.ts exports works the way the README shows.
import { serveAgent } from "@acpkit/agent";
import { connectAgent, sessionStateToJSON } from "@acpkit/client";
import { createMemoryPair } from "@acpkit/transport-memory";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createBuiltinAgent, Exit, formatProblem, main, validateTranscript, type CommandIO } from "../src/index.js";
import { createStyle } from "../src/style.js";

describe("@acpkit/cli as a library", () => {
  it("serves the built-in agent in-process and streams /echo back", async () => {
    const [agentSide, clientSide] = createMemoryPair();
    serveAgent(agentSide, createBuiltinAgent());
    const agent = await connectAgent(clientSide, { protocolVersion: 2 });
    const session = await agent.newSession({ cwd: "/tmp" });
    const { stopReason } = await session.prompt("/echo one two three");
    expect(stopReason).toBe("end_turn");
    const state = sessionStateToJSON(session.state) as { messages: { kind: string; content: { text: string }[] }[] };
    const answer = state.messages.find((m) => m.kind === "agent_message");
    expect(answer?.content.map((block) => block.text).join("")).toBe("one two three");
    await agent.close();
  });

  it("validateTranscript reports a bad line by number and JSON path", () => {
    const transcript = [
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}',
      '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}',
      '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk"}}}',
    ].join("\n");
    const report = validateTranscript(transcript, "auto");
    expect(report.valid).toBe(false);
    expect(report.protocolVersion).toBe(1);
    expect(report.problems.map(formatProblem)).toEqual([expect.stringMatching(/^line 3: session\/update \/update\/content: /)]);
  });

  it("main runs a command and returns its exit code", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const io: CommandIO = { stdin, stdout, stderr, out: createStyle(false), err: createStyle(false), cwd: process.cwd() };
    let printed = "";
    stdout.on("data", (chunk) => (printed += String(chunk)));
    stdin.end('{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}\n');
    const code = await main(["validate", "--protocol", "1", "-"], io);
    expect(code).toBe(Exit.Ok);
    expect(printed).toContain("valid: 1 messages, protocol v1");
  });
});
