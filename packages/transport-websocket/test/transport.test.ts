// The shared transport suite over a real WebSocket server on 127.0.0.1 (ephemeral port), plus the
// WebSocket-only behaviour: binary frames, token and Origin checks, loopback-only default,
// keepalive, and server shutdown.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { AcpError, Connection } from "@acpkit/core";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { runEchoPeer } from "@acpkit/test-support/fixtures/echo-peer";
import { rawHttpStatus, WEBSOCKET_UPGRADE_HEADERS } from "@acpkit/test-support/raw-http";
import { defineTransportSuite, RawClient, within, type ConnectionConstructor } from "@acpkit/test-support/transport-suite";
import { connect, listen, wrapNodeSocket, type ListenOptions, type WebSocketListener, type WebSocketTransport } from "../src/index.js";

/** Start a server whose connections run the echo peer; remembers every accepted connection. */
async function startEchoServer(options: Partial<ListenOptions> = {}) {
  const accepted: { transport: WebSocketTransport; request: IncomingMessage }[] = [];
  let onAccept: (() => void) | undefined;
  const listener = await listen({
    ...options,
    onConnection(transport, request) {
      runEchoPeer(transport);
      accepted.push({ transport, request });
      onAccept?.();
    },
  });
  const nextAccepted = async (count: number) => {
    while (accepted.length < count) await new Promise<void>((resolve) => (onAccept = resolve));
    return accepted[count - 1]!;
  };
  return { listener, accepted, nextAccepted };
}

/** A raw `ws` client plus our transport on it, so tests can also put raw frames on the wire. */
function openRaw(url: string, options: { maxMessageSize?: number } = {}): Promise<{ ws: WebSocket; transport: WebSocketTransport }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    let stream: Duplex | undefined;
    ws.once("upgrade", (response) => (stream = response.socket));
    ws.once("error", reject);
    ws.once("open", () => resolve({ ws, transport: wrapNodeSocket(ws, stream, options) }));
  });
}

function sendFrame(ws: WebSocket, data: string | Uint8Array, options: { binary?: boolean; fin?: boolean } = {}): Promise<void> {
  return new Promise((resolve, reject) => ws.send(data, { binary: false, fin: true, ...options }, (error) => (error ? reject(error) : resolve())));
}

const listeners: WebSocketListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

defineTransportSuite(
  "WebSocket (real server on 127.0.0.1)",
  async (options) => {
    const server = await startEchoServer({ maxMessageSize: options.maxMessageSize });
    const { ws, transport: local } = await openRaw(server.listener.url, options);
    const { request } = await server.nextAccepted(1);
    return {
      local,
      async cleanup() {
        await local.close();
        await server.listener.close();
      },
      killPeer() {
        request.socket.destroy(); // the server side vanishes without a close frame
        return { closeCode: 1006 };
      },
      sendRaw: (text) => sendFrame(ws, text),
      async sendPieces(pieces) {
        // One text message in several fragments; the cuts fall inside UTF-8 characters.
        for (let i = 0; i < pieces.length; i++) await sendFrame(ws, pieces[i]!, { fin: i === pieces.length - 1 });
      },
    };
  },
  { Connection: Connection as unknown as ConnectionConstructor },
);

