// checkAgent against remote endpoints of the transport RFD: `{ url: "http(s)://…" }` drives the
// HTTP+SSE profile (a message transport: the checks about lines of bytes are not_applicable, and
// say so), `{ url: "ws(s)://…" }` the WebSocket profile. Against acpkit's endpoint with acpkit's
// agent behind it, and against the official SDK 2.4.0's AcpServer with an SDK agent behind it.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as acp from "@agentclientprotocol/sdk";
import { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import { serveAgent } from "@acpkit/agent";
import { serveEndpoint } from "@acpkit/transport-http";
import { describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { type AgentCheckReport, AgentUnavailable, checkAgent, createBuiltinAgent } from "../src/index.js";

const statusOf = (report: AgentCheckReport, id: string) => report.results.find((result) => result.id === id);
const failed = (report: AgentCheckReport) => report.results.filter((result) => result.status === "fail").map((result) => `${result.id}: ${result.message}`);

/** An SDK agent that answers like a small real one: an echo turn that thinks until cancelled or 2 s pass. */
function sdkAgent() {
  const turns = new Map<string, () => void>();
  let sessions = 0;
  return acp
    .agent({ name: "sdk-endpoint-agent" })
    .onRequest("initialize", () => ({
      protocolVersion: 1,
      agentCapabilities: {},
      authMethods: [],
      agentInfo: { name: "sdk-endpoint-agent", version: "2.4.0" },
    }))
    .onRequest("session/new", () => ({ sessionId: `sdk-${++sessions}` }))
    .onNotification("session/cancel", ({ params }) => turns.get(params.sessionId)?.())
    .onRequest("session/prompt", async ({ params, client }) => {
      await client.notify("session/update", {
        sessionId: params.sessionId,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "thinking" } },
      });
      const cancelled = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 2000);
        turns.set(params.sessionId, () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      turns.delete(params.sessionId);
      return { stopReason: cancelled ? ("cancelled" as const) : ("end_turn" as const) };
    });
}

describe.concurrent("checkAgent({ url }) against remote endpoints", () => {
  it.for(["http", "ws"])("acpkit's endpoint with the built-in agent (%s profile): conformant on v1 and v2", { timeout: 120_000 }, async (scheme, context) => {
    const server = await serveEndpoint({ onConnection: (transport) => serveAgent(transport, createBuiltinAgent()) });
    context.onTestFinished(() => server.close());
    const url = server.url.replace(/^http/, scheme);
    for (const protocol of [1, 2] as const) {
      const report = await checkAgent({ url }, { protocol, timeoutMs: 5000 });
      expect(failed(report), `v${protocol}`).toEqual([]);
      expect(report.verdict).toBe("conformant");
      expect(report.agent?.name).toBe("acpkit-agent");
      const framing = statusOf(report, "ACPKIT-STDIO-001");
      if (scheme === "http") expect(framing).toMatchObject({ status: "not_applicable", message: expect.stringMatching(/HTTP\+SSE profile/) });
      else expect(framing?.status).toBe("pass");
    }
  });

  it.for(["http", "ws"])(
    "the official SDK's AcpServer with an SDK agent (%s profile): a verdict with no failure",
    { timeout: 120_000 },
    async (scheme, context) => {
      const sdk = new AcpServer({ createAgent: sdkAgent });
      const http = createServer(createNodeHttpHandler(sdk));
      http.on("upgrade", createNodeWebSocketUpgradeHandler(sdk, new WebSocketServer({ noServer: true })));
      await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
      context.onTestFinished(async () => {
        await sdk.close();
        http.closeAllConnections();
        await new Promise((resolve) => http.close(resolve));
      });
      const url = `${scheme}://127.0.0.1:${(http.address() as AddressInfo).port}/acp`;
      const report = await checkAgent({ url }, { protocol: 1, timeoutMs: 5000 });
      expect(failed(report)).toEqual([]);
      expect(report.verdict).toBe("conformant");
      expect(report.agent).toEqual({ name: "sdk-endpoint-agent", version: "2.4.0" });
      expect(statusOf(report, "ACP-CANCEL-001")?.status).toBe("pass");
    },
  );

  it("an http(s) URL nobody serves is AgentUnavailable, a URL of another scheme a TypeError", async () => {
    const unreachable = checkAgent({ url: "http://127.0.0.1:9/acp" }, { timeoutMs: 2000, startTimeoutMs: 2000 });
    await expect(unreachable).rejects.toThrow(AgentUnavailable);
    // Said at once, with why: not "no answer within 2000 ms".
    await expect(unreachable).rejects.toThrow(/the connection closed before an answer: the endpoint could not be reached: .*ECONNREFUSED/);
    await expect(checkAgent({ url: "ftp://127.0.0.1/acp" })).rejects.toThrow(TypeError);
  });
});
