// The typed Connection API. The `@ts-expect-error` lines are the test: `pnpm typecheck` fails if any
// of them compiles (a wrong method name, wrong params, a method of the other side, a wrong result
// type, a plain string that is not an extension method). The runtime tests check that the typed
// calls still do what they say.
import type { v1, v2 } from "@acpkit/schema";
import { describe, expect, expectTypeOf, it } from "vitest";
import { Connection } from "../src/connection.js";
import { linkedTransports } from "./helpers/transports.js";

function pair<V extends 1 | 2>(version: V) {
  const [agentEnd, clientEnd] = linkedTransports();
  const agent = new Connection(agentEnd, { side: "agent", version });
  const client = new Connection(clientEnd, { side: "client", version });
  return { agent, client };
}

/** Compile-time only: never called. */
export function compileChecks(agent: Connection<"agent">, client: Connection<"client">, clientV1: Connection<"client", 1>): void {
  // Method names, params and results come from the generated method maps.
  expectTypeOf(client.request("session/new", { cwd: "/p", mcpServers: [] })).resolves.toEqualTypeOf<v1.NewSessionResponse | v2.NewSessionResponse>();
  expectTypeOf(clientV1.request("session/prompt", { sessionId: "s", prompt: [] })).resolves.toEqualTypeOf<v1.PromptResponse>();
  // @ts-expect-error a misspelled method
  void client.request("session/promt", { sessionId: "s", prompt: [] });
  // @ts-expect-error params of the wrong shape (prompt must be an array of content blocks)
  void client.request("session/prompt", { sessionId: "s", prompt: "hello" });
  // @ts-expect-error a request the client does not send (it goes agent → client)
  void client.request("session/request_permission", { sessionId: "s", toolCall: { toolCallId: "t" }, options: [] });
  // @ts-expect-error a notification sent as a request
  void client.request("session/cancel", { sessionId: "s" });
  // @ts-expect-error a request sent as a notification
  void client.notify("session/new", { cwd: "/p", mcpServers: [] });
  // @ts-expect-error fs/* exists only in v1, and only agent → client
  void clientV1.request("fs/read_text_file", { sessionId: "s", path: "/a" });
  // @ts-expect-error the agent handles client → agent requests only
  agent.onRequest("session/request_permission", () => ({ outcome: { outcome: "cancelled" } }));
  // @ts-expect-error a handler whose result is not the method's result type
  agent.onRequest("session/prompt", () => ({ stopReason: 42 }));
  // @ts-expect-error $/cancel_request is handled by the Connection itself
  agent.onNotification("$/cancel_request", () => {});
  // @ts-expect-error a plain string that is not an extension method
  void client.request("vendor/thing" as string, {});
  // Handler params are typed without annotations.
  agent.onRequest("session/prompt", (params) => {
    expectTypeOf(params.sessionId).toEqualTypeOf<string>();
    return { stopReason: "end_turn" };
  });
  client.onNotification("session/update", (params) => {
    expectTypeOf(params.sessionId).toEqualTypeOf<string>();
  });
  // `_`-prefixed extension methods take any params and a chosen result type.
  expectTypeOf(client.request<{ pong: true }>("_vendor/ping", { any: "thing" })).resolves.toEqualTypeOf<{ pong: true }>();
  agent.onRequest("_vendor/ping", () => ({ pong: true }));
}

describe("typed Connection methods", () => {
  it("a typed request and handler carry the method's params and result across a real pair", async () => {
    const { agent, client } = pair(2);
    agent.onRequest("session/new", (params) => ({ sessionId: `for ${params.cwd}` }));
    const result = await client.request("session/new", { cwd: "/work", mcpServers: [] });
    expect(result).toEqual({ sessionId: "for /work" });
    await client.close();
  });

  it("an extension request passes through untyped and unvalidated", async () => {
    const { agent, client } = pair(1);
    agent.onRequest("_vendor/ping", (params: { n: number }) => ({ pong: params.n + 1 }));
    await expect(client.request<{ pong: number }>("_vendor/ping", { n: 1 })).resolves.toEqual({ pong: 2 });
    await client.close();
  });

  it("a method name that only type errors would stop is still refused at run time", async () => {
    const { client } = pair(2);
    // @ts-expect-error fs/* does not exist in v2 (and not client → agent)
    await expect(client.request("fs/read_text_file", { sessionId: "s", path: "/a" })).rejects.toMatchObject({ code: "OutgoingInvalid" });
    await client.close();
  });
});
