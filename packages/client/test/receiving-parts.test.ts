// An agent and a client that do not check what they send (validateOutgoing: false, the production
// default) load only their side's part of the negotiated version's validators, and a turn that uses
// every kind of message the version carries in both directions still validates and works: no
// diagnostics on either side. Run in a fresh process: the other tests' setup loads everything.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const PROBE = fileURLToPath(new URL("fixtures/receiving-parts-probe.mjs", import.meta.url));

async function probe(version: number) {
  expect(existsSync(PROBE)).toBe(true);
  const { stdout } = await promisify(execFile)(process.execPath, [PROBE], { env: { ...process.env, VERSION: String(version) } });
  return JSON.parse(stdout) as Record<string, unknown>;
}

const nothing = { all: false, agentPart: false, clientPart: false };
const parts = { all: false, agentPart: true, clientPart: true };

describe("each side loads only the validators of what it receives", () => {
  it("v1: permission, fs, terminal and elicitation round trips, modes and every update kind", async () => {
    const report = await probe(1);
    expect(report).toEqual({
      atStart: nothing,
      agentDiagnostics: [],
      clientDiagnostics: [],
      agentSaw: {
        permission: { outcome: "selected", optionId: "allow" },
        file: "file text",
        exit: { exitCode: 0, signal: null },
        output: "hi\n",
        form: { action: "accept", content: { name: "Ada" } },
      },
      negotiated: 1,
      written: "written",
      stopReason: "end_turn",
      kinds: ["user_message", "agent_thought", "agent_message"],
      text: ["hello world"],
      toolCallStatus: ["completed"],
      afterTurn: parts,
    });
  });

  it("v2: permission round trip and every update kind", async () => {
    const report = await probe(2);
    expect(report).toEqual({
      atStart: nothing,
      agentDiagnostics: [],
      clientDiagnostics: [],
      agentSaw: { permission: { outcome: "selected", optionId: "allow" } },
      negotiated: 2,
      stopReason: "end_turn",
      kinds: ["user_message", "agent_thought", "agent_message"],
      text: ["hello world"],
      toolCallStatus: ["completed"],
      afterTurn: parts,
    });
  });
});
