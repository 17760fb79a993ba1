// `acpkit validate` on recorded transcripts: exit codes and the line numbers of the problems.
import { createReadStream } from "node:fs";
import { mkdtemp, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli } from "../support/cli.js";

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

// A turn in the later v2 draft (the v2 of @agentclientprotocol/sdk 2.4): `info` in the handshake,
// an insertion receipt for the prompt, and the turn's end as a state update.
const VALID_LATER = [
  '→ {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"},"capabilities":{"elicitation":{"form":{}}}}}',
  '← {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"a","version":"1"},"capabilities":{"session":{}},"authMethods":[{"type":"agent","methodId":"oauth","name":"OAuth"}]}}',
  '→ {"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/p"}}',
  '← {"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}',
  '→ {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}',
  '← {"jsonrpc":"2.0","id":2,"result":{"messageId":"u1"}}',
  '← {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"state_update","state":"running"}}}',
  '← {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","name":"edit","status":"in_progress","capabilities":{"cancel":{}}}}}',
  '→ {"jsonrpc":"2.0","id":3,"method":"tool_call/cancel","params":{"sessionId":"s1","toolCallId":"t1"}}',
  '← {"jsonrpc":"2.0","id":3,"result":{}}',
  '← {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"cancelled"}}}',
  '← {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}}}',
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
  // Line 2, byte 5: C3 then "(" (a lead byte without its continuation).
  await writeFile(file("not-utf8.ndjson"), Buffer.concat([Buffer.from("{}\nabcd"), Buffer.from([0xc3, 0x28, 0x0a])]));
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

  it("exit 0 for a valid transcript saved with a byte order mark", async () => {
    const path = file("bom-v1.ndjson");
    await writeFile(path, `\ufeff${VALID_V1.join("\n")}\n`);
    const { code, stdout } = await runCli(["validate", path]);
    expect(stdout).toBe("valid: 9 messages, protocol v1\n");
    expect(code).toBe(0);
  });

  it("exit 0 for a valid v2 transcript read from stdin, version taken from initialize", async () => {
    const { code, stdout } = await runCli(["validate", "--json"], { input: VALID_V2.join("\n") });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      valid: true,
      protocolVersion: 2,
      schemaVersion: 2,
      versionSource: "initialize-response",
      messages: 7,
      problems: [],
      warnings: [],
      extensions: 0,
    });
  });

  it("tells the later v2 draft from its initialize and checks it against that draft's schema", async () => {
    const valid = await runCli(["validate"], { input: VALID_LATER.join("\n") });
    expect(valid.stdout).toContain("valid: 12 messages, protocol v2 (the later v2 draft)");
    expect(valid.code).toBe(0);
    // The same lines read as the pinned v2: its initialize and prompt result are not that draft's.
    const pinned = await runCli(["validate", "--json", "--protocol", "2"], { input: VALID_LATER.join("\n") });
    expect(pinned.code).toBe(1);
    expect(JSON.parse(pinned.stdout).problems.map((problem: { line: number }) => problem.line)).toEqual(expect.arrayContaining([1, 2, 6, 9]));
    // A later-draft transcript with the pinned prompt result and a batch: each named on its line.
    const wrong = [
      ...VALID_LATER.slice(0, 5),
      '← {"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}',
      '→ [{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}]',
    ];
    const invalid = await runCli(["validate", "--json"], { input: wrong.join("\n") });
    expect(invalid.code).toBe(1);
    const report = JSON.parse(invalid.stdout);
    expect(report.schemaVersion).toBe("v2-later");
    expect(report.problems).toEqual([
      expect.objectContaining({ line: 6, method: "session/prompt", path: "/messageId", message: "must have required property 'messageId'" }),
      expect.objectContaining({ line: 7, message: "batch arrays do not exist in the later v2 draft" }),
    ]);
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
    expect(binary.stderr).toContain("not-utf8.ndjson is not UTF-8 text: line 2, byte 5 (0xc3) starts no valid UTF-8 sequence");
    const usage = await runCli(["validate", "--protocol", "3", file("valid-v1.ndjson")]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("usage: acpkit validate");
  });
});

