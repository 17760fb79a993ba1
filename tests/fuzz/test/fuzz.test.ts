// The fuzz suite in CI: 20,000 seeded cases against the agent and 20,000 against the client, split
// over the memory and stdio channels and protocol v1 and v2, every answer checked by the oracle.
// `pnpm fuzz --cases N --seed S` runs more; a failure names its seed and case.
import { describe, expect, it } from "vitest";
import { expectationFor } from "../src/oracle.js";
import { type Answer, checkBatch, type FuzzReport, fuzzAgentSide, fuzzClientSide } from "../src/run.js";
import { agentServed } from "../src/traffic.js";

const SEED = 20261123;
const PER_RUN = 5_000;
const RUNS = [
  { channel: "memory", version: 1 },
  { channel: "memory", version: 2 },
  { channel: "stdio", version: 1 },
  { channel: "stdio", version: 2 },
] as const;

function expectClean(report: FuzzReport): void {
  expect(report.cases).toBe(PER_RUN);
  expect(report.failures).toEqual([]);
  expect(report.unanswered).toBe(0);
  // The mutations reached every kind of answer, so the run did exercise the rules.
  for (const kind of ["-32700", "-32600", "-32601", "result"]) expect(report.answers[kind] ?? 0, `answers ${kind}`).toBeGreaterThan(0);
}

describe("the oracle catches a receiver that breaks the rules", () => {
  const served = agentServed(1);
  const batch = (lines: string[]) => lines.map((text, index) => ({ index, label: "test", expectation: expectationFor(text, 1, served) }));
  const report = (): FuzzReport => ({ options: {} as never, cases: 0, lines: 0, answers: {}, unanswered: 0, failures: [] });
  const sync = JSON.stringify("sync");

  it("an answered notification, a missing answer, a wrong code, an answer twice", () => {
    const lines = [
      '{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}',
      '{"jsonrpc":"2.0","id":"a","method":"nope/nope","params":{}}',
      '{"jsonrpc":"2.0","id":"b","method":"session/list","params":{}}',
      "{not json",
    ];
    const answers: Answer[] = [
      { id: null, code: -32600 }, // answering the notification (and no -32700 for the bad line)
      { id: "a", code: -32602 }, // unknown method answered as invalid params
      { id: "b", code: "result" },
      { id: "b", code: "result" },
    ];
    const problems = checkBatch(batch(lines), answers, sync, report());
    expect(problems).toEqual([
      'case 1 (test): id "a" answered -32602, expected -32601',
      'case 2 (test): id "b" answered twice',
      "case 3 (test): no -32700 answer with id null",
      "1 unexpected answer(s) with id null: -32600",
    ]);
  });

  it("-32603 is never a right answer, and an unanswered request is counted", () => {
    const r = report();
    const problems = checkBatch(
      batch(['{"jsonrpc":"2.0","id":7,"method":"session/new","params":{}}', '{"jsonrpc":"2.0","id":8,"method":"logout"}']),
      [{ id: 7, code: -32603 }],
      sync,
      r,
    );
    expect(problems).toEqual(["case 0 (test): id 7 answered -32603", "case 1 (test): id 8 was never answered"]);
    expect(r.unanswered).toBe(1);
  });

  it("reads v2 batches and v1 arrays the way JSON-RPC and docs/protocol.md §8.2 say", () => {
    expect(expectationFor('[{"jsonrpc":"2.0","id":1,"method":"x"}]', 1, served)).toMatchObject({ nullAnswers: [-32600], byId: [] });
    expect(expectationFor("[]", 2, agentServed(2))).toMatchObject({ nullAnswers: [-32600] });
    expect(expectationFor('[{"jsonrpc":"2.0","id":1,"method":"x"},[],{"jsonrpc":"2.0","method":"session/cancel"}]', 2, agentServed(2))).toMatchObject({
      batched: true,
      byId: [{ id: 1, code: -32601 }],
      nullAnswers: [-32600],
    });
    expect(expectationFor('{"jsonrpc":"2.0","id":1e309,"method":"logout"}', 1, served)).toMatchObject({ nullAnswers: [-32600], byId: [] });
  });
});

describe.each(RUNS)("fuzz: the agent over $channel, v$version", ({ channel, version }) => {
  it(`${PER_RUN} cases: every request answered once, as JSON-RPC and the method table say`, async () => {
    const from = RUNS.findIndex((run) => run.channel === channel && run.version === version) * PER_RUN;
    expectClean(await fuzzAgentSide({ side: "agent", channel, version, seed: SEED, from, cases: PER_RUN }));
  }, 120_000);
});

// The later v2 draft through its codec (docs/protocol.md §12): the same traffic plus that draft's
// own methods; arrays and null ids are refused (A6). Cases numbered after the four runs above.
describe.each(["memory", "stdio"] as const)("fuzz: the agent over %s, the later v2 draft", (channel) => {
  it(`${PER_RUN} cases: every request answered once, batches and null ids refused`, async () => {
    const from = (RUNS.length + (channel === "memory" ? 0 : 1)) * PER_RUN;
    expectClean(await fuzzAgentSide({ side: "agent", channel, version: 2, later: true, seed: SEED, from, cases: PER_RUN }));
  }, 120_000);
});

describe.each(RUNS)("fuzz: the client over $channel, v$version", ({ channel, version }) => {
  it(`${PER_RUN} cases: every agent request answered once, every prompt settled with a typed outcome`, async () => {
    const from = RUNS.findIndex((run) => run.channel === channel && run.version === version) * PER_RUN;
    const report = await fuzzClientSide({ side: "client", channel, version, seed: SEED, from, cases: PER_RUN });
    expectClean(report);
    expect(Object.values(report.turns ?? {}).reduce((a, b) => a + b, 0)).toBe(PER_RUN / 100);
  }, 120_000);
});

// The client in the later v2 draft: the same agent traffic plus the draft's own updates and
// permission subjects, and each batch's turn ended with a receipt and a fuzzed idle (A3, A5).
describe.each(["memory", "stdio"] as const)("fuzz: the client over %s, the later v2 draft", (channel) => {
  it(`${PER_RUN} cases: every agent request answered once, every prompt settled with a typed outcome`, async () => {
    const from = (RUNS.length + (channel === "memory" ? 0 : 1)) * PER_RUN;
    const report = await fuzzClientSide({ side: "client", channel, version: 2, later: true, seed: SEED, from, cases: PER_RUN });
    expectClean(report);
    expect(Object.values(report.turns ?? {}).reduce((a, b) => a + b, 0)).toBe(PER_RUN / 100);
  }, 120_000);
});
