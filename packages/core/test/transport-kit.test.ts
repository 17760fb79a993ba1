import { describe, expect, it } from "vitest";
import { AcpError } from "../src/errors.js";
import { createDeferred, encodeMessage, forwardingReceiver, parseRequestTarget, utf8SizeOver, wrapTransport } from "../src/transport-kit.js";

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

describe("wrapTransport and forwardingReceiver", () => {
  const base = (withFlow: boolean) => {
    const calls: string[] = [];
    let receiver: import("../src/transport.js").TransportReceiver | undefined;
    const inner = {
      start: (r: import("../src/transport.js").TransportReceiver) => (receiver = r),
      send: async () => void calls.push("send"),
      close: async () => void calls.push("close"),
      closed: new Promise<never>(() => {}),
      ...(withFlow ? { pause: () => void calls.push("pause"), resume: () => void calls.push("resume") } : {}),
    };
    return { inner, calls, received: () => receiver! };
  };

  it("passes pause and resume through exactly when the inner transport has them", async () => {
    const withFlow = base(true);
    const wrapped = wrapTransport(withFlow.inner, {});
    wrapped.pause!();
    wrapped.resume!();
    await wrapped.send({ jsonrpc: "2.0", method: "m" });
    expect(withFlow.calls).toEqual(["pause", "resume", "send"]);
    expect("pause" in wrapTransport(base(false).inner, {})).toBe(false);
  });

  it("the receiver's optional hooks reach the outer receiver exactly when it has them", () => {
    const seen: string[] = [];
    const outer = {
      onMessage: () => {},
      onTransportError: () => {},
      onInputEnd: () => void seen.push("end"),
      onOutputCongestion: (c: boolean) => void seen.push(`congested ${c}`),
    };
    const forwarded = forwardingReceiver(outer, { onMessage: () => void seen.push("message") });
    forwarded.onMessage("x");
    forwarded.onInputEnd!();
    forwarded.onOutputCongestion!(true);
    expect(seen).toEqual(["message", "end", "congested true"]);
    // A receiver without onInputEnd makes a stdio transport close at once: the wrapper must not invent one.
    const bare = forwardingReceiver({ onMessage: () => {}, onTransportError: () => {} }, { onMessage: () => {} });
    expect("onInputEnd" in bare).toBe(false);
    expect("onOutputCongestion" in bare).toBe(false);
  });

  it("sends through the wrapping's send and starts the inner transport with its receiver", async () => {
    const { inner, calls, received } = base(false);
    const sent: unknown[] = [];
    const wrapped = wrapTransport(inner, {
      send: (message, through) => {
        sent.push(message);
        return through.send(message);
      },
      receiver: (outer) => forwardingReceiver(outer, { onMessage: (m) => outer.onMessage(`tapped ${String(m)}`) }),
    });
    const got: unknown[] = [];
    wrapped.start({ onMessage: (m) => void got.push(m), onTransportError: () => {} });
    received().onMessage("hello");
    await wrapped.send({ jsonrpc: "2.0", method: "m" });
    expect(got).toEqual(["tapped hello"]);
    expect(sent).toEqual([{ jsonrpc: "2.0", method: "m" }]);
    expect(calls).toEqual(["send"]);
  });
});
