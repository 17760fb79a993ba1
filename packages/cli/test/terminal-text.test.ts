// Text a peer chose never reaches the terminal with control characters a terminal would act on
// (src/terminal-text.ts): unit rules, then through the real binary with a hostile transcript and a
// hostile agent.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CommandIO } from "../src/io.js";
import { createStyle, STYLE_NAMES, type Style } from "../src/style.js";
import { escapeTerminalControls, guardTerminalIO, guardTerminalStream } from "../src/terminal-text.js";
import { BIN, runCli } from "./support/cli.js";

/** Control characters a terminal acts on, other than our styling's SGR codes; newline and tab are text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this test looks for
const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: our styling's escape sequences
const STYLING = /\u001b\[(?:1|2|22|3[1-6]|39)m/g;

function withoutStyling(text: string): string {
  return text.replace(STYLING, "");
}

describe("escapeTerminalControls", () => {
  it("writes escape sequences, carriage returns, U+0080-U+009F and bidi controls as visible \\u escapes", () => {
    expect(escapeTerminalControls("\u001b]52;c;cHduZWQ=\u0007")).toBe("\\u001b]52;c;cHduZWQ=\\u0007");
    expect(escapeTerminalControls("\u001b[2J\u001b[1A")).toBe("\\u001b[2J\\u001b[1A");
    expect(escapeTerminalControls("done\rfake")).toBe("done\\u000dfake");
    expect(escapeTerminalControls("\u009b31m\u0085\u007f")).toBe("\\u009b31m\\u0085\\u007f");
    expect(escapeTerminalControls("a\u202eb\u2066c\u0000")).toBe("a\\u202eb\\u2066c\\u0000");
  });

  it("keeps newlines, tabs and ordinary Unicode, and escapes every escape sequence, SGR codes included", () => {
    expect(escapeTerminalControls("héllo — 世界 🙂\n\t")).toBe("héllo — 世界 🙂\n\t");
    expect(escapeTerminalControls("\u001b[31mred\u001b[39m \u001b[8mhidden")).toBe("\\u001b[31mred\\u001b[39m \\u001b[8mhidden");
  });

  it("leaves a JSON document the same document", () => {
    const value = { text: "a\u0085b\u007fc\u001bd\u202e", n: 1 };
    expect(JSON.parse(escapeTerminalControls(JSON.stringify(value)))).toEqual(value);
  });
});

/** A stream that keeps what reaches it, as a terminal (`isTTY`) or not. */
function recordingSink(isTTY: boolean): { stream: PassThrough & { isTTY: boolean }; written: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let written = "";
  stream.setEncoding("utf8").on("data", (text: string) => (written += text));
  return { stream, written: () => written };
}

describe("guardTerminalStream", () => {
  it("escapes what is written, strings and bytes, and forwards everything else to the stream", async () => {
    const sink = recordingSink(false);
    const guarded = guardTerminalStream(sink.stream);
    expect(guarded.write("one\u001b[2K\n")).toBe(true);
    guarded.write(Buffer.from("two\r\n"));
    let called = false;
    guarded.write("three\n", () => (called = true));
    await new Promise((resolve) => guarded.end(resolve));
    expect(sink.written()).toBe("one\\u001b[2K\ntwo\\u000d\nthree\n");
    expect(called).toBe(true);
    expect(guarded.writableEnded).toBe(true);
  });

  it("lets the guarded IO's own styling through and nothing of the same kind inside a peer's text", async () => {
    const out = recordingSink(true);
    const err = recordingSink(false);
    const io: CommandIO = { stdin: new PassThrough(), stdout: out.stream, stderr: err.stream, out: createStyle(true), err: createStyle(false), cwd: "/" };
    const guarded = guardTerminalIO(io);
    const peer = "\u001b[31mfake error\u001b[39m";
    for (const name of STYLE_NAMES) guarded.stdout.write(`${guarded.out[name](`${name} ${peer}`)}\n`);
    guarded.stderr.write(`${guarded.err.red(peer)}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    const expected = STYLE_NAMES.map((name) => `${io.out[name](`${name} \\u001b[31mfake error\\u001b[39m`)}\n`).join("");
    expect(out.written()).toBe(expected);
    expect(out.written()).toContain("\u001b[31mred \\u001b[31mfake error\\u001b[39m\u001b[39m\n");
    expect(err.written()).toBe("\\u001b[31mfake error\\u001b[39m\n");
  });

  it("escapes the sequences of a style that does not wrap its text verbatim", async () => {
    const sink = recordingSink(true);
    const shouting: Style = { ...createStyle(true), bold: (text) => `\u001b[1m${text.toUpperCase()}\u001b[22m` };
    const guarded = guardTerminalIO({ stdin: new PassThrough(), stdout: sink.stream, stderr: sink.stream, out: shouting, err: shouting, cwd: "/" });
    guarded.stdout.write(guarded.out.bold("loud"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sink.written()).toBe("\\u001b[1mLOUD\\u001b[22m");
  });
});

describe("through the binary", () => {
  it("acpkit validate prints a hostile transcript's lines with their control characters escaped", async () => {
    const dir = mkdtempSync(join(tmpdir(), "acpkit-terminal-"));
    const file = join(dir, "hostile.ndjson");
    const lines = [
      JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }),
      "\u001b]52;c;cHduZWQ=\u0007\u001b[2J\rall good",
      JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "x\u0085\u202e" } } }),
    ];
    writeFileSync(file, `${lines.join("\n")}\n`);
    const { code, stdout } = await runCli(["validate", file], { env: { FORCE_COLOR: "1" } });
    expect(code).toBe(1);
    expect(stdout).toContain("line 2: not valid JSON");
    expect(stdout).toContain("\\u001b]52;c;");
    expect(stdout).toContain("\\u0085\\u202e");
    expect(stdout).toContain("\u001b[31m"); // our own red is kept
    expect(withoutStyling(stdout)).not.toMatch(ACTING);
  });

  it("acpkit run prints an agent's message, thought and tool title with their control characters escaped, SGR codes included", async () => {
    const dir = mkdtempSync(join(tmpdir(), "acpkit-terminal-"));
    const script = join(dir, "script.json");
    writeFileSync(
      script,
      JSON.stringify({
        steps: [
          { message: "thinking\u001b[1A\u001b[2K", kind: "thought" },
          { update: { sessionUpdate: "tool_call_update", toolCallId: "t1", title: "Read \u001b]0;pwned\u0007", kind: "read", status: "completed" } },
          { message: "done\rEVERYTHING IS FINE \u202egnp.exe" },
          { message: "\u001b[32m✔ all checks passed\u001b[39m" },
        ],
      }),
    );
    const { code, stdout, stderr } = await runCli(["run", "--prompt", "hi", "--", process.execPath, BIN, "agent", "--script", script], {
      env: { FORCE_COLOR: "1" },
    });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    // Even the SGR codes our own styling uses stay text inside the agent's message; ours are kept.
    expect(stdout).toContain("\\u001b[32m✔ all checks passed\\u001b[39m");
    expect(stdout).not.toContain("\u001b[32m✔ all checks passed");
    expect(stdout).toMatch(STYLING);
    expect(stdout).toContain("thinking\\u001b[1A\\u001b[2K");
    expect(stdout).toContain("Read \\u001b]0;pwned\\u0007");
    expect(stdout).toContain("done\\u000dEVERYTHING IS FINE \\u202egnp.exe");
    expect(withoutStyling(stdout)).not.toMatch(ACTING);
  });
});