describe("WebSocket specifics", () => {
  it("a binary frame gets a clear InvalidMessage error event and is otherwise ignored", async () => {
    const { listener } = await startEchoServer();
    listeners.push(listener);
    const { ws, transport } = await openRaw(listener.url);
    const client = new RawClient(transport);
    await sendFrame(ws, new Uint8Array([1, 2, 3]), { binary: true });
    await client.waitFor(() => client.notifications.some((n) => n.method === "transportError"), "the peer's transportError");
    const reported = client.notifications.find((n) => n.method === "transportError")!.params;
    expect(reported.code).toBe("InvalidMessage");
    expect(reported.message).toMatch(/binary WebSocket frame \(3 bytes\).*text frame/);
    expect(await client.request("echo", { still: "open" })).toEqual({ still: "open" });
  });

  it("listen() binds 127.0.0.1 on an ephemeral port by default, at path /acp", async () => {
    const { listener } = await startEchoServer();
    listeners.push(listener);
    expect(listener.host).toBe("127.0.0.1");
    expect(listener.port).toBeGreaterThan(0);
    expect(listener.url).toBe(`ws://127.0.0.1:${listener.port}/acp`);
    await expect(connect(listener.url.replace("/acp", "/other"))).rejects.toThrow(/404/);
    const response = await fetch(listener.url.replace("ws:", "http:"));
    expect(response.status).toBe(426);
  });

  // `new URL("//", base)` throws; in the upgrade listener that ended the agent's process, before
  // any token check: one request line took down every session it served.
  it("answers a request target that is not a valid path with 400, and goes on serving", async () => {
    const { listener } = await startEchoServer({ token: "secret" });
    listeners.push(listener);
    for (const target of ["//", "//[", "http://[", "//x:99999"]) {
      expect(await rawHttpStatus(listener.port, target, WEBSOCKET_UPGRADE_HEADERS), target).toBe("HTTP/1.1 400 Bad Request");
    }
    const client = new RawClient(await connect(listener.url, { token: "secret" }));
    expect(await client.request("echo", { still: "serving" })).toEqual({ still: "serving" });
  });

  // Errors end up in logs: a token written into the URL (the query form browsers must use) is
  // shown as "…", and a URL that does not parse rejects like any other failure to connect.
  it("connect() never puts an access_token from the URL into its error, and rejects an unparsable URL", async () => {
    const { listener } = await startEchoServer({ token: "s3cret-token" });
    listeners.push(listener);
    const refused = (await connect(`${listener.url}?access_token=wrong-s3cret`).catch((error: unknown) => error)) as AcpError;
    expect(refused).toMatchObject({ code: "ConnectionClosed", message: expect.stringMatching(/401/) });
    expect(refused.message).toContain("access_token=…");
    expect(refused.message).not.toContain("wrong-s3cret");
    const unreachable = (await connect("ws://127.0.0.1:1/acp?x=1&access_token=s3cret-token").catch((error: unknown) => error)) as AcpError;
    expect(unreachable).toMatchObject({ code: "ConnectionClosed" });
    expect(unreachable.message).toContain("ws://127.0.0.1:1/acp?x=1&access_token=…");
    expect(unreachable.message).not.toContain("s3cret");
    const unparsable = (await connect("::::?access_token=s3cret-token").catch((error: unknown) => error)) as AcpError;
    expect(unparsable).toBeInstanceOf(AcpError);
    expect(unparsable).toMatchObject({ code: "InvalidArgument", message: expect.stringMatching(/^could not open WebSocket to "::::\?access_token=…": /) });
    expect(unparsable.message).not.toContain("s3cret");
    // With the right token in the URL it connects.
    const client = new RawClient(await connect(`${listener.url}?access_token=s3cret-token`));
    expect(await client.request("echo", { via: "query" })).toEqual({ via: "query" });
  });

  it("refuses to listen on a non-loopback host without a token", async () => {
    await expect(listen({ host: "0.0.0.0", onConnection() {} })).rejects.toMatchObject({
      code: "Unsupported",
      message: expect.stringMatching(/refusing to listen on non-loopback host "0\.0\.0\.0" without a token/),
    });
    const withToken = await listen({ host: "0.0.0.0", token: "t0ken", onConnection() {} });
    listeners.push(withToken);
    expect(withToken.port).toBeGreaterThan(0);
  });

  it("bearer token: missing or wrong → 401; right one (header, or access_token for browsers) → connected", async () => {
    const { listener } = await startEchoServer({ token: "correct horse" });
    listeners.push(listener);
    await expect(connect(listener.url)).rejects.toMatchObject({ code: "ConnectionClosed", message: expect.stringMatching(/401/) });
    await expect(connect(listener.url, { token: "correct hors" })).rejects.toThrow(/401/);
    await expect(connect(listener.url, { token: "correct horse!" })).rejects.toThrow(/401/);

    const viaHeader = new RawClient(await connect(listener.url, { token: "correct horse" }));
    expect(await viaHeader.request("echo", { via: "header" })).toEqual({ via: "header" });
    const viaQuery = await openRaw(`${listener.url}?access_token=${encodeURIComponent("correct horse")}`);
    expect(await new RawClient(viaQuery.transport).request("echo", { via: "query" })).toEqual({ via: "query" });
    await viaHeader.transport.close();
    await viaQuery.transport.close();
  });

  it("Origin: by default only loopback pages may connect; an allow-list replaces that", async () => {
    const { listener } = await startEchoServer();
    listeners.push(listener);
    await expect(connect(listener.url, { headers: { Origin: "https://evil.example" } })).rejects.toThrow(/403/);
    const local = await connect(listener.url, { headers: { Origin: "http://localhost:5173" } });
    await local.close();
    const noOrigin = await connect(listener.url); // a non-browser client sends no Origin
    await noOrigin.close();

    const { listener: strict } = await startEchoServer({ allowedOrigins: ["https://editor.example"] });
    listeners.push(strict);
    await expect(connect(strict.url, { headers: { Origin: "http://localhost:5173" } })).rejects.toThrow(/403/);
    const allowed = await connect(strict.url, { headers: { Origin: "https://editor.example" } });
    expect(await new RawClient(allowed).request("echo", { ok: 1 })).toEqual({ ok: 1 });
    await allowed.close();
  });

  it("keepalive: a peer that stops answering pings is dropped; a live one stays", async () => {
    // The live peer's pong is handled in this same process, so an interval shorter than a stall of
    // its event loop drops it: 40 ms did while CI ran every package's tests at once on two cores.
    const server = await startEchoServer({ keepaliveIntervalMs: 250 });
    listeners.push(server.listener);
    // ws answers pings by itself unless autoPong is off: this client plays dead.
    const dead = new WebSocket(server.listener.url, { autoPong: false });
    dead.on("error", () => {});
    const { transport: deadOnServer } = await server.nextAccepted(1);
    const info = await within(5000, "the server to drop the dead peer", deadOnServer.closed);
    expect(info).toMatchObject({ closeCode: 1006 });
    expect(info.reason).toMatch(/did not answer a keepalive ping/);

    const live = new RawClient(await connect(server.listener.url, { keepaliveIntervalMs: 0 }));
    const { transport: liveOnServer } = await server.nextAccepted(2);
    // Several intervals pass; pongs keep it open.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    let liveClosed = false;
    void liveOnServer.closed.then(() => (liveClosed = true));
    await Promise.resolve();
    expect(liveClosed).toBe(false);
    expect(await live.request("echo", { alive: true })).toEqual({ alive: true });
    await live.transport.close();
  });

  it("listener.close() closes open connections with 1001 and stops accepting", async () => {
    const { listener } = await startEchoServer();
    const client = await connect(listener.url);
    new RawClient(client);
    await listener.close();
    expect(await client.closed).toMatchObject({ closeCode: 1001 });
    await expect(connect(listener.url)).rejects.toMatchObject({ code: "ConnectionClosed" });
  });

  it("connect() to a port nobody listens on rejects with ConnectionClosed", async () => {
    const { listener } = await startEchoServer();
    const url = listener.url;
    await listener.close();
    await expect(connect(url)).rejects.toMatchObject({ code: "ConnectionClosed", message: expect.stringMatching(/ECONNREFUSED/) });
  });
});
