// `acpkit validate` on recorded transcripts: exit codes and the line numbers of the problems.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

// A v1 turn with direction markers: the agent's fs request reuses id 0 in its own id space.
const VALID_V1 = [
  '→ {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":false}}}}',
  '← {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":false},"authMethods":[]}}',
  '→ {"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/home/u/p","mcpServers":[]}}',
  '← {"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}',
  '→ {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"Fix the typo"}]}}',
  '← {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Reading."}}}}',
  '← {"jsonrpc":"2.0","id":0,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/home/u/p/README.md"}}',
  '→ {"jsonrpc":"2.0","id":0,"result":{"content":"# Teh project\\n"}}',
  '← {"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}',
];

// A v2 turn without markers, with a blank line (skipped, but counted in line numbers).
const VALID_V2 = [
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
  '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"capabilities":{},"agentInfo":{"name":"a","version":"1"}}}',
  "",
  '{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/p","mcpServers":[]}}',
  '{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}',
  '{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}',
  '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"hello"}}}}',
  '{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}',
];

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "acpkit-validate-e2e-"));
  await writeFile(file("valid-v1.ndjson"), VALID_V1.join("\n") + "\n");
  await writeFile(file("valid-v2.ndjson"), VALID_V2.join("\n") + "\n");
  const broken = [...VALID_V1];
  broken[5] = broken[5]!.replace('"type":"text","text":"Reading."', '"type":"text"'); // line 6: text block without text
  broken[6] = "← {not json"; // line 7
  broken[8] = broken[8]!.replace('"end_turn"', '"finished"'); // line 9: not a v1 stop reason
  await writeFile(file("invalid-v1.ndjson"), broken.join("\n") + "\n");
  await writeFile(file("not-utf8.ndjson"), Buffer.from([0xff, 0xfe, 0x0a]));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.concurrent("acpkit validate", () => {
  it("exit 0 for a valid v1 transcript with direction markers", async () => {
    const { code, stdout } = await runCli(["validate", file("valid-v1.ndjson")]);
    expect(code).toBe(0);
    expect(stdout).toBe("valid: 9 messages, protocol v1\n");
  });

  it("exit 0 for a valid v2 transcript read from stdin, version taken from initialize", async () => {
    const { code, stdout } = await runCli(["validate", "--json"], { input: VALID_V2.join("\n") });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ valid: true, protocolVersion: 2, versionSource: "initialize-response", messages: 7, problems: [] });
  });

  it("exit 1 for an invalid transcript, each problem on its line", async () => {
    const { code, stdout } = await runCli(["validate", file("invalid-v1.ndjson")]);
    expect(code).toBe(1);
    const lines = stdout.trim().split("\n");
    expect(lines.at(-1)).toMatch(/^invalid: \d+ problem\(s\) in \d+ messages, protocol v1$/);
    const problemLines = lines.slice(0, -1).map((line) => Number(/^line (\d+):/.exec(line)?.[1]));
    // Line 8 answers the request that line 7 garbled, so it answers nothing.
    expect(new Set(problemLines)).toEqual(new Set([6, 7, 8, 9]));
    expect(lines.find((line) => line.startsWith("line 6:"))).toContain("session/update /update/content");
    expect(lines.find((line) => line.startsWith("line 7:"))).toContain("not valid JSON");
    expect(lines.find((line) => line.startsWith("line 8:"))).toContain("matches no open request");
    expect(lines.find((line) => line.startsWith("line 9:"))).toContain("session/prompt /stopReason");
  });

  it("--json reports the same problems with line, method and path", async () => {
    const { code, stdout } = await runCli(["validate", "--json", file("invalid-v1.ndjson")]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.valid).toBe(false);
    expect(report.protocolVersion).toBe(1);
    const line6 = report.problems.find((p: { line: number }) => p.line === 6);
    expect(line6).toMatchObject({ method: "session/update" });
    expect(line6.path.startsWith("/update/content")).toBe(true);
    expect(report.problems.find((p: { line: number }) => p.line === 9)).toMatchObject({ method: "session/prompt", path: "/stopReason" });
  });

  it("--protocol 2 checks a v1 transcript as v2 and finds the differences", async () => {
    const { code, stdout } = await runCli(["validate", "--protocol", "2", file("valid-v1.ndjson")]);
    expect(code).toBe(1);
    expect(stdout).toContain("protocol v2");
  });

  it("exit 2 for a missing file, non-UTF-8 input or bad usage", async () => {
    const missing = await runCli(["validate", file("nope.ndjson")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read");
    const binary = await runCli(["validate", file("not-utf8.ndjson")]);
    expect(binary.code).toBe(2);
    expect(binary.stderr).toContain("is not UTF-8");
    const usage = await runCli(["validate", "--protocol", "3", file("valid-v1.ndjson")]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("usage: acpkit validate");
  });
});
