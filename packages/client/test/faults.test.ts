// Faults from outside, with real processes: the agent killed in the middle of a turn, the agent
// exiting while initialize waits, and the client going away mid-turn. Each ends in a typed error
// or a clean exit, never in a hang or an unanswered promise.
import { fileURLToPath } from "node:url";
import { type ConnectedAgent, connectAgent } from "@acpkit/client";
import { isAcpError } from "@acpkit/core";
import { spawnAgent } from "@acpkit/transport-stdio";
import { describe, expect, it } from "vitest";

const surfaceAgent = fileURLToPath(new URL("../../agent/test/fixtures/serve-surface-stdio.mjs", import.meta.url));

describe("faults", () => {
  it("the agent killed mid-turn: the turn rejects with ConnectionClosed, the pending question's signal aborts", async () => {
    const transport = spawnAgent(process.execPath, [surfaceAgent], { stderr: "ignore", shutdownGraceMs: 200 });
    let questionSignal: AbortSignal | undefined;
    const agent: ConnectedAgent = await connectAgent(transport, {
      elicitation: {
        form: (_request, context) => {
          questionSignal = context.signal;
          return new Promise(() => {});
        },
      },
    });
    const session = await agent.newSession({ cwd: "/work" });
    const turn = session.prompt("elicit-wait");
    while (questionSignal === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    const killedAt = Date.now();
    transport.child.kill("SIGKILL");
    const error = await Promise.resolve(turn).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isAcpError(error, "ConnectionClosed")).toBe(true);
    expect((error as Error).message).toContain("killed by SIGKILL");
    expect(questionSignal.aborted).toBe(true);
    // The rejection follows the child's exit, not a timer; the bound only says "not a hang" with
    // room for a loaded CI machine.
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(await agent.closed).toMatchObject({ signal: "SIGKILL" });
    // Requests after the death fail at once, typed.
    await expect(agent.newSession({ cwd: "/work" })).rejects.toMatchObject({ code: "ConnectionClosed" });
  });

  it("the agent exits while initialize waits: connectAgent rejects with ConnectionClosed naming the exit code", async () => {
    const transport = spawnAgent(process.execPath, ["-e", "process.stdin.once('data', () => process.exit(3))"], { stderr: "ignore" });
    const error = await connectAgent(transport).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isAcpError(error, "ConnectionClosed")).toBe(true);
    expect((error as Error).message).toContain("exited with code 3");
  });

  it("the client goes away mid-turn: the agent's turn is aborted and the agent process exits 0 on its own", async () => {
    const transport = spawnAgent(process.execPath, [surfaceAgent], { stderr: "ignore", shutdownGraceMs: 20_000 });
    let asked = false;
    const agent = await connectAgent(transport, {
      elicitation: {
        form: () => {
          asked = true;
          return new Promise(() => {});
        },
      },
    });
    const session = await agent.newSession({ cwd: "/work" });
    void Promise.resolve(session.prompt("elicit-wait")).catch(() => {});
    while (!asked) await new Promise((resolve) => setTimeout(resolve, 5));
    const closedAt = Date.now();
    await agent.close("the editor quit");
    // With a 20 s grace before SIGTERM, an exit well before that is the agent's own, on stdin EOF.
    expect(await transport.closed).toMatchObject({ exitCode: 0, signal: null });
    expect(Date.now() - closedAt).toBeLessThan(15_000);
  });
});
