// WebSocketTransport against a scripted FrameSocket: backpressure, early frames, size limits.
import { describe, expect, it } from "vitest";
import { WebSocketTransport, withoutAccessToken, type FrameSocket } from "../src/frame-transport.js";

class ScriptedSocket implements FrameSocket {
  readonly sent: string[] = [];
  congested = false;
  private drainCallback: (() => void) | undefined;
  closedWith: [number, string] | undefined;
  sendText(text: string): void {
    this.sent.push(text);
  }
  isCongested(): boolean {
    return this.congested;
  }
  whenDrained(callback: () => void): void {
    this.drainCallback = callback;
  }
  close(code: number, reason: string): void {
    this.closedWith = [code, reason];
  }
  drain(): void {
    this.congested = false;
    const callback = this.drainCallback;
    this.drainCallback = undefined;
    callback?.();
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("WebSocketTransport", () => {
  it("while the socket is congested, sends queue in order and resolve together after the drain", async () => {
    const socket = new ScriptedSocket();
    const transport = new WebSocketTransport(socket);
    socket.congested = true;
    await transport.send({ jsonrpc: "2.0", method: "a" }); // handed to the socket, which is now full
    let settled = 0;
    const b = transport.send({ jsonrpc: "2.0", method: "b" }).then(() => settled++);
    const c = transport.send({ jsonrpc: "2.0", method: "c" }).then(() => settled++);
    await tick();
    expect(socket.sent.map((text) => JSON.parse(text).method)).toEqual(["a"]);
    expect(settled).toBe(0);
    socket.drain();
    await Promise.all([b, c]);
    expect(socket.sent.map((text) => JSON.parse(text).method)).toEqual(["a", "b", "c"]);
  });

  it("a close while senders wait for a drain rejects them with ConnectionClosed", async () => {
    const socket = new ScriptedSocket();
    const transport = new WebSocketTransport(socket);
    socket.congested = true;
    await transport.send({ jsonrpc: "2.0", method: "a" });
    const waiting = transport.send({ jsonrpc: "2.0", method: "b" });
    transport.handleClosed({ reason: "WebSocket closed with code 1006", closeCode: 1006 });
    await expect(waiting).rejects.toMatchObject({ code: "ConnectionClosed", message: expect.stringContaining("1006") });
    expect(socket.sent).toHaveLength(1);
  });

  it("sendText sends encoded text as it is, in order with send() and behind the same drain; after close it rejects", async () => {
    const socket = new ScriptedSocket();
    const transport = new WebSocketTransport(socket);
    const text = '{"jsonrpc":"2.0","method":"a","params":{"kept":"as written"}}';
    await transport.sendText(text);
    socket.congested = true;
    await transport.send({ jsonrpc: "2.0", method: "b" });
    const waiting = transport.sendText('{"jsonrpc":"2.0","method":"c"}');
    await tick();
    expect(socket.sent).toEqual([text, '{"jsonrpc":"2.0","method":"b"}']);
    socket.drain();
    await waiting;
    expect(socket.sent.at(-1)).toBe('{"jsonrpc":"2.0","method":"c"}');
    transport.handleClosed({ reason: "WebSocket closed with code 1000", closeCode: 1000 });
    await expect(transport.sendText("{}")).rejects.toMatchObject({ code: "ConnectionClosed" });
  });

  it("keeps frames that arrive before start() and delivers them in order", () => {
    const transport = new WebSocketTransport(new ScriptedSocket(), { maxMessageSize: 10 });
    transport.handleText("first");
    transport.handleBinary(4);
    transport.handleText("x".repeat(11));
    transport.handleText("last");
    const events: string[] = [];
    transport.start({ onMessage: (text) => events.push(`message ${text as string}`), onTransportError: (error) => events.push(`error ${error.code}`) });
    expect(events).toEqual(["message first", "error InvalidMessage", "error MessageTooLarge", "message last"]);
  });

  it("measures the limit in UTF-8 bytes when the adapter does not give a size", () => {
    const transport = new WebSocketTransport(new ScriptedSocket(), { maxMessageSize: 10 });
    const errors: string[] = [];
    const texts: string[] = [];
    transport.start({ onMessage: (text) => texts.push(text as string), onTransportError: (error) => errors.push(error.message) });
    transport.handleText("€€€€"); // 4 characters, 12 bytes
    transport.handleText("eeee");
    expect(texts).toEqual(["eeee"]);
    expect(errors).toEqual([expect.stringMatching(/larger than the 10-byte limit \(12 bytes\)/)]);
  });

  it("close() sends a normal close frame once and waits for the socket to report it", async () => {
    const socket = new ScriptedSocket();
    const transport = new WebSocketTransport(socket);
    const closing = transport.close("done");
    void transport.close("again");
    expect(socket.closedWith).toEqual([1000, "done"]);
    await expect(transport.send({ jsonrpc: "2.0", method: "late" })).rejects.toMatchObject({ code: "ConnectionClosed" });
    transport.handleClosed({ reason: "WebSocket closed with code 1000", closeCode: 1000 });
    await closing;
    expect(await transport.closed).toEqual({ reason: "WebSocket closed with code 1000", closeCode: 1000 });
  });
});

describe("withoutAccessToken", () => {
  it("shows every access_token value as … and leaves the rest of the text alone", () => {
    expect(withoutAccessToken("ws://h:1/acp?access_token=abc&x=1#f")).toBe("ws://h:1/acp?access_token=…&x=1#f");
    expect(withoutAccessToken("ws://h/acp?x=1&ACCESS_TOKEN=abc")).toBe("ws://h/acp?x=1&ACCESS_TOKEN=…");
    expect(withoutAccessToken('Invalid URL: "::::?access_token=abc" at …')).toBe('Invalid URL: "::::?access_token=…" at …');
    expect(withoutAccessToken("ws://h/acp?my_access_token=abc")).toBe("ws://h/acp?my_access_token=abc");
    expect(withoutAccessToken("ws://h/acp")).toBe("ws://h/acp");
  });
});
