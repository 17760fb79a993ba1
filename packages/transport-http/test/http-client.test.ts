// The HTTP+SSE client (docs/remote.md RT17, RT21, RT22), watched through the fetch it is given:
// which requests it makes, in what order, with which headers, and what it does with refusals.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { serveAgent } from "@acpkit/agent";
import { connectAgent } from "@acpkit/client";
import { describe, expect, it, type TestContext } from "vitest";
import { connectHttp, createAcpEndpoint, type EndpointOptions, MemoryCookieStore } from "../src/index.js";
import { startOwnServer, testAgent } from "./helpers.js";

interface Seen {
  method: string;
  connection: string | null;
  session: string | null;
  body: string | undefined;
  cookie: string | null;
  accept: string | null;
}

/** What the test's server saw of each request: method and Cookie header. */
const received: Array<{ method: string; cookie: string | undefined }> = [];

/** An endpoint on a server of the test's own, which sets an affinity cookie on the answer to initialize and records each request. */
function start(context: TestContext, limits: EndpointOptions["limits"] = {}): Promise<string> {
  return startOwnServer(context, { limits }, (request, response) => {
    received.push({ method: request.method ?? "", cookie: request.headers.cookie });
    if (request.method === "POST" && request.headers["acp-connection-id"] === undefined) response.setHeader("Set-Cookie", ["node=a; Path=/; HttpOnly"]);
  });
}

/** A fetch that records every request the client makes, and how many POSTs were in flight at most. */
function watchingFetch() {
  const seen: Seen[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetcher: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    seen.push({
      method: init?.method ?? "GET",
      connection: headers.get("acp-connection-id"),
      session: headers.get("acp-session-id"),
      body: typeof init?.body === "string" ? init.body : undefined,
      cookie: headers.get("cookie"),
      accept: headers.get("accept"),
    });
    if (init?.method !== "POST") return fetch(input, init);
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    try {
      return await fetch(input, init);
    } finally {
      inFlight--;
    }
  };
  return { seen, fetcher, maxInFlight: () => maxInFlight };
}

