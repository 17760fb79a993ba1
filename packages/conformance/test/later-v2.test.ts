// The later v2 draft's requirements (LATER-*, docs/protocol.md §12), judged against a from-scratch
// agent that follows the draft (fixtures/later-defects-agent.mjs) with one defect per flag, so each
// requirement is shown able to fail; and against an agent built with the official SDK 2.4.0's
// protocol router (v1 + its v2), which must get a verdict with no harness error.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type AgentCheckReport, checkAgent } from "../src/index.js";

const defects = fileURLToPath(new URL("./fixtures/later-defects-agent.mjs", import.meta.url));
const sdkAgent = fileURLToPath(new URL("../../../test-support/fixtures/sdk-later-v2-agent.mjs", import.meta.url));

const statusOf = (report: AgentCheckReport, id: string) => report.results.find((result) => result.id === id)?.status;
const failed = (report: AgentCheckReport) => report.results.filter((result) => result.status === "fail").map((result) => result.id);

function check(args: string[], command = defects): Promise<AgentCheckReport> {
  return checkAgent({ command: process.execPath, args: [command, ...args] }, { protocol: 2, timeoutMs: 5000 });
}

const LATER_IDS = ["LATER-INIT-001", "LATER-INIT-002", "LATER-INIT-003", "LATER-RPC-001", "LATER-PROMPT-001", "LATER-CANCEL-001", "LATER-TOOL-001"];

// Concurrent: each check spends most of its time waiting on the fixture's 5 s turns, not on the CPU.
describe.concurrent("the LATER-* requirements", () => {
  it("an agent that follows the later draft passes every one it can judge, and the pinned-shape groups are not_applicable", async () => {
    const report = await check([]);
    expect(failed(report)).toEqual([]);
    expect(report.verdict).toBe("conformant");
    for (const id of LATER_IDS) expect(statusOf(report, id), id).toBe("pass");
    expect(statusOf(report, "LATER-AUTH-001")).toBe("not_applicable");
    expect(statusOf(report, "ACP-PROMPT-001")).toBe("not_applicable");
    expect(report.agent).toEqual({ name: "later-defects-agent", version: "1.0.0" });
  });

  it.each([
    ["--echo-version", "LATER-INIT-002"],
    ["--close-after-refusal", "LATER-INIT-003"],
    ["--batches", "LATER-RPC-001"],
    ["--stop-in-response", "LATER-PROMPT-001"], // (LATER-CANCEL-001 is then skipped: no later turn to cancel)
    ["--ignore-cancel", "LATER-CANCEL-001"],
    ["--no-tool-cancel", "LATER-TOOL-001"],
    ["--no-login", "LATER-AUTH-001"],
  ])("the defect %s fails %s", async (flag, id) => {
    const report = await check([flag]);
    expect(statusOf(report, id)).toBe("fail");
    expect(report.verdict).toBe("not_conformant");
  });

  it("an agent that answers the prompt with a stop reason, after an update, runs no later turn: the cancel checks are not judged on it", async () => {
    const report = await check(["--stop-in-response"]);
    expect(statusOf(report, "LATER-TOOL-001")).toBe("not_applicable");
    expect(statusOf(report, "LATER-CANCEL-001")).toBe("skip");
    expect(report.results.find((result) => result.id === "LATER-CANCEL-001")?.message).toMatch(/no later turn ran/);
  });

  it("an agent on the official SDK's protocol router (v1 + its v2) gets a verdict with no harness error: conformant", async () => {
    // The fixture's echo turn thinks up to 5 s (cut short by session/cancel), so the cancel check finds a turn running.
    const report = await check(["--think-ms", "5000"], sdkAgent);
    expect(failed(report)).toEqual([]);
    expect(report.verdict).toBe("conformant");
    for (const id of ["LATER-INIT-001", "LATER-INIT-002", "LATER-INIT-003", "LATER-RPC-001", "LATER-PROMPT-001", "LATER-CANCEL-001"])
      expect(statusOf(report, id), id).toBe("pass");
    expect(report.agent).toEqual({ name: "sdk-later-v2-agent", version: "2.4.0" });
  });

  it("acpkit's own agent, offered only the later draft (v2Dialect later), passes all eight, cancelling one tool call of '/cancellable 5'", async () => {
    const builtin = fileURLToPath(new URL("./fixtures/builtin-agent-stdio.mjs", import.meta.url));
    const report = await checkAgent(
      { command: process.execPath, args: [builtin] },
      { protocol: 2, v2Dialect: "later", prompt: "/cancellable 5", timeoutMs: 5000 },
    );
    expect(failed(report)).toEqual([]);
    for (const id of [...LATER_IDS, "LATER-AUTH-001"]) expect(statusOf(report, id), id).toBe("pass");
    expect(report.verdict).toBe("conformant");
  });

  it("a v1 check judges none of them", async () => {
    const report = await checkAgent({ command: process.execPath, args: [sdkAgent] }, { protocol: 1, timeoutMs: 5000 });
    for (const id of [...LATER_IDS, "LATER-AUTH-001"]) expect(statusOf(report, id), id).toBe("not_applicable");
  });
});