// Before: the whole transcript was read into one string and every problem kept until the end. A
// file over about 512 MiB could not be checked at all, and a large file of garbage ran the
// process out of memory (3 million problems peaked at 3.6 GB). Now it is read a line at a time
// and each problem is written as it is found, so these run in a 96 MiB heap.
describe("acpkit validate: large input in bounded memory", () => {
  const SMALL_HEAP = { NODE_OPTIONS: "--max-old-space-size=96" };
  const OVER_500_MIB = 500 * 1024 * 1024 + 1;

  async function hugeFile(): Promise<string> {
    const path = file("huge.ndjson");
    await writeFile(path, "");
    await truncate(path, OVER_500_MIB); // sparse: no disk space; zero bytes are valid UTF-8, and no newline
    expect((await stat(path)).size).toBe(OVER_500_MIB);
    return path;
  }

  const tooLong = `line 1: not checked: the line is ${OVER_500_MIB} bytes, longer than the 67108864 bytes a line may have`;

  it("reads a file over 500 MiB to its end; its one line, too long to check, is one problem", async () => {
    const path = await hugeFile();
    const { code, stdout, stderr } = await runCli(["validate", path], { env: SMALL_HEAP });
    expect(stderr).toBe("");
    expect(code).toBe(1);
    expect(stdout).toBe(`${tooLong}\ninvalid: 1 problem(s) in 0 messages, protocol v1 (no initialize found: assumed v1; pass --protocol)\n`);
  }, 60_000);

  it("reads standard input the same way", async () => {
    const path = await hugeFile();
    const child = startCli(["validate", "-"], { env: SMALL_HEAP });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    createReadStream(path).pipe(child.stdin!);
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(1);
    expect(stdout.split("\n")[0]).toBe(tooLong);
  }, 60_000);

  const GARBAGE_LINES = 500_000;

  async function garbageFile(): Promise<string> {
    const path = file("garbage.ndjson");
    await writeFile(path, "x\n".repeat(GARBAGE_LINES));
    expect((await stat(path)).size).toBe(2 * GARBAGE_LINES);
    return path;
  }

  it("prints every problem of a file that is all garbage", async () => {
    const path = await garbageFile();
    const { code, stdout, stderr } = await runCli(["validate", path], { env: SMALL_HEAP });
    expect(stderr).toBe("");
    expect(code).toBe(1);
    const lines = stdout.split("\n");
    expect(lines).toHaveLength(GARBAGE_LINES + 2); // the problems, the verdict, and the final newline
    expect(lines[0]).toMatch(/^line 1: not valid JSON/);
    expect(lines[GARBAGE_LINES - 1]).toMatch(new RegExp(`^line ${GARBAGE_LINES}: not valid JSON`));
    expect(lines[GARBAGE_LINES]).toBe(`invalid: ${GARBAGE_LINES} problem(s) in 0 messages, protocol v1 (no initialize found: assumed v1; pass --protocol)`);
  }, 120_000);

  it("--json writes the same problems as one JSON document", async () => {
    const path = await garbageFile();
    const { code, stdout, stderr } = await runCli(["validate", "--json", path], { env: SMALL_HEAP });
    expect(stderr).toBe("");
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.problems).toHaveLength(GARBAGE_LINES);
    expect(report.problems[GARBAGE_LINES - 1]).toMatchObject({ line: GARBAGE_LINES, method: "", path: "" });
    expect(report).toMatchObject({ valid: false, protocolVersion: 1, versionSource: "default", messages: 0, warnings: [], extensions: 0 });
  }, 120_000);

  // Before: with the reader gone, the check went on to the end of its input (36 s for a 441 MB
  // file piped to `head -2`), and on input without end it never stopped.
  it("stops reading once the reader of its output went away and a problem was found: exit 1", async () => {
    const child = startCli(["validate", "-"]);
    let exited = false;
    const closed = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
    child.once("exit", () => (exited = true));
    child.stdin!.on("error", () => {}); // it stops reading: EPIPE on our side is expected
    let firstLine = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (text: string) => {
      if (firstLine === "") {
        firstLine = text.split("\n")[0]!;
        child.stdout!.destroy(); // like `| head -1`
      }
    });
    // Garbage without end: only the reader going away can stop the check.
    const chunk = "x\n".repeat(32 * 1024);
    while (!exited) {
      if (!child.stdin!.write(chunk)) {
        await new Promise((resolve) => {
          child.stdin!.once("drain", resolve);
          child.once("exit", resolve);
        });
      }
    }
    expect(await closed).toBe(1);
    expect(firstLine).toMatch(/^line 1: not valid JSON/);
  }, 60_000);

  it("--json still ends in one well-formed document when the input stops being UTF-8", async () => {
    const path = file("half-utf8.ndjson");
    await writeFile(path, Buffer.concat([Buffer.from("x\n{}\n"), Buffer.from([0x61, 0xff, 0x0a]), Buffer.from("y\n")]));
    const { code, stdout, stderr } = await runCli(["validate", "--json", path]);
    expect(code).toBe(2);
    expect(stderr).toContain("half-utf8.ndjson is not UTF-8 text: line 3, byte 2 (0xff) starts no valid UTF-8 sequence");
    const report = JSON.parse(stdout);
    expect(report.valid).toBe(false);
    expect(report.error).toContain("line 3, byte 2 (0xff)");
    // Lines before the bad one were checked (line 1 is garbage; line 2 is not a message).
    expect([...new Set(report.problems.map((p: { line: number }) => p.line))]).toEqual([1, 2]);
  });
});

