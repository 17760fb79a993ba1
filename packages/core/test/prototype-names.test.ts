// Method names and tags a peer chooses are looked up in own entries only: `constructor`,
// `toString`, `__proto__` and friends are unknown names like any other, never Object.prototype's.
import { describe, expect, it } from "vitest";
import { Connection } from "../src/connection.js";
import { ErrorCode } from "../src/errors.js";
import { ScriptedTransport } from "./helpers/transports.js";

const NAMES = ["constructor", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"];

describe("names that are Object.prototype properties", () => {
  it.each([1, 2] as const)("v%i: a request for such a method gets -32601 naming it as unknown", async (version) => {
    const transport = new ScriptedTransport();
    const connection = new Connection(transport, { side: "agent", version });
    const diagnostics: string[] = [];
    connection.onDiagnostic((d) => diagnostics.push(d.message));
    for (const [index, method] of NAMES.entries()) {
      transport.deliver(JSON.stringify({ jsonrpc: "2.0", id: index, method, params: {} }));
      const answer = await transport.next();
      expect(answer).toMatchObject({ id: index, error: { code: ErrorCode.MethodNotFound } });
      expect(answer.error.message).toBe(`Method not found: ${method} does not exist in protocol v${version}`);
    }
    // `__proto__` starts with `_`: an extension method nobody handles, also -32601.
    transport.deliver(JSON.stringify({ jsonrpc: "2.0", id: 99, method: "__proto__", params: {} }));
    expect(await transport.next()).toMatchObject({ id: 99, error: { code: ErrorCode.MethodNotFound, message: "Method not found: __proto__" } });
    expect(diagnostics.join("\n")).not.toMatch(/native code|\[object Object\]/);
  });

  it("a v2 session/update whose tag is such a name is an unknown variant, not a legacy shape", async () => {
    const transport = new ScriptedTransport();
    const connection = new Connection(transport, { side: "client", version: 2 });
    const received: unknown[] = [];
    connection.onNotification("session/update", (params) => void received.push(params.update));
    const diagnostics: string[] = [];
    connection.onDiagnostic((d) => diagnostics.push(d.code));
    transport.deliver(JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "constructor" } } }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(received).toEqual([{ sessionUpdate: "constructor" }]);
    expect(diagnostics).toEqual([]);
  });
});
