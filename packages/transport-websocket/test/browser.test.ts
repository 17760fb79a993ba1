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
    const { chromium } = await import("playwright-core");
    const { listener } = await echoServer({ allowedOrigins: "any" });
    const { code } = bundleBrowserEntry("iife");
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    try {
      const page = await browser.newPage();
      await page.addScriptTag({ content: code });
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
      await browser.close();
    }
  });
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
