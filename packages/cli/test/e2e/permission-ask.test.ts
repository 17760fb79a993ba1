// `--permission ask` needs a terminal. Node cannot open a pseudo-terminal by itself, so this test
// runs the CLI under util-linux `script`, which gives it one; it is skipped where that is missing.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BIN, BUILTIN_AGENT } from "../support/cli.js";

const SCRIPT = "/usr/bin/script";
const available = process.platform === "linux" && existsSync(SCRIPT);

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Run `acpkit args…` on a pseudo-terminal, typing `input`; resolves with everything the terminal showed. */
async function onTerminal(args: readonly string[], input: string): Promise<string> {
  const command = [process.execPath, BIN, ...args].map(shellQuote).join(" ");
  const child = execFile(SCRIPT, ["-qfec", `NO_COLOR=1 ${command}`, "/dev/null"], { encoding: "utf8" });
  child.stdin!.end(input);
  let output = "";
  child.stdout!.on("data", (text: string) => (output += text));
  const code = await new Promise<number | null>((resolve) => child.once("close", (exitCode: number | null) => resolve(exitCode)));
  expect(code, output).toBe(0);
  return output.replace(/\r\n/g, "\n");
}

describe.skipIf(!available)("acpkit run --permission ask", () => {
  it("lists the options and answers with the one typed; prompts come from the same terminal", async () => {
    const output = await onTerminal(["run", "--permission", "ask", "--json", "--", ...BUILTIN_AGENT], "/permission\n2\n");
    expect(output).toContain("? The agent asks permission: Edit hello.txt");
    expect(output).toContain("  1) Allow [allow_once]");
    expect(output).toContain("  2) Reject [reject_once]");
    // The terminal mixes stderr (the questions) with stdout; the JSON starts at the state object.
    const state = JSON.parse(output.slice(output.indexOf(`{\n  "sessionId"`)));
    expect(state.permissions[0].outcome).toEqual({ outcome: "selected", optionId: "reject" });
    expect(state.toolCalls[0].status).toBe("failed");
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
  });
});
