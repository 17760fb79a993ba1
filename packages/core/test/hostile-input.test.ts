// Hostile input to a Connection: ids that cannot be answered under the same id, duplicate
// in-flight ids, and values nested deeply enough to overflow anything recursive. Every request gets
// exactly one answer (or a typed local error) and every dropped input a diagnostic.
import { describe, expect, it } from "vitest";
import { Connection } from "../src/connection.js";
import { ErrorCode } from "../src/errors.js";
import { negotiateVersion } from "../src/negotiation.js";
import { deferred, ScriptedTransport, scripted } from "./helpers/transports.js";

/** `depth` nested arrays as JSON text, built without recursion. */
function nested(depth: number): string {
  return `${"[".repeat(depth)}1${"]".repeat(depth)}`;
}

describe("request ids", () => {
  it.each([
    ["1e309", "Infinity"],
    ["-1e309", "-Infinity"],
    ["9007199254740993", "9007199254740992"],
    ["1e20", "100000000000000000000"],
  ])("a request with id %s is refused with -32600 and id null, saying why (it reads as %s)", async (id, readsAs) => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 1 });
    connection.onRequest("session/new", () => ({ sessionId: "s" }));
    transport.deliver(`{"jsonrpc":"2.0","id":${id},"method":"session/new","params":{"cwd":"/p","mcpServers":[]}}`);
    const answer = await transport.next();
    expect(answer).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
    expect(answer.error.message).toContain(`"id" is a number beyond ±2^53 (it reads as ${readsAs})`);
    expect(answer.error.message).toContain("numeric ids must be within ±2^53, where JSON numbers are exact; use a string id");
    expect(diagnostics.map((d: { code: string }) => d.code)).toContain("invalid_message");
  });

  it("ids up to 2^53 - 1 and string ids are answered under the same id", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    connection.onRequest("session/new", () => ({ sessionId: "s" }));
    transport.deliver(`{"jsonrpc":"2.0","id":9007199254740991,"method":"session/new","params":{"cwd":"/p","mcpServers":[]}}`);
    expect(await transport.next()).toMatchObject({ id: 9007199254740991, result: { sessionId: "s" } });
    transport.deliver(`{"jsonrpc":"2.0","id":"9007199254740993","method":"session/new","params":{"cwd":"/p","mcpServers":[]}}`);
    expect(await transport.next()).toMatchObject({ id: "9007199254740993", result: { sessionId: "s" } });
  });

  it("a second request under an id still in flight gets -32600; the first is answered exactly once", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 1 });
    const gate = deferred();
    let runs = 0;
    connection.onRequest("session/new", async () => {
      runs++;
      await gate.promise;
      return { sessionId: "s" };
    });
    const request = `{"jsonrpc":"2.0","id":7,"method":"session/new","params":{"cwd":"/p","mcpServers":[]}}`;
    transport.deliver(request);
    transport.deliver(request);
    const refusal = await transport.next();
    expect(refusal).toMatchObject({ id: 7, error: { code: ErrorCode.InvalidRequest } });
    expect(refusal.error.message).toMatch(/id 7 is still in progress/);
    gate.resolve();
    expect(await transport.next()).toMatchObject({ id: 7, result: { sessionId: "s" } });
    expect(runs).toBe(1);
    // Once answered, the id may be used again.
    transport.deliver(request);
    expect(await transport.next()).toMatchObject({ id: 7, result: { sessionId: "s" } });
  });
});

describe("deeply nested values", () => {
  it("a message with a 10,000-deep value in jsonrpc is answered -32600 and reported", async () => {
    const { transport, diagnostics } = scripted({ side: "agent", version: 2 });
    transport.deliver(`{"jsonrpc":${nested(10_000)},"id":1,"method":"session/new"}`);
    const answer = await transport.next();
    expect(answer).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
    expect(answer.error.message).toContain('"jsonrpc" must be "2.0", got an array');
    expect(diagnostics.map((d: { code: string }) => d.code)).toContain("invalid_message");
  });

  it("a v2 batch with a deep entry between good ones answers every entry", async () => {
    const { transport, connection } = scripted({ side: "agent", version: 2 });
    connection.onRequest("session/new", () => ({ sessionId: "s" }));
    const good = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"session/new","params":{"cwd":"/p","mcpServers":[]}}`;
    transport.deliver(`[${good(1)},{"jsonrpc":${nested(10_000)},"id":2,"method":"x"},${good(3)}]`);
    const answers = await transport.next();
    expect(Array.isArray(answers)).toBe(true);
    expect(answers).toHaveLength(3);
    expect(answers.map((a: { id: unknown }) => a.id).sort()).toEqual([1, 3, null].sort());
  });

  it("a malformed (deeply nested) answer to a pending request fails that request instead of leaving it hanging", async () => {
    const { transport, connection } = scripted({ side: "client", version: 2 });
    const pending = connection.request("session/new", { cwd: "/p", mcpServers: [] });
    const sent = await transport.next();
    transport.deliver(`{"jsonrpc":${nested(10_000)},"id":${sent.id},"result":{}}`);
    await expect(pending).rejects.toMatchObject({ code: "ProtocolViolation" });
  });

  it("initialize with a deeply nested protocolVersion is -32602, not -32603", () => {
    const result = negotiateVersion(JSON.parse(nested(10_000)), [1, 2]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe(ErrorCode.InvalidParams);
    expect(result.error.message).toContain("got an array");
  });

  it("the real registry refuses a deep params value with -32602 and the connection keeps working", async () => {
    const transport = new ScriptedTransport();
    const connection = new Connection(transport, { side: "agent", version: 2 });
    connection.onRequest("session/new", () => ({ sessionId: "s" }));
    transport.deliver(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":${nested(10_000)},"mcpServers":[]}}`);
    const answer = await transport.next();
    expect(answer).toMatchObject({ id: 1, error: { code: ErrorCode.InvalidParams } });
    transport.deliver(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/p","mcpServers":[]}}`);
    expect(await transport.next()).toMatchObject({ id: 2, result: { sessionId: "s" } });
  });
});
