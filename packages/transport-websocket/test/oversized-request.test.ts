// A request in a WebSocket frame over the message limit (but under the socket's hard cap) is still
// answered -32600 under its own id, over a real server on 127.0.0.1, and the connection goes on.
import { Connection, ErrorCode } from "@acpkit/core";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { listen, type WebSocketListener } from "../src/index.js";

let listener: WebSocketListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

describe("an oversized request over WebSocket", () => {
  it("gets -32600 under its id; a notification gets nothing; the next request is served", async () => {
    listener = await listen({
      maxMessageSize: 1000,
      onConnection(transport) {
        const connection = new Connection(transport, { side: "agent", version: 2 });
        connection.onRequest("session/new", () => ({ sessionId: "s" }));
      },
    });
    const ws = new WebSocket(listener.url, { perMessageDeflate: false });
    const replies: any[] = [];
    ws.on("message", (data) => replies.push(JSON.parse(String(data))));
    await new Promise((resolve) => ws.once("open", resolve));
    const next = async () => {
      // Generous: the connection loads its version's validators before it answers the first line.
      for (let i = 0; i < 4000 && replies.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      return replies.shift();
    };
    ws.send(`{"jsonrpc":"2.0","method":"session/new","params":{"cwd":"${"é".repeat(700)}","mcpServers":[]},"id":"big-1"}`);
    const reply = await next();
    expect(reply).toMatchObject({ id: "big-1", error: { code: ErrorCode.InvalidRequest } });
    expect(reply.error.message).toContain("larger than the receiver's size limit");
    ws.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"${"x".repeat(1500)}"}}`);
    ws.send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/p","mcpServers":[]}}`);
    expect(await next()).toMatchObject({ id: 2, result: { sessionId: "s" } });
    expect(replies).toEqual([]);
    ws.close();
  });
});

describe("WebSocket flow control (Node)", () => {
  it("a paused server transport delivers nothing until resumed, then everything in order", async () => {
    const got: number[] = [];
    let server: import("../src/index.js").WebSocketTransport | undefined;
    listener = await listen({
      onConnection(transport) {
        server = transport;
        transport.start({ onMessage: (text) => got.push(JSON.parse(String(text)).params.n), onTransportError() {} });
        transport.pause();
      },
    });
    const ws = new WebSocket(listener.url, { perMessageDeflate: false });
    await new Promise((resolve) => ws.once("open", resolve));
    for (let n = 1; n <= 3; n++) ws.send(JSON.stringify({ jsonrpc: "2.0", method: "x", params: { n } }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(got).toEqual([]);
    server!.resume();
    for (let i = 0; i < 4000 && got.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(got).toEqual([1, 2, 3]);
    ws.close();
  });
});
