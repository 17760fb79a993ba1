// The browser entry (@acpkit/transport-websocket/browser): it must bundle for a browser with no
// Node built-in, and it must work against a real server. In Node the standard WebSocket API comes
// from `ws` (passed as options.WebSocket); in Chromium (when /usr/bin/chromium exists) it is the
// browser's own.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Connection } from "@acpkit/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { runEchoPeer } from "@acpkit/test-support/fixtures/echo-peer";
import { defineTransportSuite, RawClient, type ConnectionConstructor } from "@acpkit/test-support/transport-suite";
import { connect as browserConnect, type BrowserConnectOptions } from "../src/browser.js";
import { listen, type ListenOptions, type WebSocketListener } from "../src/index.js";

const packageDir = resolve(import.meta.dirname, "..");
const esbuild = resolve(packageDir, "../../node_modules/.bin/esbuild");
const CHROMIUM = "/usr/bin/chromium";
const StandardWebSocket = WebSocket as unknown as NonNullable<BrowserConnectOptions["WebSocket"]>;

const outDir = mkdtempSync(join(tmpdir(), "acpkit-ws-browser-"));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** Bundle the browser entry for the browser platform; esbuild fails on any Node built-in. */
function bundleBrowserEntry(format: "esm" | "iife"): { code: string; inputs: string[] } {
  const outfile = join(outDir, `browser.${format}.js`);
  const metafile = join(outDir, `meta.${format}.json`);
  execFileSync(
    esbuild,
    [
      join(packageDir, "src/browser.ts"),
      "--bundle",
      "--platform=browser",
      `--format=${format}`,
      "--global-name=AcpkitWebSocket",
      `--outfile=${outfile}`,
      `--metafile=${metafile}`,
      "--log-level=error",
    ],
    { cwd: packageDir, stdio: "pipe" },
  );
  const meta = JSON.parse(readFileSync(metafile, "utf8")) as { inputs: Record<string, unknown> };
  return { code: readFileSync(outfile, "utf8"), inputs: Object.keys(meta.inputs) };
}

const listeners: WebSocketListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

async function echoServer(options: Partial<ListenOptions> = {}) {
  let accepted: ((request: import("node:http").IncomingMessage) => void) | undefined;
  const requests: import("node:http").IncomingMessage[] = [];
  const listener = await listen({
    ...options,
    onConnection(transport, request) {
      runEchoPeer(transport);
      requests.push(request);
      accepted?.(request);
    },
  });
  listeners.push(listener);
  const nextRequest = async () => {
    while (requests.length === 0) await new Promise<void>((resolve) => (accepted = () => resolve()));
    return requests.shift()!;
  };
  return { listener, nextRequest };
}

/** Headless Chromium with a page that has the browser entry loaded as `globalThis.AcpkitWebSocket`. */
async function openBrowserPage(): Promise<{ page: import("playwright-core").Page; close: () => Promise<void> }> {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  const page = await browser.newPage();
  await page.addScriptTag({ content: bundleBrowserEntry("iife").code });
  return { page, close: () => browser.close() };
}

