// connectAgent(...).close() after a turn returns once the agent has exited, and the agent exits
// because nothing is left to answer, not because a grace period ran out. Both graces (the agent's
// inputEndGraceMs, the client's shutdownGraceMs before SIGTERM) are an hour here, far past the
// test's own limit: a close that waited for either would fail by timeout, not by a timing bound.
import { fileURLToPath } from "node:url";
import { connectAgent } from "@acpkit/client";
import { spawnAgent } from "@acpkit/transport-stdio";
import { describe, expect, it } from "vitest";

const readmeAgent = fileURLToPath(new URL("./fixtures/readme-agent.mjs", import.meta.url));
const HOUR = 60 * 60 * 1000;

describe("close() after a turn", () => {
  it.each([1, 2] as const)("v%i: returns once the README's agent has exited on its own (code 0, no signal)", async (protocolVersion) => {
    const transport = spawnAgent(process.execPath, [readmeAgent], {
      stderr: "ignore",
      shutdownGraceMs: HOUR,
      env: { ...process.env, ACPKIT_TEST_INPUT_END_GRACE_MS: String(HOUR) },
    });
    const agent = await connectAgent(transport, { protocolVersion });
    const session = await agent.newSession({ cwd: process.cwd() });
    expect((await session.prompt("hello there")).stopReason).toBe("end_turn");
    await agent.close();
    expect(await transport.closed).toMatchObject({ exitCode: 0, signal: null });
  });
});
