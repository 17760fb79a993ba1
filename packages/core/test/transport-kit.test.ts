import { describe, expect, it } from "vitest";
import { AcpError } from "../src/errors.js";
import { createDeferred, encodeMessage, parseRequestTarget, utf8SizeOver } from "../src/transport-kit.js";

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

describe("utf8SizeOver", () => {
  it("is undefined within the limit and the UTF-8 size past it", () => {
    expect(utf8SizeOver("eeee", 10)).toBeUndefined(); // counted: 4 bytes
    expect(utf8SizeOver("€€€", 10)).toBeUndefined(); // 9 bytes
    expect(utf8SizeOver("€€€€", 10)).toBe(12);
    expect(utf8SizeOver("😀😀😀", 11)).toBe(12); // surrogate pairs: 4 bytes each
    expect(utf8SizeOver("x".repeat(11), 10)).toBe(11); // the length alone is over
  });
});

describe("createDeferred", () => {
  it("settles through its functions and never reports an unawaited rejection", async () => {
    const done = createDeferred();
    done.resolve();
    await expect(done.promise).resolves.toBeUndefined();
    const failed = createDeferred();
    failed.reject(new Error("closed")); // nobody awaits: must not surface as an unhandled rejection
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(failed.promise).rejects.toThrow("closed");
  });
});

describe("parseRequestTarget", () => {
  it("resolves a request's path and query against the base", () => {
    const url = parseRequestTarget("/acp?access_token=abc", "http://inspector.invalid");
    expect(url?.pathname).toBe("/acp");
    expect(url?.searchParams.get("access_token")).toBe("abc");
    expect(parseRequestTarget(undefined)?.pathname).toBe("/");
  });

  it("gives undefined, never throws, for targets new URL() refuses", () => {
    for (const target of ["//", "//:", "//[", "http://[", "//x:99999", "\\\\", "//%zz"]) {
      expect(() => new URL(target, "http://localhost"), target).toThrow();
      expect(parseRequestTarget(target), target).toBeUndefined();
    }
  });
});
