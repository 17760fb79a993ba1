// The inspector's server on a real port: the page and its headers, the guard on real HTTP and
// WebSocket upgrades, the relay to a fresh agent per page connection, and the tap's byte-exact
// proxy with its record served to pages.
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { rawHttpStatus, WEBSOCKET_UPGRADE_HEADERS } from "@acpkit/test-support/raw-http";
import { startInspector, startTap, type Inspector } from "../src/index.js";

const ECHO_AGENT = fileURLToPath(new URL("fixtures/echo-agent.mjs", import.meta.url));
const running: Inspector[] = [];

afterEach(async () => {
  for (const inspector of running.splice(0)) await inspector.close();
});

async function inspector(options: { maxConnections?: number } = {}): Promise<Inspector> {
  const started = await startInspector({ command: process.execPath, args: [ECHO_AGENT], ...options });
  running.push(started);
  return started;
}

/** Open a WebSocket; resolves with the open socket, or the HTTP status the upgrade was refused with. */
function upgrade(url: string, headers: Record<string, string> = {}): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once("open", () => resolve(socket));
    socket.once("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once("error", reject);
  });
}

function nextMessage(socket: WebSocket): Promise<string> {
  return new Promise((resolve) => socket.once("message", (data) => resolve(String(data))));
}

describe("startInspector", () => {
  it("prints a loopback URL with a fresh token each launch", async () => {
    const a = await inspector();
    const b = await inspector();
    expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
  });

  it("serves the page without the token, locked down, and nothing else", async () => {
    const { port } = await inspector();
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script type="module" src="/app.js">');
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("content-security-policy")).toContain("connect-src 'self'");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect((await fetch(`http://127.0.0.1:${port}/app.js`)).headers.get("content-type")).toMatch(/javascript/);
    expect((await fetch(`http://127.0.0.1:${port}/../package.json`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/src/server/guard.ts`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/`, { method: "POST" })).status).toBe(405);
  });

  it("refuses the API without the token (401) and from a foreign Host (403)", async () => {
    const { port, token } = await inspector();
    expect((await fetch(`http://127.0.0.1:${port}/api/info`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/api/info?token=nope`)).status).toBe(401);
    const info = await fetch(`http://127.0.0.1:${port}/api/info?token=${token}`);
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ mode: "inspect", agentCommand: [process.execPath, ECHO_AGENT], protocolVersion: 2 });
    // fetch cannot forge Host; a raw request can (what a DNS-rebound page's requests look like).
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve) => {
      request({ host: "127.0.0.1", port, path: `/api/info?token=${token}`, headers: { host: `rebound.example:${port}` } }, (response) =>
        resolve(response.statusCode!),
      ).end();
    });
    expect(status).toBe(403);
  });

  it("refuses WebSocket upgrades without the token (401) or from a foreign Origin (403), and relays with both", async () => {
    const { port, token } = await inspector();
    expect(await upgrade(`ws://127.0.0.1:${port}/acp`)).toBe(401);
    expect(await upgrade(`ws://127.0.0.1:${port}/acp?token=${token}`, { origin: "http://evil.example" })).toBe(403);
    expect(await upgrade(`ws://127.0.0.1:${port}/elsewhere?token=${token}`)).toBe(404);
    const socket = await upgrade(`ws://127.0.0.1:${port}/acp?token=${token}`, { origin: `http://127.0.0.1:${port}` });
    expect(socket).toBeInstanceOf(WebSocket);
    const ws = socket as WebSocket;
    const answer = nextMessage(ws);
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping", params: { n: 1 } }));
    expect(JSON.parse(await answer)).toEqual({ jsonrpc: "2.0", id: 7, result: { echoed: { n: 1 } } });
    ws.close();
  });

  // `new URL("//", base)` throws: in the request or upgrade listener that ended the inspector,
  // agents and all, for one request line nobody had to authenticate for.
  it("answers a request target that is not a valid path with 400, page and upgrade alike, and goes on serving", async () => {
    const { port, token } = await inspector();
    for (const target of ["//", "//[", `//x:99999?token=${token}`]) {
      expect(await rawHttpStatus(port, target), target).toBe("HTTP/1.1 400 Bad Request");
      expect(await rawHttpStatus(port, target, WEBSOCKET_UPGRADE_HEADERS), `upgrade ${target}`).toBe("HTTP/1.1 400 Bad Request");
    }
    expect((await fetch(`http://127.0.0.1:${port}/api/info?token=${token}`)).status).toBe(200);
  });

  it("runs at most maxConnections agents and closes the next connection with 1013", async () => {
    const { port, token } = await inspector({ maxConnections: 1 });
    const first = (await upgrade(`ws://127.0.0.1:${port}/acp?token=${token}`)) as WebSocket;
    const second = (await upgrade(`ws://127.0.0.1:${port}/acp?token=${token}`)) as WebSocket;
    const code = await new Promise<number>((resolve) => second.once("close", (closeCode) => resolve(closeCode)));
    expect(code).toBe(1013);
    first.close();
  });

  it("needs a chosen token to bind a non-loopback host", async () => {
    await expect(startInspector({ command: "true", host: "0.0.0.0" })).rejects.toThrow(/needs a token/);
  });
});

describe("startTap", () => {
  it("relays bytes unchanged both ways and serves the record to a page", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const received: Buffer[] = [];
    output.on("data", (chunk: Buffer) => received.push(chunk));
    const tap = await startTap({ command: process.execPath, args: [ECHO_AGENT], input, output });
    running.push(tap);
    // The client writes a request split across chunks, then a line that is not JSON.
    input.write('{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"é');
    input.write('"}}\nhello\n');
    await expect.poll(() => Buffer.concat(received).toString("utf8").split("\n").length, { timeout: 5000 }).toBe(3);
    expect(Buffer.concat(received).toString("utf8")).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"echoed":{"s":"é"}}}\n{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n',
    );

    // Listening before the socket opens: the record arrives right behind the upgrade answer.
    const page = new WebSocket(`ws://127.0.0.1:${tap.port}/events?token=${tap.token}`);
    const events: Record<string, unknown>[] = [];
    page.on("message", (data) => events.push(JSON.parse(String(data))));
    await expect.poll(() => events.filter((event) => event.type === "message").length, { timeout: 5000 }).toBe(4);
    expect(events.filter((event) => event.type === "message").map((event) => [event.direction, event.text])).toEqual([
      ["client_to_agent", '{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"é"}}'],
      ["client_to_agent", "hello"],
      ["agent_to_client", '{"jsonrpc":"2.0","id":1,"result":{"echoed":{"s":"é"}}}'],
      ["agent_to_client", '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'],
    ]);
    expect(events[0]).toMatchObject({ type: "status", message: expect.stringContaining("started") });

    input.end();
    expect(await tap.agentExit).toEqual({ code: 0, signal: null });
    expect(await upgrade(`ws://127.0.0.1:${tap.port}/events`)).toBe(401);
    page.close();
  });

  it("reports an agent that cannot start", async () => {
    const tap = await startTap({ command: "/nonexistent/agent", input: new PassThrough(), output: new PassThrough() });
    running.push(tap);
    expect(await tap.agentExit).toMatchObject({ code: null, error: expect.stringContaining("ENOENT") });
  });
});
