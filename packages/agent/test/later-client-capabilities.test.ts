// What an agent learns from a later-v2 client's capabilities (docs/protocol.md A14): elicitation
// modes and terminal auth, read like v1's; nothing of the kind from the pinned v2.
import { Connection } from "@acpkit/core";
import { createMemoryPair } from "@acpkit/transport-memory";
import { describe, expect, it } from "vitest";
import { type ClientInfo, serveAgent } from "../src/index.js";

async function clientInfoFor(initialize: Record<string, unknown>): Promise<ClientInfo> {
  const [clientSide, agentSide] = createMemoryPair();
  let seen: ClientInfo | undefined;
  serveAgent(agentSide, {
    newSession(request) {
      seen = request.client;
    },
    prompt: () => "end_turn",
  });
  const client = new Connection(clientSide, { side: "client" });
  await client.request("initialize" as never, initialize as never);
  await client.request("session/new" as never, { cwd: "/work", mcpServers: [] } as never);
  await client.close();
  return seen!;
}

describe("ClientInfo from a later-v2 client", () => {
  it("A14: elicitation modes and terminal auth under capabilities", async () => {
    const info = await clientInfoFor({
      protocolVersion: 2,
      info: { name: "later", version: "1" },
      capabilities: { auth: { terminal: {} }, elicitation: { form: {} } },
    });
    expect(info).toMatchObject({ dialect: "v2-later", canElicitForm: true, canElicitUrl: false, canRunTerminalAuth: true });
  });

  it("A14: none of them from a later client that advertises nothing, or from the pinned v2", async () => {
    expect(await clientInfoFor({ protocolVersion: 2, info: { name: "later", version: "1" } })).toMatchObject({
      canElicitForm: false,
      canRunTerminalAuth: false,
    });
    expect(
      await clientInfoFor({ protocolVersion: 2, clientInfo: { name: "pinned", version: "1" }, capabilities: { elicitation: { form: {} } } }),
    ).toMatchObject({ dialect: "v2-pinned", canElicitForm: false, canRunTerminalAuth: false });
  });

  it("v1's auth.terminal boolean counts too", async () => {
    expect(await clientInfoFor({ protocolVersion: 1, clientCapabilities: { auth: { terminal: true } } })).toMatchObject({
      dialect: "v1",
      canRunTerminalAuth: true,
    });
  });
});