describe("acpkit validate: the whole v1 surface, extensions and cut-short transcripts", () => {
  // What a real client/agent pair exchanges beyond the prompt turn, with a `_` extension request
  // and notification like claude-agent-acp sends, and a request that never got an answer.
  const SURFACE = [
    '→ {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"terminal":true,"session":{"notices":{}},"elicitation":{"form":{}}}}}',
    '← {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"sessionCapabilities":{"list":{},"close":{}}},"authMethods":[]}}',
    '→ {"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/p","mcpServers":[]}}',
    '← {"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","modes":{"currentModeId":"ask","availableModes":[{"id":"ask","name":"Ask"},{"id":"code","name":"Code"}]}}}',
    '→ {"jsonrpc":"2.0","id":2,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"code"}}',
    '← {"jsonrpc":"2.0","id":2,"result":{}}',
    '→ {"jsonrpc":"2.0","id":3,"method":"_claude/status","params":{"anything":[1,2,3]}}',
    '← {"jsonrpc":"2.0","id":3,"result":{"free":"form"}}',
    '← {"jsonrpc":"2.0","method":"_claude/progress","params":{"pct":5}}',
    '→ {"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}',
    '← {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"notice","severity":"info","title":"Heads up"}}}',
    '← {"jsonrpc":"2.0","id":0,"method":"terminal/create","params":{"sessionId":"s1","command":"ls"}}',
    '→ {"jsonrpc":"2.0","id":0,"result":{"terminalId":"t1"}}',
  ];

  beforeAll(async () => {
    await writeFile(file("surface.ndjson"), SURFACE.join("\n") + "\n");
  });

  it("is valid with one warning: the prompt was cut short; extensions are counted, not checked", async () => {
    const result = await runCli(["validate", file("surface.ndjson")]);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain("warning: line 10: session/prompt: request never answered in this transcript");
    expect(result.stdout).toContain("valid: 13 messages, protocol v1 (2 extension message(s) not checked, 1 warning(s))");
  });

  it("--strict makes the unanswered request a problem (exit 1)", async () => {
    const result = await runCli(["validate", "--strict", "--json", file("surface.ndjson")]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.problems).toEqual([{ line: 10, method: "session/prompt", path: "", message: "request never answered in this transcript" }]);
    expect(report.warnings).toEqual([]);
    expect(report.extensions).toBe(2);
  });

  it("still checks the standard methods around the extensions", async () => {
    const broken = SURFACE.map((line) => line.replace('"modeId":"code"', '"modeId":7'));
    await writeFile(file("surface-broken.ndjson"), broken.join("\n") + "\n");
    const result = await runCli(["validate", file("surface-broken.ndjson")]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("line 5: session/set_mode /modeId: must be string");
  });
});
