// `acpkit check agent` against from-scratch agents that behave like real ones (fixtures/field-agent.mjs):
// a login demand at any step blocks what it gates (not_tested, one reason) and makes the verdict
// inconclusive (exit 3), never conformant; a -32700 without an id is judged as the wrong answer it
// is; an agent slow to start gets its own limit for the first answer and is reported as slow.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCheck, runCli } from "../support/cli.js";

const FIELD_AGENT = [process.execPath, fileURLToPath(new URL("../fixtures/field-agent.mjs", import.meta.url))];
const check = (flags: string[], checkArgs: string[] = []) =>
  runCheck(["check", "agent", "--json", "--timeout", "1000", ...checkArgs, "--", ...FIELD_AGENT, ...flags]);

const SESSION_GATED = ["ACPKIT-SESSION-001", "ACP-PROMPT-001", "ACPKIT-UPDATE-001", "ACPKIT-ORDER-001", "ACP-CANCEL-001"];

describe.concurrent("acpkit check agent against field behaviours", () => {
  it("-32000 at session/new: every check it gates is not_tested with one reason naming the agent's words; inconclusive, exit 3", async () => {
    const { code, report, status } = await check(["--needs-login"]);
    expect(code).toBe(3);
    expect(report.verdict).toBe("inconclusive");
    expect(report.conformant).toBe(false);
    for (const id of SESSION_GATED) expect(status(id), id).toBe("not_tested");
    const reasons = new Set(report.results.filter((r: any) => SESSION_GATED.includes(r.id)).map((r: any) => r.message));
    expect([...reasons]).toEqual([
      'blocked by authentication: session/new answered -32000 "Gemini API key is missing or not configured." (run again with --auth METHOD_ID if the agent lists one)',
    ]);
    expect(report.inconclusive).toEqual([`${SESSION_GATED.join(", ")}: ${[...reasons][0]}`]);
    expect(report.results.filter((r: any) => r.status === "fail")).toEqual([]);
  });

  it("-32000 at the prompt is the same block, not a MUST failure", async () => {
    const { code, report, status } = await check(["--prompt-needs-login"]);
    expect(report.results.filter((r: any) => r.status === "fail")).toEqual([]);
    expect(status("ACPKIT-SESSION-001")).toBe("pass");
    for (const id of ["ACP-PROMPT-001", "ACPKIT-UPDATE-001", "ACPKIT-ORDER-001", "ACP-CANCEL-001"]) expect(status(id), id).toBe("not_tested");
    const prompt = report.results.find((r: any) => r.id === "ACP-PROMPT-001");
    expect(prompt.message).toBe(
      'blocked by authentication: session/prompt answered -32000 "Please run /login" (run again with --auth METHOD_ID if the agent lists one)',
    );
    expect(report.verdict).toBe("inconclusive");
    expect(code).toBe(3);
  });

  it("human output ends with the inconclusive verdict and its reasons", async () => {
    const result = await runCli(["check", "agent", "--timeout", "1000", "--", ...FIELD_AGENT, "--needs-login"]);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/inconclusive: no MUST requirement failed, but some were never judged\n {2}ACPKIT-SESSION-001, .*blocked by authentication/);
  });

  it("a -32700 answer without an id member fails ACPKIT-RPC-005 naming what is wrong with it", async () => {
    const { report, status } = await check(["--parse-error-no-id"]);
    expect(status("ACPKIT-RPC-005")).toBe("fail");
    const result = report.results.find((r: any) => r.id === "ACPKIT-RPC-005");
    expect(result.message).toContain(
      'a line that is not JSON was answered, but it has no "id" member (JSON-RPC requires "id": null when the id could not be read)',
    );
    expect(result.message).not.toContain("got no");
  });

  it("an agent slower to start than --timeout is still checked (its first answer has --start-timeout) and reported as slow", async () => {
    const { code, report, status } = await check(["--slow-start", "1500"]);
    expect(code, JSON.stringify(report)).not.toBe(2);
    expect(status("ACPKIT-INIT-001")).toBe("pass");
    const info = report.results.find((r: any) => r.id === "ACPKIT-INFO-AGENT");
    expect(info.message).toMatch(
      /slow to start: its first initialize took \d+ ms, more than --timeout 1000 ms \(the first answer may take --start-timeout 30000 ms\)/,
    );
  });

  it("--start-timeout shorter than the agent's start: exit 2, and the message says to raise it", async () => {
    const result = await runCli(["check", "agent", "--timeout", "1000", "--start-timeout", "300", "--", ...FIELD_AGENT, "--slow-start", "60000"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("initialize failed: no answer within 300 ms (an agent that is slow to start may need a longer --start-timeout)");
  });

  // Before @acpkit/conformance: a turn over before the cancel could be sent skipped ACP-CANCEL-001
  // and the agent was called conformant; a MUST never tested is not a pass.
  it("an agent whose turn ends at once is inconclusive: its cancel could not be tested", async () => {
    const { code, report } = await check([]);
    expect(report.verdict).toBe("inconclusive");
    expect(report.inconclusive).toEqual(["ACP-CANCEL-001: the turn ended before the cancel could be sent (use a longer --prompt)"]);
    expect(code).toBe(3);
  });

  it("a plain field agent with nothing wrong is conformant (the verdicts above are not the fixture's fault)", async () => {
    const { code, report } = await check(["--cancellable"]);
    expect(
      report.results.filter(
        (r: any) =>
          (r.tier === "MUST" || r.tier === "CAPABILITY") &&
          r.status !== "pass" &&
          r.status !== "skip" &&
          !(r.id.startsWith("LATER-") && r.status === "not_applicable"),
      ),
    ).toEqual([]);
    expect(report.verdict).toBe("conformant");
    expect(code).toBe(0);
  });
});