describe("connectHttp", () => {
  it("RT17: with Node's default fetch (node:http), the server sees the affinity cookie on every later request", async (context) => {
    const url = await start(context);
    received.length = 0;
    const agent = await connectAgent(connectHttp(url), { protocolVersion: 1 });
    const session = await agent.newSession({ cwd: "/tmp" });
    await session.prompt("hello");
    await agent.close();
    expect(received[0]).toEqual({ method: "POST", cookie: undefined });
    expect(received.slice(1).map((request) => request.method)).toEqual(expect.arrayContaining(["GET", "POST", "DELETE"]));
    for (const request of received.slice(1)) expect(request.cookie, request.method).toBe("node=a");
  });

  it("RT17: sends the endpoint's affinity cookie back on every later request of the connection (a fetch of the caller's)", async (context) => {
    const url = await start(context);
    const { seen, fetcher } = watchingFetch();
    const agent = await connectAgent(connectHttp(url, { fetch: fetcher }), { protocolVersion: 1 });
    const session = await agent.newSession({ cwd: "/tmp" });
    await session.prompt("hello");
    await agent.close();
    expect(seen[0]).toMatchObject({ method: "POST", connection: null, cookie: null });
    const later = seen.slice(1);
    expect(later.map((request) => request.method)).toEqual(expect.arrayContaining(["GET", "POST", "DELETE"]));
    for (const request of later) expect(request.cookie, `${request.method} ${request.body ?? ""}`).toBe("node=a");
  });

  it("RT22: one POST at a time, in order; a new session's stream is opened before the first message for it", async (context) => {
    const url = await start(context);
    const { seen, fetcher, maxInFlight } = watchingFetch();
    const agent = await connectAgent(connectHttp(url, { fetch: fetcher }), { protocolVersion: 1 });
    const session = await agent.newSession({ cwd: "/tmp" });
    const turn = session.prompt("wait");
    await expect.poll(() => JSON.stringify(session.state.toJSON().messages).includes("waiting"), { timeout: 10_000 }).toBe(true);
    await session.cancel();
    expect((await turn).stopReason).toBe("cancelled");
    await agent.close();
    expect(maxInFlight()).toBe(1);
    const methods = seen.filter((request) => request.method === "POST").map((request) => JSON.parse(request.body!).method ?? "answer");
    expect(methods).toEqual(["initialize", "session/new", "session/prompt", "session/cancel"]);
    const sessionStream = seen.findIndex((request) => request.method === "GET" && request.session === session.sessionId);
    const firstForSession = seen.findIndex((request) => request.method === "POST" && request.session === session.sessionId);
    expect(sessionStream).toBeGreaterThan(-1);
    expect(sessionStream).toBeLessThan(firstForSession);
    expect(seen[sessionStream]!.accept).toBe("text/event-stream");
  });

  it("RT21: a refusal of one request fails that request with the endpoint's error, and the connection goes on", async (context) => {
    const url = await start(context, { maxBodyBytes: 2048 });
    const agent = await connectAgent(connectHttp(url), { protocolVersion: 1 });
    const session = await agent.newSession({ cwd: "/tmp" });
    const refused = await session.prompt("x".repeat(4096)).then(
      () => undefined,
      (error: unknown) => error as { code: number; message: string; data: unknown },
    );
    expect(refused).toMatchObject({ code: -32600, data: { httpStatus: 413 } });
    expect(refused?.message).toMatch(/larger than 2048 bytes/);
    expect((await session.prompt("still here")).stopReason).toBe("end_turn");
    expect(JSON.stringify(session.state.toJSON().messages)).toContain("echo: still here");
    await agent.close();
  });

  it("RT21: 401 means the connection is gone: the transport closes with the status as its reason", async (context) => {
    const endpoint = createAcpEndpoint({ token: "s3cret", onConnection: (transport) => serveAgent(transport, testAgent) });
    const server = createServer(endpoint.node);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    context.onTestFinished(async () => {
      await endpoint.close();
      await new Promise((resolve) => server.close(resolve));
    });
    const transport = connectHttp(`http://127.0.0.1:${(server.address() as AddressInfo).port}/acp`);
    await expect(connectAgent(transport, { protocolVersion: 1 })).rejects.toThrow();
    expect((await transport.closed).reason).toMatch(/HTTP 401: .*missing or wrong bearer token/);
  });

  it("RT20: when the endpoint closes the connection, the transport closes with the endpoint's reason (its streams' last comment line)", async (context) => {
    const endpoint = createAcpEndpoint({ onConnection: (transport) => serveAgent(transport, testAgent) });
    const server = createServer(endpoint.node);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    context.onTestFinished(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const transport = connectHttp(`http://127.0.0.1:${(server.address() as AddressInfo).port}/acp`);
    const agent = await connectAgent(transport, { protocolVersion: 1 });
    await agent.newSession({ cwd: "/tmp" });
    await endpoint.close("maintenance window");
    expect((await transport.closed).reason).toBe("the connection stream ended: maintenance window");
  });

  it("names its connection once initialize succeeded (the endpoint's Acp-Connection-Id), not before", async (context) => {
    const url = await start(context);
    const transport = connectHttp(url);
    expect(transport.connection).toBeUndefined();
    const agent = await connectAgent(transport, { protocolVersion: 1 });
    expect(transport.connection).toMatch(/^[0-9a-f-]{36}$/);
    await agent.close();
  });

  it("refuses what it cannot carry: a URL that is not http(s), a first message that is not initialize, a batch", async () => {
    expect(() => connectHttp("ws://127.0.0.1/acp")).toThrow(/not an http\(s\) endpoint URL/);
    const transport = connectHttp("http://127.0.0.1:9/acp");
    transport.start({ onMessage: () => {}, onTransportError: () => {} });
    await expect(transport.send({ jsonrpc: "2.0", id: 1, method: "session/list", params: {} } as never)).rejects.toThrow(/must be the initialize request/);
    await expect(transport.send([] as never)).rejects.toThrow(/no JSON-RPC batches/);
    await transport.close();
  });
});

describe("MemoryCookieStore", () => {
  it("keeps name=value pairs, replaces by name, and forgets a cookie whose Max-Age is 0 or whose Expires has passed", () => {
    const store = new MemoryCookieStore();
    expect(store.header()).toBeUndefined();
    store.store(["a=1; Path=/", "b=2; Max-Age=3600"]);
    expect(store.header()).toBe("a=1; b=2");
    store.store(["a=3"]);
    expect(store.header()).toBe("a=3; b=2");
    store.store(["b=gone; Max-Age=0", "a=old; Expires=Thu, 01 Jan 1970 00:00:00 GMT"]);
    expect(store.header()).toBeUndefined();
    store.store(["=novalue", "noequals", `big=${"x".repeat(5000)}`]);
    expect(store.header()).toBeUndefined();
  });
});
