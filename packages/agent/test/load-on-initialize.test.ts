// The agent loads only the validators of the version `initialize` negotiates, and holds what
// arrives behind that `initialize` until they are loaded: in a fresh process (the other tests'
// setup loads both versions), the answers to the same pipelined messages are identical to those of
// an agent with both versions preloaded, and only the negotiated version ends up loaded.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const PROBE = fileURLToPath(new URL("fixtures/lazy-agent-probe.mjs", import.meta.url));
const BLOCKED_BRIDGE_PROBE = fileURLToPath(new URL("fixtures/blocked-bridge-probe.mjs", import.meta.url));
const BLOCK_BRIDGE_HOOK = fileURLToPath(new URL("fixtures/block-bridge-hook.mjs", import.meta.url));

interface Report {
  loadedBefore: number[];
  loadedAfter: number[];
  answers: Array<Record<string, unknown>>;
}

async function probe(messages: unknown[], preload: boolean): Promise<Report> {
  expect(existsSync(PROBE)).toBe(true);
  const { stdout } = await promisify(execFile)(process.execPath, [PROBE], {
    env: { ...process.env, MESSAGES: JSON.stringify(messages), PRELOAD: preload ? "1" : "0" },
  });
  return JSON.parse(stdout) as Report;
}

const initialize = (id: number, protocolVersion: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, clientCapabilities: {} },
});
const newSession = (id: number) => ({ jsonrpc: "2.0", id, method: "session/new", params: { cwd: "/", mcpServers: [] } });

describe("validators are loaded for the version initialize negotiates", () => {
  for (const version of [1, 2]) {
    it(`a v${version} client: only v${version} loads, and pipelined messages get the preloaded agent's answers`, async () => {
      const messages = [initialize(1, version), newSession(2), { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "none" } }, newSession(3)];
      const [lazy, preloaded] = await Promise.all([probe(messages, false), probe(messages, true)]);
      expect(lazy.loadedBefore).toEqual([]);
      expect(preloaded.loadedBefore).toEqual([1, 2]);
      expect(lazy.loadedAfter).toEqual([version]);
      expect(lazy.answers.map((answer) => answer.id)).toEqual([1, 2, 3]);
      expect(lazy.answers[0]).toEqual({ id: 1, result: expect.arrayContaining(["protocolVersion"]) });
      expect(lazy.answers).toEqual(preloaded.answers);
    });
  }

  it("an initialize that fails negotiation loads nothing; the retry loads its version", async () => {
    const messages = [initialize(1, "two"), initialize(2, 1), newSession(3)];
    const lazy = await probe(messages, false);
    expect(lazy.answers[0]).toEqual({ id: 1, error: -32602 });
    expect(lazy.answers[1]).toEqual({ id: 2, result: expect.arrayContaining(["protocolVersion"]) });
    expect(lazy.loadedAfter).toEqual([1]);
    expect(lazy.answers).toEqual((await probe(messages, true)).answers);
  });

  it("a version the agent does not speak negotiates to its latest, which is what loads", async () => {
    const lazy = await probe([initialize(1, 7), newSession(2)], false);
    expect(lazy.answers[0]).toEqual({ id: 1, result: expect.arrayContaining(["protocolVersion"]) });
    expect(lazy.loadedAfter).toEqual([2]);
  });
});

describe("initialize needs only the validators; the v1 bridge loads after it is answered", () => {
  it("with the bridge unloadable, a v1 initialize is still answered, then the connection closes naming the failed load and session/new is never answered", async () => {
    for (const file of [BLOCKED_BRIDGE_PROBE, BLOCK_BRIDGE_HOOK]) expect(existsSync(file)).toBe(true);
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", BLOCK_BRIDGE_HOOK, BLOCKED_BRIDGE_PROBE]);
    const report = JSON.parse(stdout) as { answers: Array<Record<string, unknown>>; reason: string };
    expect(report.answers).toEqual([{ id: 1, result: expect.arrayContaining(["protocolVersion", "agentCapabilities"]) }]);
    expect(report.reason).toMatch(/protocol v1 support \(validators, bridge\) could not be loaded: .*blocked by the test/);
  });
});
