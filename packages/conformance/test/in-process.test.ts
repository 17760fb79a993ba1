// checkAgent and checkClient against targets in this process: the kit's test agent served over a
// memory pair, the same agent as a command, defect fixtures written here from scratch, and
// acpkit's own client driven in-process. The checks about lines and bytes are not_applicable
// in-process and judged over a process.
import { fileURLToPath } from "node:url";
import { type AgentDefinition, serveAgent } from "@acpkit/agent";
import { connectAgent } from "@acpkit/client";
import { ErrorCode, RpcError, type Transport } from "@acpkit/core";
import { createMemoryPair } from "@acpkit/transport-memory";
import { describe, expect, it } from "vitest";
import { type AgentCheckReport, AgentUnavailable, checkAgent, checkClient, createBuiltinAgent } from "../src/index.js";

const fixture = fileURLToPath(new URL("./fixtures/builtin-agent-stdio.mjs", import.meta.url));

function inProcess(definition: () => AgentDefinition): { transport: () => Transport } {
  return {
    transport: () => {
      const [client, agent] = createMemoryPair();
      serveAgent(agent, definition());
      return client;
    },
  };
}

const statusOf = (report: { results: { id: string; status: string }[] }, id: string) => report.results.find((result) => result.id === id)?.status;
const failed = (report: AgentCheckReport) => report.results.filter((result) => result.status === "fail").map((result) => `${result.id}: ${result.message}`);

describe("checkAgent in-process", () => {
  it("the kit's test agent is conformant, with the byte-level checks not_applicable", async () => {
    const report = await checkAgent(
      inProcess(() => createBuiltinAgent()),
      { protocol: 2 },
    );
    expect(failed(report)).toEqual([]);
    expect(report.verdict).toBe("conformant");
    expect(report.protocolVersion).toBe(2);
    for (const id of ["ACPKIT-STDIO-001", "ACPKIT-STDIO-002", "ACPKIT-RPC-005", "ACPKIT-EXIT-001"]) expect(statusOf(report, id), id).toBe("not_applicable");
    expect(statusOf(report, "ACPKIT-RPC-006")).toBe("pass");
    expect(statusOf(report, "ACPKIT-CAP-LOAD")).toBe("pass");
  });

  it("a defect fixture: a turn that ends with a stop reason no version has is not conformant", async () => {
    const report = await checkAgent(
      inProcess(() => ({
        initialize: () => ({ agentInfo: { name: "bad-stop", version: "1" } }),
        newSession: () => ({}),
        prompt: async () => ({ stopReason: "finished" as never }),
      })),
      { timeoutMs: 2000 },
    );
    expect(report.verdict).toBe("not_conformant");
    expect(statusOf(report, "ACP-PROMPT-001")).toBe("fail");
  });

  it("an agent that demands a login before any session is inconclusive, never conformant", async () => {
    const report = await checkAgent(
      inProcess(() => ({
        initialize: () => ({ agentInfo: { name: "login-first", version: "1" }, authMethods: [{ id: "oauth", name: "OAuth" }] }),
        authenticate: () => {},
        newSession: () => {
          throw new RpcError(ErrorCode.AuthRequired, "Authentication required");
        },
        prompt: async () => ({ stopReason: "end_turn" }),
      })),
      { timeoutMs: 2000 },
    );
    expect(report.verdict).toBe("inconclusive");
    expect(report.conformant).toBe(false);
    expect(statusOf(report, "ACP-PROMPT-001")).toBe("not_tested");
    expect(report.inconclusive.join("\n")).toMatch(/ACPKIT-SESSION-001, ACP-PROMPT-001, .*: blocked by authentication: session\/new answered -32000/);
  });

  it("a raw in-process agent that reports on a turn after answering it fails ACPKIT-ORDER-001 within the late-update window", async () => {
    // Written from scratch (acpkit's runtime cannot send a turn's update after its response).
    const lateAgent = () => {
      const [client, agent] = createMemoryPair();
      agent.start({
        onTransportError: () => {},
        onMessage: (text) => {
          const message = JSON.parse(String(text));
          const answer = (result: unknown) => void agent.send({ jsonrpc: "2.0", id: message.id, result }).catch(() => {});
          if (message.method === "initialize") answer({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] });
          else if (message.method === "session/new") answer({ sessionId: `s${Math.random()}` });
          else if (message.method === "session/prompt") {
            answer({ stopReason: "end_turn" });
            const update = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "late" } };
            setTimeout(
              () => void agent.send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: message.params.sessionId, update } }).catch(() => {}),
              50,
            );
          } else if (message.id !== undefined && typeof message.method === "string")
            void agent.send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "no" } }).catch(() => {});
        },
      });
      return client;
    };
    const caught = await checkAgent({ transport: lateAgent }, { timeoutMs: 2000, lateUpdateWindowMs: 500 });
    expect(caught.results.find((result) => result.id === "ACPKIT-ORDER-001")).toMatchObject({
      status: "fail",
      message: expect.stringMatching(/^an update came after the prompt's response: .*"late"/),
    });
    // A window shorter than the agent's delay does not see it: the option is the trade the docs name.
    const missed = await checkAgent({ transport: lateAgent }, { timeoutMs: 2000, lateUpdateWindowMs: 0 });
    expect(statusOf(missed, "ACPKIT-ORDER-001")).toBe("pass");
  });

  it("rejects a target that is none of the three, naming the shapes", async () => {
    await expect(checkAgent({} as never)).rejects.toThrow(/the target must be \{ command, args\?, env\?, cwd\? \}, \{ url, token\? \} or \{ transport/);
    await expect(checkAgent({ url: "file:///agent" })).rejects.toThrow(/target.url must be an http\(s\):\/\/ or ws\(s\):\/\/ URL/);
    await expect(checkAgent({ command: "node" }, { timeoutMs: -1 })).rejects.toThrow(/options.timeoutMs must be an integer of milliseconds ≥ 1/);
  });

  it("an agent command that does not exist is AgentUnavailable", async () => {
    await expect(checkAgent({ command: "/nonexistent/acpkit-agent" })).rejects.toBeInstanceOf(AgentUnavailable);
  });
});

