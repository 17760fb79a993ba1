// Runs every example the way its README says: the minimal agent under the example client and under
// `acpkit run`, and the WebSocket agent driven from a real Chromium page by the browser client.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const examples = join(dirname(fileURLToPath(import.meta.url)), "..");
const cliBin = join(examples, "..", "packages", "cli", "dist", "bin.js");
const CHROMIUM = "/usr/bin/chromium";

describe("stdio examples", () => {
  it("client.mjs drives minimal-agent.mjs through one v2 turn", async () => {
    expect(existsSync(join(examples, "minimal-agent.mjs"))).toBe(true);
    const { stdout } = await run(process.execPath, ["client.mjs", "count these four words"], { cwd: examples });
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toBe("connected: minimal-agent, protocol v2");
    expect(lines.filter((line) => line.startsWith("update: "))).toEqual([
      "update: plan_update",
      "update: tool_call_update",
      "update: tool_call_update",
      "update: plan_update",
      "update: agent_message",
    ]);
    expect(lines.slice(-3)).toEqual(["stop reason: end_turn", 'answer: You said "count these four words" (4 words).', "tool calls: Count words (completed)"]);
  });

  it("acpkit run drives minimal-agent.mjs over v1 with the same answer", async () => {
    expect(existsSync(cliBin), "the CLI is built").toBe(true);
    const { stdout } = await run(process.execPath, [cliBin, "run", "--json", "--prompt", "one two", "--", process.execPath, "minimal-agent.mjs"], {
      cwd: examples,
    });
    const state = JSON.parse(stdout);
    expect(state.protocolVersion).toBe(1);
    expect(state.turns.map((turn: { stopReason: string }) => turn.stopReason)).toEqual(["end_turn"]);
    const answer = state.messages
      .at(-1)
      .content.map((block: { text: string }) => block.text)
      .join("");
    expect(answer).toBe('You said "one two" (2 words).');
    expect(state.toolCalls).toEqual([expect.objectContaining({ title: "Count words", status: "completed", rawOutput: { words: 2 } })]);
  });
});

describe("WebSocket example", () => {
  const cleanups: (() => unknown)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** Starts websocket/agent.mjs on a free port and resolves with the URL it prints. */
  function startAgent(): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(process.execPath, ["websocket/agent.mjs", "0"], { cwd: examples, stdio: ["ignore", "pipe", "inherit"] });
    cleanups.push(() => child.kill("SIGTERM"));
    return new Promise((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`websocket/agent.mjs exited with ${code}`)));
      child.stdout!.setEncoding("utf8").on("data", (text: string) => {
        const match = /listening (ws:\/\/\S+)/.exec(text);
        if (match) resolve({ child, url: match[1]! });
      });
    });
  }

  // Chromium's start, a bundle and a turn: 16 s while CI ran every package's tests at once on two cores.
  it.skipIf(!existsSync(CHROMIUM))(
    "the browser client runs a turn in Chromium against websocket/agent.mjs (needs /usr/bin/chromium)",
    { timeout: 90_000 },
    async () => {
      const bundle = await build({
        entryPoints: [join(examples, "websocket", "browser-client.mjs")],
        bundle: true,
        format: "esm",
        platform: "browser",
        write: false,
      });
      const script = bundle.outputFiles[0]!.contents;
      const page = readFileSync(join(examples, "websocket", "public", "index.html"));
      const server: Server = createServer((request, response) => {
        const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
        if (path === "/client.js") response.writeHead(200, { "content-type": "text/javascript" }).end(script);
        else if (path === "/" || path === "/index.html") response.writeHead(200, { "content-type": "text/html" }).end(page);
        else response.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      cleanups.push(() => new Promise((resolve) => server.close(resolve)));
      const { url } = await startAgent();

      const { chromium } = await import("playwright-core");
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
      cleanups.push(() => browser.close());
      const tab = await browser.newPage();
      const { port } = server.address() as AddressInfo;
      await tab.goto(`http://127.0.0.1:${port}/index.html?agent=${encodeURIComponent(url)}&prompt=${encodeURIComponent("shout this please")}`);
      await tab.waitForFunction(() => document.title.startsWith("done") || document.title === "failed", undefined, { timeout: 45_000 });
      const log = (await tab.textContent("#log"))!.trim().split("\n");
      expect(log[0]).toBe("connected to websocket-agent over protocol v2");
      expect(log).toContain("answer: SHOUT THIS PLEASE");
      expect(log.at(-1)).toBe("stop reason: end_turn");
      expect(await tab.title()).toBe("done: end_turn");
    },
  );
});

describe("remote example", () => {
  const cleanups: (() => unknown)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** Starts remote/server.mjs on a free port and resolves with the page URL it prints. */
  function startServer(): Promise<string> {
    const child = spawn(process.execPath, ["remote/server.mjs", "0"], { cwd: examples, stdio: ["ignore", "pipe", "inherit"] });
    cleanups.push(() => child.kill("SIGTERM"));
    return new Promise((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`remote/server.mjs exited with ${code}`)));
      child.stdout!.setEncoding("utf8").on("data", (text: string) => {
        const match = /serving: (http:\/\/\S+)/.exec(text);
        if (match) resolve(match[1]!);
      });
    });
  }

  it.skipIf(!existsSync(CHROMIUM))(
    "the page runs a turn with a permission request against the agent at its own /acp, over HTTP+SSE and over WebSocket (needs /usr/bin/chromium)",
    { timeout: 90_000 },
    async () => {
      const url = await startServer();
      const { chromium } = await import("playwright-core");
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
      cleanups.push(() => browser.close());
      for (const [profile, name] of [
        ["http", "HTTP+SSE"],
        ["ws", "WebSocket"],
      ] as const) {
        const tab = await browser.newPage();
        await tab.goto(`${url}?profile=${profile}&prompt=${encodeURIComponent("over the wire")}`);
        await tab.waitForFunction(() => document.title.startsWith("done") || document.title === "failed", undefined, { timeout: 45_000 });
        const log = (await tab.textContent("#log"))!.trim().split("\n");
        expect(log[0]).toBe(`connected to remote-example-agent over ${name}, protocol v2`);
        expect(log).toContain("permission asked: Edit notes.txt → allow");
        expect(log).toContain("answer: OVER THE WIRE");
        expect(log.at(-1)).toBe("stop reason: end_turn");
        await tab.close();
      }
    },
  );
});