describe("browser entry", () => {
  it("bundles for the browser platform without any Node built-in or `ws`", () => {
    const { code, inputs } = bundleBrowserEntry("esm");
    expect(inputs.some((input) => input.endsWith("src/browser.ts"))).toBe(true);
    expect(inputs.filter((input) => input.startsWith("node:") || input.includes("/ws/"))).toEqual([]);
    expect(code).not.toMatch(/from\s*["']node:|require\(["']/);
  });

  it("connects with the standard WebSocket API, sends the token as access_token, and closes with 1000", async () => {
    const { listener } = await echoServer({ token: "browser-secret" });
    await expect(browserConnect(listener.url, { WebSocket: StandardWebSocket })).rejects.toMatchObject({
      code: "ConnectionClosed",
      message: expect.stringMatching(/401/),
    });
    const transport = await browserConnect(listener.url, { WebSocket: StandardWebSocket, token: "browser-secret" });
    const client = new RawClient(transport);
    expect(await client.request("echo", { from: "browser entry" })).toEqual({ from: "browser entry" });
    await transport.close("bye");
    expect(await transport.closed).toMatchObject({ closeCode: 1000 });
  });

  it("without any WebSocket implementation, rejects with a clear Unsupported error", async () => {
    const had = "WebSocket" in globalThis;
    if (had) return; // Node ≥ 22 has a global WebSocket; the check below is about runtimes without one
    await expect(browserConnect("ws://127.0.0.1:1/acp")).rejects.toMatchObject({
      code: "Unsupported",
      message: expect.stringMatching(/globalThis\.WebSocket is missing/),
    });
  });

  it.skipIf(!existsSync(CHROMIUM))("works in Chromium against a real server (needs /usr/bin/chromium)", async () => {
    const { listener } = await echoServer({ allowedOrigins: "any" });
    const { page, close } = await openBrowserPage();
    try {
      const result = await page.evaluate(async (url) => {
        const api = (globalThis as any).AcpkitWebSocket;
        const transport = await api.connect(url);
        const answer = new Promise((resolve) => transport.start({ onMessage: (text: string) => resolve(JSON.parse(text)), onTransportError() {} }));
        await transport.send({ jsonrpc: "2.0", id: 1, method: "echo", params: { text: "from Chromium €😀" } });
        const reply = await answer;
        await transport.close();
        return { reply, closed: await transport.closed };
      }, listener.url);
      expect(result.reply).toEqual({ jsonrpc: "2.0", id: 1, result: { text: "from Chromium €😀" } });
      expect(result.closed).toMatchObject({ closeCode: 1000 });
    } finally {
      await close();
    }
  });
});

/**
 * A server that, on `{"method":"flood"}`, sends `count` notifications of `size` characters as fast as
 * `ws` takes them; `buffered()` is what it holds unsent (the page's reading shows there).
 */
async function floodServer(count: number, size: number): Promise<{ url: string; buffered: () => number; flooded: () => boolean; close: () => Promise<void> }> {
  const { WebSocketServer } = await import("ws");
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  let socket: import("ws").WebSocket | undefined;
  let flooded = false;
  server.on("connection", (connected) => {
    socket = connected;
    connected.on("message", (data) => {
      if (!String(data).includes('"flood"')) return;
      const filler = "x".repeat(size);
      for (let n = 0; n < count; n++) connected.send(`{"jsonrpc":"2.0","method":"_flood","params":{"n":${n},"filler":"${filler}"}}`);
      flooded = true;
    });
  });
  const { port } = server.address() as import("node:net").AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/acp`,
    buffered: () => socket?.bufferedAmount ?? 0,
    flooded: () => flooded,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!existsSync(CHROMIUM))("browser entry in Chromium: reading stops while paused (needs /usr/bin/chromium)", () => {
  const COUNT = 1024;
  const SIZE = 64 * 1024; // 64 MiB in all, more than the kernel's and the browser's buffers hold

  /** Connect from a page (over WebSocketStream, or the standard WebSocket with `classic`), pause, ask for the flood. */
  async function pausedFlood(classic: boolean) {
    const server = await floodServer(COUNT, SIZE);
    const { page, close: closeBrowser } = await openBrowserPage();
    await page.evaluate(
      async ({ url, classic }) => {
        const api = (globalThis as any).AcpkitWebSocket;
        const transport = await api.connect(url, classic ? { WebSocketStream: false } : {});
        const seen: number[] = [];
        (globalThis as any).flood = { transport, seen };
        transport.start({ onMessage: (text: string) => seen.push(JSON.parse(text).params.n), onTransportError() {} });
        transport.pause();
        await transport.send({ jsonrpc: "2.0", method: "flood" });
      },
      { url: server.url, classic },
    );
    const seenCount = () => page.evaluate(() => (globalThis as any).flood.seen.length as number);
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    /** Once the flood is sent: until the server's unsent bytes hold still for 300 ms (what the page and the kernel would take is taken). */
    const settle = async () => {
      for (let i = 0; i < 100 && !server.flooded(); i++) await sleep(50);
      expect(server.flooded(), "the server sent the flood").toBe(true);
      let last = server.buffered();
      for (let still = 0, i = 0; still < 3 && i < 100; i++) {
        await sleep(100);
        const now = server.buffered();
        still = now === last ? still + 1 : 0;
        last = now;
      }
    };
    return {
      server,
      seenCount,
      settle,
      async resumeAndCollect() {
        return page.evaluate(async (count) => {
          const { transport, seen } = (globalThis as any).flood;
          transport.resume();
          while (seen.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
          await transport.close();
          return seen as number[];
        }, COUNT);
      },
      async close() {
        await closeBrowser();
        await server.close();
      },
    };
  }

  it("over WebSocketStream, a paused transport leaves the agent's messages in the agent, and resume() reads them all in order", async () => {
    const flood = await pausedFlood(false);
    try {
      await flood.settle();
      // Most of the 64 MiB is still in the server: the page stopped reading.
      expect(flood.server.buffered()).toBeGreaterThan(32 * 1024 * 1024);
      expect(await flood.seenCount()).toBeLessThan(COUNT / 2);
      const seen = await flood.resumeAndCollect();
      expect(seen).toEqual(Array.from({ length: COUNT }, (_, n) => n));
      expect(flood.server.buffered()).toBe(0);
    } finally {
      await flood.close();
    }
  }, 60_000);

  it("over WebSocketStream, a refused handshake rejects with ConnectionClosed naming the address, never the token", async () => {
    const { listener } = await echoServer({ token: "page-secret", allowedOrigins: "any" });
    const { page, close } = await openBrowserPage();
    try {
      const outcome = await page.evaluate(async (url) => {
        const api = (globalThis as any).AcpkitWebSocket;
        const failure = (error: any) => ({ name: error.name, code: error.code, message: String(error.message) });
        const wrongToken = await api.connect(url, { token: "wrong" }).then(() => undefined, failure);
        const nobody = await api.connect("ws://127.0.0.1:1/acp").then(() => undefined, failure);
        // A token written into the URL by hand is not quoted either.
        const inUrl = await api.connect(`${url}?access_token=typed-secret`).then(() => undefined, failure);
        const unparsable = await api.connect("::::", { token: "page-secret" }).then(() => undefined, failure);
        const transport = await api.connect(url, { token: "page-secret" });
        transport.start({ onMessage() {}, onTransportError() {} });
        await transport.close("done");
        return { wrongToken, nobody, inUrl, unparsable, closed: await transport.closed, stream: typeof (globalThis as any).WebSocketStream };
      }, listener.url);
      expect(outcome.inUrl).toMatchObject({ code: "ConnectionClosed", message: expect.stringContaining(`${listener.url}?access_token=…`) });
      expect(outcome.inUrl!.message).not.toContain("typed-secret");
      expect(outcome.unparsable).toMatchObject({ code: "InvalidArgument", message: 'could not open WebSocket to "::::": not a URL' });
      expect(outcome.stream).toBe("function");
      expect(outcome.wrongToken).toMatchObject({ name: "AcpError", code: "ConnectionClosed" });
      expect(outcome.wrongToken!.message).toContain(`could not open WebSocket to ${listener.url}`);
      expect(outcome.wrongToken!.message).not.toContain("wrong");
      expect(outcome.nobody).toMatchObject({ code: "ConnectionClosed", message: expect.stringContaining("could not open WebSocket to ws://127.0.0.1:1/acp") });
      expect(outcome.closed).toMatchObject({ closeCode: 1000 });
    } finally {
      await close();
    }
  });

  it("over WebSocketStream, the server's close (or its sudden end) reaches the transport with its code and reason, and later sends reject", async () => {
    const { WebSocketServer } = await import("ws");
    const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    server.on("connection", (socket) =>
      socket.on("message", (data) => (String(data).includes("_kill") ? socket.terminate() : socket.close(4001, "server says bye"))),
    );
    const { port } = server.address() as import("node:net").AddressInfo;
    const { page, close } = await openBrowserPage();
    try {
      const outcome = await page.evaluate(async (url) => {
        const api = (globalThis as any).AcpkitWebSocket;
        const transport = await api.connect(url);
        transport.start({ onMessage() {}, onTransportError() {} });
        await transport.send({ jsonrpc: "2.0", method: "_bye" });
        const closed = await transport.closed;
        const later = await transport.send({ jsonrpc: "2.0", method: "_late" }).then(
          () => "sent",
          (error: any) => error.code,
        );
        const killed = await api.connect(url);
        killed.start({ onMessage() {}, onTransportError() {} });
        await killed.send({ jsonrpc: "2.0", method: "_kill" });
        const { closeCode, reason } = await killed.closed;
        return { closed, later, abrupt: { closeCode, reason } };
      }, `ws://127.0.0.1:${port}/acp`);
      expect(outcome.closed).toMatchObject({ closeCode: 4001, reason: expect.stringContaining("server says bye") });
      expect(outcome.later).toBe("ConnectionClosed");
      expect(outcome.abrupt).toMatchObject({ closeCode: 1006, reason: expect.stringContaining("abnormal closure") });
    } finally {
      await close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("leaves an experimental WebSocketStream (with `connection`, not `opened`) alone and uses the standard WebSocket", async () => {
    const { listener } = await echoServer({ allowedOrigins: "any" });
    const { page, close } = await openBrowserPage();
    try {
      const reply = await page.evaluate(async (url) => {
        (globalThis as any).WebSocketStream = class {
          constructor() {
            throw new Error("the experimental WebSocketStream must not be used");
          }
          get connection() {
            return undefined;
          }
        };
        const transport = await (globalThis as any).AcpkitWebSocket.connect(url);
        const answer = new Promise((resolve) => transport.start({ onMessage: (text: string) => resolve(JSON.parse(text)), onTransportError() {} }));
        await transport.send({ jsonrpc: "2.0", id: 7, method: "echo", params: { via: "WebSocket" } });
        const result = await answer;
        await transport.close();
        return result;
      }, listener.url);
      expect(reply).toEqual({ jsonrpc: "2.0", id: 7, result: { via: "WebSocket" } });
    } finally {
      await close();
    }
  });

  it("over the standard WebSocket (WebSocketStream: false), the page cannot stop reading: everything arrives while paused", async () => {
    const flood = await pausedFlood(true);
    try {
      await flood.settle();
      // Paused, and still every message arrived: nothing is left in the server.
      await expect.poll(flood.seenCount, { timeout: 30_000 }).toBe(COUNT);
      await expect.poll(() => flood.server.buffered()).toBe(0);
      const seen = await flood.resumeAndCollect();
      expect(seen).toEqual(Array.from({ length: COUNT }, (_, n) => n));
    } finally {
      await flood.close();
    }
  }, 60_000);
});

defineTransportSuite(
  "WebSocket browser entry (standard WebSocket API via ws)",
  async (options) => {
    const server = await echoServer({ maxMessageSize: options.maxMessageSize });
    const local = await browserConnect(server.listener.url, { WebSocket: StandardWebSocket, maxMessageSize: options.maxMessageSize });
    const request = await server.nextRequest();
    return {
      local,
      async cleanup() {
        await local.close();
      },
      killPeer() {
        request.socket.destroy();
        return { closeCode: 1006 };
      },
    };
  },
  { Connection: Connection as unknown as ConnectionConstructor },
);
