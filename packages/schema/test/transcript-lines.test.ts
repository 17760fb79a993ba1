// TranscriptLineValidator: a transcript checked line by line, with problems handed over as they
// are found, and bounded memory on what the transcript controls (lines held while the version is
// unknown, requests kept open). validateTranscript is built on it and must report as before.
import { describe, expect, it } from "vitest";
import { TranscriptLineValidator, VERSION_LOOKAHEAD_CHARS, validateTranscript, type TranscriptProblem } from "../src/index.js";

const V2_INIT_REQUEST =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"capabilities":{},"clientInfo":{"name":"c","version":"1"}}}';
const V2_INIT_RESPONSE = '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"capabilities":{},"agentInfo":{"name":"a","version":"1"}}}';
// A stop reason that is not a string is invalid in both versions (v2's are open strings).
const PROMPT = '{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}';
const BAD_STOP = '{"jsonrpc":"2.0","id":1,"result":{"stopReason":7}}';

function collect(protocol: 1 | 2 | "auto", options: ConstructorParameters<typeof TranscriptLineValidator>[1] = {}) {
  const problems: TranscriptProblem[] = [];
  const validator = new TranscriptLineValidator(protocol, options, (problem) => problems.push(problem));
  return { validator, problems };
}

describe("TranscriptLineValidator", () => {
  it("hands each problem over as soon as its line is fed, when the version is given", () => {
    const { validator, problems } = collect(1);
    validator.line("{not json");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 1, method: "", path: "" });
    expect(problems[0]!.message).toMatch(/^not valid JSON/);
    validator.line("");
    validator.line(PROMPT);
    validator.line(BAD_STOP);
    expect(problems.map((p) => [p.line, p.method, p.path])).toEqual([
      [1, "", ""],
      [4, "session/prompt", "/stopReason"],
    ]);
    const summary = validator.end();
    expect(summary).toMatchObject({ valid: false, protocolVersion: 1, versionSource: "option", messages: 2, problemCount: 2, warnings: [] });
  });

  it("holds lines until the initialize response says the version, then checks them against it", () => {
    const { validator, problems } = collect("auto");
    validator.line("{not json");
    validator.line(V2_INIT_REQUEST);
    // Nothing is judged yet: the version is not known.
    expect(problems).toEqual([]);
    validator.line(V2_INIT_RESPONSE);
    // The held lines were checked, as v2: the v2 initialize request is valid, the garbage is not.
    expect(problems.map((p) => p.line)).toEqual([1]);
    validator.line(PROMPT);
    validator.line(BAD_STOP);
    expect([...new Set(problems.map((p) => p.line))]).toEqual([1, 5]);
    expect(validator.end()).toMatchObject({ protocolVersion: 2, versionSource: "initialize-response", problemCount: problems.length });
  });

  it("stops holding past lookaheadChars and goes on with what it saw (here: nothing, so v1)", () => {
    const { validator, problems } = collect("auto", { lookaheadChars: 400 });
    validator.line(PROMPT); // 117 characters and 256 for its record: still held
    expect(problems).toEqual([]);
    validator.line(BAD_STOP);
    expect(problems.length).toBeGreaterThan(0); // past 400: checked, as v1
    expect(problems[0]).toMatchObject({ line: 2, path: "/stopReason" });
    validator.line(V2_INIT_REQUEST); // too late to change the version
    const summary = validator.end();
    expect(summary.protocolVersion).toBe(1);
    expect(summary.versionSource).toBe("default");
    expect(VERSION_LOOKAHEAD_CHARS).toBe(4 * 1024 * 1024);
  });

  it("takes the offered version when the transcript has an initialize request and no response", () => {
    const { validator } = collect("auto");
    validator.line(V2_INIT_REQUEST);
    expect(validator.end()).toMatchObject({
      protocolVersion: 2,
      versionSource: "initialize-request",
      warnings: [expect.objectContaining({ line: 1, method: "initialize" })],
    });
  });

  it("counts lines that are not JSON against the lookahead too, so garbage is not held to the end", () => {
    const { validator, problems } = collect("auto", { lookaheadChars: 3900 });
    // Each "x" costs 1 + 256: fifteen are 3855, still held; the sixteenth passes 3900.
    for (let i = 0; i < 15; i++) validator.line("x");
    expect(problems).toEqual([]);
    validator.line("x");
    expect(problems.map((p) => p.line)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    validator.line("x");
    expect(problems).toHaveLength(17);
  });

  it("counts a line it could not read as a line and a problem", () => {
    const { validator, problems } = collect(1);
    validator.line(PROMPT);
    validator.unreadable("not checked: the line is too long");
    validator.line('{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}');
    expect(problems).toEqual([{ line: 2, method: "", path: "", message: "not checked: the line is too long" }]);
    expect(validator.end()).toMatchObject({ valid: false, messages: 2, problemCount: 1, warnings: [] });
  });

  it("keeps at most maxOpenRequests open; past it, answers that match nothing are not blamed", () => {
    const { validator, problems } = collect(1, { maxOpenRequests: 2 });
    // Extension requests are tracked like any other, without schema noise.
    const ext = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"_x/${id}","params":{}}`;
    const answer = (id: number) => `{"jsonrpc":"2.0","id":${id},"result":{}}`;
    validator.line(ext(1));
    validator.line(ext(2));
    validator.line(ext(3)); // line 3: a third open request is not tracked
    validator.line(answer(3)); // answers the untracked request: no problem
    validator.line(answer(1));
    validator.line(ext(4)); // room again: tracked
    const summary = validator.end();
    expect(problems).toEqual([]);
    expect(summary.valid).toBe(true);
    expect(summary.warnings.map((w) => [w.line, w.method])).toEqual([
      [2, "_x/2"],
      [3, ""],
      [6, "_x/4"],
    ]);
    expect(summary.warnings[1]!.message).toContain("2 requests were open at once, the most tracked");
  });

  it("without the cap being reached, an answer to no request is still a problem", () => {
    const { validator, problems } = collect(1, { maxOpenRequests: 2 });
    validator.line('{"jsonrpc":"2.0","id":9,"result":{}}');
    expect(problems).toEqual([{ line: 1, method: "", path: "/id", message: "response to id 9 matches no open request" }]);
  });

  it("with strict, unanswered requests are problems handed over at end()", () => {
    const { validator, problems } = collect(1, { strict: true });
    validator.line(PROMPT);
    expect(problems).toEqual([]);
    const summary = validator.end();
    expect(problems).toEqual([{ line: 1, method: "session/prompt", path: "", message: "request never answered in this transcript" }]);
    expect(summary).toMatchObject({ valid: false, problemCount: 1, warnings: [] });
  });

  it("refuses a bad protocol, a missing callback, and use after end()", () => {
    expect(() => new TranscriptLineValidator(3 as 1, {}, () => {})).toThrow(/protocol must be 1, 2, "v2-later" or "auto", got 3/);
    expect(() => new TranscriptLineValidator(1, {}, undefined as unknown as () => void)).toThrow(/onProblem must be a function/);
    const { validator } = collect(1);
    expect(() => validator.line(Buffer.from("{}") as unknown as string)).toThrow("TranscriptLineValidator.line: text must be a string, got object");
    expect(() => validator.unreadable(undefined as unknown as string)).toThrow("TranscriptLineValidator.unreadable: reason must be a string, got undefined");
    validator.end();
    expect(() => validator.line("{}")).toThrow(/end\(\) was already called/);
    expect(() => validator.end()).toThrow(/end\(\) was already called/);
  });
});

describe("validateTranscript on top of it", () => {
  it("names a text that is not a string and a protocol it does not know", () => {
    expect(() => validateTranscript(undefined as unknown as string)).toThrow("validateTranscript: text must be a string, got undefined");
    expect(() => validateTranscript("", 3 as 1)).toThrow(/protocol must be 1, 2, "v2-later" or "auto", got 3/);
  });

  it("reads the version from the whole text, however far in the initialize exchange is", () => {
    const filler = Array.from({ length: 50 }, () => "");
    const report = validateTranscript([PROMPT, ...filler, V2_INIT_REQUEST, V2_INIT_RESPONSE, BAD_STOP].join("\n"));
    expect(report.protocolVersion).toBe(2);
    expect(report.versionSource).toBe("initialize-response");
    expect(report.problems.length).toBeGreaterThan(0);
    expect(new Set(report.problems.map((p) => `${p.line} ${p.path}`))).toEqual(new Set(["54 /stopReason"]));
  });

  it("with strict, sorts the unanswered requests among the problems by line", () => {
    const report = validateTranscript(
      [PROMPT, "{bad", '{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}'].join("\n"),
      1,
      { strict: true },
    );
    expect(report.problems.map((p) => [p.line, p.message.slice(0, 15)])).toEqual([
      [1, "request never a"],
      [2, "not valid JSON "],
      [3, "request never a"],
    ]);
    expect(report.valid).toBe(false);
  });
});

describe("a client that offers again in another dialect on the same connection", () => {
  // acpkit's dialect retry (docs/protocol.md A11): the pinned v2 offer refused, the later draft's accepted.
  const lines = [
    '→ {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
    '← {"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Invalid params"}}',
    '→ {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}',
    '← {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":2,"info":{"name":"a","version":"1"}}}',
    '→ {"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/p"}}',
    '← {"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}',
  ].join("\n");

  it("read from the transcript: each initialize is judged in the dialect it names, the rest in the later draft", () => {
    const report = validateTranscript(lines);
    expect(report).toMatchObject({ valid: true, schemaVersion: "v2-later", problems: [] });
  });

  it("with a version given, everything is judged by it: the pinned offer is not the later draft's", () => {
    const report = validateTranscript(lines, "v2-later");
    expect(report.problems).toEqual([expect.objectContaining({ line: 1, method: "initialize", message: "must have required property 'info'" })]);
  });
});
