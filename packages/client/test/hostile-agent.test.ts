// A hostile agent over a real child process: malformed lines, requests for features the client
// did not offer, ids it cannot answer under, a duplicate id, prototype names as methods, and a
// line over the size limit, all in the middle of a turn. The client answers every request exactly
// once (under its id, or under null when the id is unusable), reports the rest as diagnostics,
// keeps what was valid, and the turn still ends as the agent says.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectAgent } from "@acpkit/client";
import type { Diagnostic } from "@acpkit/core";
import { spawnAgent } from "@acpkit/transport-stdio";
import { afterEach, describe, expect, it } from "vitest";

const hostileAgent = fileURLToPath(new URL("fixtures/hostile-agent.mjs", import.meta.url));
const LIMIT = 256 * 1024;
let scratch: string | undefined;

afterEach(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

describe("a hostile agent mid-turn", () => {
  it("gets exactly one answer per request, the client keeps what was valid, and the turn ends as the agent says", async () => {
    scratch = mkdtempSync(join(tmpdir(), "acpkit-hostile-"));
    const summaryFile = join(scratch, "answers.json");
    const diagnostics: Diagnostic[] = [];
    const transport = spawnAgent(process.execPath, [hostileAgent, summaryFile, String(LIMIT + 1)], { stderr: "ignore", maxMessageSize: LIMIT });
    const agent = await connectAgent(transport, {
      onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
      // The question stays open a while, so the second request with its id arrives while it runs.
      requestPermission: () => new Promise((resolve) => setTimeout(() => resolve({ outcome: "cancelled" }), 200)),
    });
    const session = await agent.newSession({ cwd: "/work" });
    const outcome = await session.prompt("turn hostile");
    expect(outcome.stopReason).toBe("end_turn");
    const agentMessages = session.state.messages.filter((message) => message.kind === "agent_message");
    expect(agentMessages.flatMap((message) => message.content.map((block) => (block as { text?: string }).text))).toEqual(["ok"]);
    expect(session.state.toolCalls.find((call) => call.toolCallId === "t9")?.title).toBe("x".repeat(1000));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await agent.close();

    expect(existsSync(summaryFile), "the agent wrote what it received").toBe(true);
    const answers = JSON.parse(readFileSync(summaryFile, "utf8")) as [string | number | null, "result" | number][];
    const byId = (id: string | null) => answers.filter(([answered]) => answered === id).map(([, outcome]) => outcome);
    expect(byId("r1")).toEqual([-32601]);
    expect(byId("r2")).toEqual([-32601]);
    // The second "r3" arrived while the first ran: refused under its id; the first was answered.
    expect(byId("r3")).toEqual([-32600, "result"]);
    for (const id of ["r5", "r6", "r7", "r8", "r9"]) expect(byId(id), id).toEqual([-32601]);
    expect(byId(null).sort()).toEqual([-32700, -32700, -32602, -32600, -32600, -32600, -32600, -32600, -32600].sort());
    expect(answers.filter(([id]) => id === 999 || id === "r4")).toEqual([]);

    const messages = diagnostics.map((diagnostic) => diagnostic.message);
    expect(messages).toContainEqual(expect.stringContaining("not valid UTF-8"));
    expect(messages).toContainEqual(expect.stringContaining("unknown request id 999"));
    expect(messages).toContainEqual(expect.stringContaining("unknown session nope"));
    expect(messages).toContainEqual(expect.stringMatching(new RegExp(`larger than the ${LIMIT}-byte limit`)));
  });
});
