// `acpkit demo` as `pnpm demo` runs it: the built-in agent as a real child process, one full turn
// per protocol version, printed as it streams.
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

/** Index of the first line matching `pattern` at or after `from`; -1 when none. */
function findLine(lines: readonly string[], pattern: RegExp, from = 0): number {
  for (let i = from; i < lines.length; i++) if (pattern.test(lines[i]!)) return i;
  return -1;
}

/** Asserts the events of one demo turn appear in this order in `lines`, starting at `from`. */
function expectTurnInOrder(lines: readonly string[], from: number, version: 1 | 2): number {
  const steps: RegExp[] = [
    new RegExp(`protocol v${version} negotiated \\(offered v${version}\\)`),
    /^› Say hello to the world$/,
    /^▸ plan$/,
    /^💭 The user asked/,
    /^🔧 tool call Edit hello\.txt \(edit\) pending$/,
    /^\? permission Edit hello\.txt \[Allow \| Reject\] → Allow \(auto\)$/,
    /^🔧 Edit hello\.txt → completed$/,
  ];
  if (version === 1) steps.push(/^🔧 tool call Read README\.md \(read\)/, /^📄 read \/.*\/README\.md \(\d+ bytes\)$/);
  else steps.push(/^💭 Skipping the file read: .*protocol v2 has no fs\/\* methods/);
  steps.push(/^Done\. You asked: "Say hello to the world"\./, /^usage \d+\/200000/, /^■ end_turn$/);
  let at = from;
  for (const step of steps) {
    const found = findLine(lines, step, at);
    expect(found, `expected a line matching ${step} after line ${at}:\n${lines.join("\n")}`).toBeGreaterThanOrEqual(0);
    at = found + 1;
  }
  return at;
}

describe.concurrent("acpkit demo", () => {
  it("runs v1 then v2 and says which version each negotiated", async () => {
    const { code, stdout, stderr } = await runCli(["demo"]);
    expect(code, stderr).toBe(0);
    const lines = stdout.split("\n");
    const v1 = findLine(lines, /offering protocol v1/);
    const v2 = findLine(lines, /offering protocol v2/);
    expect(v1).toBeGreaterThanOrEqual(0);
    expect(v2).toBeGreaterThan(v1);
    const v1End = expectTurnInOrder(lines, v1, 1);
    expect(v1End).toBeLessThanOrEqual(v2);
    expectTurnInOrder(lines, v2, 2);
    // v2 has no client file system: the only read is v1's.
    expect(lines.filter((line) => line.startsWith("📄 read"))).toHaveLength(1);
    expect(stdout).toContain("offered v1 → negotiated v1, end_turn");
    expect(stdout).toContain("offered v2 → negotiated v2, end_turn");
  });

  it("ends by saying which figures are simulated and what to run next", async () => {
    const { code, stdout } = await runCli(["demo", "--protocol", "1"]);
    expect(code).toBe(0);
    const tail = stdout.trimEnd().split("\n").slice(-2);
    expect(tail[0]).toMatch(/scripted: .*usage figures \(tokens, cost\) are simulated/);
    expect(tail[1]).toBe("Next: run a turn against your own agent with  npx @acpkit/cli run -- <your agent command>");
  });

  it("--protocol 2 runs only v2", async () => {
    const { code, stdout } = await runCli(["demo", "--protocol", "2"]);
    expect(code).toBe(0);
    expect(stdout).not.toContain("offering protocol v1");
    expectTurnInOrder(stdout.split("\n"), 0, 2);
  });

  it("is plain text when piped and colored when color is forced", async () => {
    const plain = await runCli(["demo", "--protocol", "1"]);
    expect(plain.stdout).not.toContain("\u001b[");
    const colored = await runCli(["demo", "--protocol", "1"], { env: { FORCE_COLOR: "1" } });
    expect(colored.code).toBe(0);
    expect(colored.stdout).toContain("\u001b[32m■ end_turn\u001b[39m");
  });

  it("rejects stray arguments with exit 2", async () => {
    const { code, stderr } = await runCli(["demo", "--protocol", "3"]);
    expect(code).toBe(2);
    expect(stderr).toContain("usage: acpkit demo");
  });
});
