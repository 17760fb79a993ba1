// `pnpm bench:validate`: validations per second of @acpkit/schema (the BUILT package) over a
// corpus of 10,000 mixed `session/update` params, for v1 and v2. A benchmark, not a test: it
// prints figures and fails only if a valid params is rejected or an invalid one accepted.
import { checkOutgoing, validateParams, type ProtocolVersion } from "@acpkit/schema";

const CORPUS_SIZE = 10_000;
const MIN_SECONDS = 1;

type Update = Record<string, unknown>;

/** Deterministic xorshift so every run measures the same corpus. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

const text = (i: number) => ({ type: "text", text: `chunk ${i}: the quick brown fox jumps over the lazy dog` });
const diff = (i: number) => ({ type: "diff", path: `/repo/src/file-${i}.ts`, oldText: "let a = 1;", newText: "const a = 1;" });
const entries = (i: number) => [
  { content: `step ${i}`, priority: "high", status: "completed" },
  { content: `step ${i + 1}`, priority: "medium", status: "in_progress" },
];

/** Weighted like a real turn: mostly message chunks, then tool calls, the occasional plan/usage update. */
const BUILDERS: Record<ProtocolVersion, Array<[weight: number, build: (i: number) => Update]>> = {
  1: [
    [45, (i) => ({ sessionUpdate: "agent_message_chunk", content: text(i) })],
    [15, (i) => ({ sessionUpdate: "agent_thought_chunk", content: text(i) })],
    [
      10,
      (i) => ({
        sessionUpdate: "tool_call",
        toolCallId: `c${i}`,
        title: "Read file",
        kind: "read",
        status: "pending",
        locations: [{ path: `/repo/f${i}.ts`, line: 3 }],
      }),
    ],
    [20, (i) => ({ sessionUpdate: "tool_call_update", toolCallId: `c${i}`, status: "completed", content: [{ type: "content", content: text(i) }, diff(i)] })],
    [5, (i) => ({ sessionUpdate: "plan", entries: entries(i) })],
    [5, (i) => ({ sessionUpdate: "usage_update", used: 1000 + i, size: 200_000, cost: { amount: 0.01, currency: "USD" } })],
  ],
  2: [
    [45, (i) => ({ sessionUpdate: "agent_message_chunk", messageId: `m${i >> 5}`, content: text(i) })],
    [10, (i) => ({ sessionUpdate: "agent_thought_chunk", messageId: `t${i >> 5}`, content: text(i) })],
    [5, (i) => ({ sessionUpdate: "agent_message", messageId: `m${i}`, content: [text(i)] })],
    [20, (i) => ({ sessionUpdate: "tool_call_update", toolCallId: `c${i}`, title: "Edit file", kind: "edit", status: "in_progress", content: [diff(i)] })],
    [10, (i) => ({ sessionUpdate: "tool_call_content_chunk", toolCallId: `c${i}`, content: { type: "content", content: text(i) } })],
    [5, (i) => ({ sessionUpdate: "plan_update", plan: { type: "items", id: `p${i % 3}`, entries: entries(i) } })],
    [3, (i) => ({ sessionUpdate: "usage_update", used: 1000 + i, size: 200_000 })],
    [2, (i) => ({ sessionUpdate: "_acme/progress", percent: i % 100 })],
  ],
};

function corpus(version: ProtocolVersion): Update[] {
  const builders = BUILDERS[version];
  const total = builders.reduce((sum, [weight]) => sum + weight, 0);
  const next = random(version * 7919);
  const params: Update[] = [];
  for (let i = 0; i < CORPUS_SIZE; i++) {
    let pick = next() * total;
    const [, build] = builders.find(([weight]) => (pick -= weight) < 0) ?? builders[0]!;
    params.push({ sessionId: "sess_bench", update: build(i) });
  }
  return params;
}

/** Runs `validate` over the corpus until MIN_SECONDS passed (after one warm-up pass). */
function measure(label: string, params: Update[], validate: (params: unknown) => boolean): void {
  const pass = () => {
    for (let i = 0; i < params.length; i++) {
      if (!validate(params[i])) throw new Error(`${label}: rejected valid params #${i}: ${JSON.stringify(params[i])}`);
    }
  };
  pass();
  let passes = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    pass();
    passes++;
    elapsed = (performance.now() - start) / 1000;
  } while (elapsed < MIN_SECONDS);
  const perSecond = (passes * params.length) / elapsed;
  console.log(`${label.padEnd(40)} ${Math.round(perSecond).toLocaleString("en-US").padStart(12)} validations/s`);
}

function main(): void {
  console.log(`@acpkit/schema: ${CORPUS_SIZE.toLocaleString("en-US")} mixed session/update params per version (Node ${process.version})`);
  for (const version of [1, 2] as const) {
    const params = corpus(version);
    const broken = { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text" } } };
    if (validateParams(version, "session/update", broken).valid) throw new Error(`v${version} accepted a text chunk without text`);
    measure(`v${version} validateParams`, params, (p) => validateParams(version, "session/update", p).valid);
    measure(`v${version} checkOutgoing (schema + conformance)`, params, (p) => checkOutgoing(version, "session/update", "params", p).valid);
  }
}

main();
