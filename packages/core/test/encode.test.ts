import { describe, expect, it } from "vitest";
import { AcpError, encodeMessage } from "../src/index.js";

describe("encodeMessage", () => {
  it("gives the compact JSON text of a message", () => {
    expect(encodeMessage({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s\n1" } })).toBe(
      '{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s\\n1"}}',
    );
  });

  it("refuses a value JSON cannot carry with InvalidMessage, naming why", () => {
    const cyclic: Record<string, unknown> = { jsonrpc: "2.0" };
    cyclic.self = cyclic;
    expect(() => encodeMessage(cyclic)).toThrow(AcpError);
    expect(() => encodeMessage(cyclic)).toThrow(/cannot be serialized as JSON: .*circular/i);
    expect(() => encodeMessage({ big: 1n })).toThrow(/BigInt/);
    try {
      encodeMessage(undefined);
      expect.unreachable();
    } catch (error) {
      expect((error as AcpError).code).toBe("InvalidMessage");
      expect((error as AcpError).message).toContain("got undefined");
    }
  });
});
