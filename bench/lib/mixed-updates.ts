// The `validate` scenario's input: a deterministic mix of v1 `session/update` params in roughly the
// proportions a real turn produces (mostly chunks, then tool calls), each valid under the v1 schema.
import { SESSION_ID, chunkText } from "./fixtures.mjs";

type Update = Record<string, unknown> & { sessionUpdate: string };

const BUILDERS: Array<{ weight: number; build(i: number): Update }> = [
  { weight: 40, build: (i) => ({ sessionUpdate: "agent_message_chunk", messageId: `m-${i >> 6}`, content: { type: "text", text: chunkText(i) } }) },
  { weight: 15, build: (i) => ({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: chunkText(i) } }) },
  {
    weight: 5,
    build: (i) => ({
      sessionUpdate: "user_message_chunk",
      content: { type: "resource_link", uri: `file:///repo/src/file-${i}.ts`, name: `file-${i}.ts`, mimeType: "text/x-typescript" },
    }),
  },
  {
    weight: 10,
    build: (i) => ({
      sessionUpdate: "tool_call",
      toolCallId: `call-${i}`,
      title: `Read src/file-${i}.ts`,
      kind: "read",
      status: "pending",
      locations: [{ path: `/repo/src/file-${i}.ts`, line: i % 300 }],
      rawInput: { path: `/repo/src/file-${i}.ts` },
    }),
  },
  {
    weight: 20,
    build: (i) => ({
      sessionUpdate: "tool_call_update",
      toolCallId: `call-${i - 1}`,
      status: i % 3 === 0 ? "completed" : "in_progress",
      content: [
        { type: "content", content: { type: "text", text: chunkText(i) } },
        { type: "diff", path: `/repo/src/file-${i}.ts`, oldText: "let a = 1;", newText: "const a = 1;" },
      ],
    }),
  },
  {
    weight: 5,
    build: (i) => ({
      sessionUpdate: "plan",
      entries: [
        { content: `Investigate issue ${i}`, priority: "high", status: "completed" },
        { content: "Write the fix", priority: "medium", status: "in_progress" },
        { content: "Add a regression test", priority: "low", status: "pending" },
      ],
    }),
  },
  {
    weight: 3,
    build: () => ({
      sessionUpdate: "available_commands_update",
      availableCommands: [
        { name: "web", description: "Search the web", input: { hint: "query" } },
        { name: "test", description: "Run the tests" },
      ],
    }),
  },
  { weight: 2, build: (i) => ({ sessionUpdate: "usage_update", used: 1000 + i, size: 200_000 }) },
];

const TOTAL_WEIGHT = BUILDERS.reduce((sum, b) => sum + b.weight, 0);

/** `count` session/update params; the same sequence every time. */
export function mixedSessionUpdates(count: number): Array<{ sessionId: string; update: Update }> {
  const result = [];
  for (let i = 0; i < count; i++) {
    // A multiplicative hash spreads the kinds evenly without a random generator.
    let slot = (i * 2654435761) % TOTAL_WEIGHT;
    let builder = BUILDERS[0]!;
    for (const candidate of BUILDERS) {
      if (slot < candidate.weight) {
        builder = candidate;
        break;
      }
      slot -= candidate.weight;
    }
    result.push({ sessionId: SESSION_ID, update: builder.build(i) });
  }
  return result;
}