describe("checkAgent against a command", () => {
  it("the same agent as a process is conformant, with the byte-level checks judged", async () => {
    const report = await checkAgent({ command: process.execPath, args: [fixture] }, { protocol: 2 });
    expect(failed(report)).toEqual([]);
    expect(report.verdict).toBe("conformant");
    for (const id of ["ACPKIT-STDIO-001", "ACPKIT-STDIO-002", "ACPKIT-RPC-005", "ACPKIT-EXIT-001"]) expect(statusOf(report, id), id).toBe("pass");
  });
});

describe("checkClient in-process", () => {
  it("acpkit's client, prompting and cancelling after the first update, is conformant", async () => {
    const report = await checkClient(
      {
        run: async (transport) => {
          const agent = await connectAgent(transport, { protocolVersion: 2, warmUp: false });
          try {
            const session = await agent.newSession({ cwd: process.cwd() });
            const turn = session.prompt("hello");
            let cancelling = false;
            for await (const _update of turn) {
              if (cancelling) continue;
              cancelling = true;
              setTimeout(() => void session.cancel(), 300);
            }
            await turn;
          } catch {
            // The agent-exit scenario ends the connection mid-turn: the run is over then.
          } finally {
            await agent.close();
          }
        },
      },
      { slowMs: 1500, timeoutMs: 10_000 },
    );
    expect(report.results.filter((result) => result.status === "fail")).toEqual([]);
    expect(report.verdict).toBe("conformant");
    expect(report.protocolVersion).toBe(2);
    expect(statusOf(report, "ACPKIT-CLIENT-STDIO-001")).toBe("not_applicable");
    expect(statusOf(report, "ACPKIT-CLIENT-CANCEL-001")).toBe("pass");
  });

  it("a client that never prompts is inconclusive: the turn's requirements were never reached", async () => {
    const report = await checkClient(
      {
        run: async (transport) => {
          const agent = await connectAgent(transport, { warmUp: false });
          await agent.newSession({ cwd: process.cwd() });
          await agent.close();
        },
      },
      { slowMs: 100, timeoutMs: 5000 },
    );
    expect(report.verdict).toBe("inconclusive");
    expect(report.inconclusive.join("\n")).toMatch(/ACPKIT-CLIENT-PROMPT-001: the client sent no prompt/);
  });

  it("rejects a command target without {agent}", async () => {
    await expect(checkClient({ argv: ["my-client"] })).rejects.toThrow(/must contain the element \{agent\}/);
  });
});
