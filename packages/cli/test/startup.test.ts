// What an `acpkit` process loads before it works (docs/performance.md, "Compile cache"): it turns on
// Node's on-disk compile cache (Node ≥ 22.1) before its commands load, and a command whose agent is
// a command line never loads the WebSocket transport or `ws`. The CLI runs under the shared resolve
// hook (runRecordingLoads), with a stub of the compile-cache function preloaded
// (fixtures/compile-cache-stub.mjs), since the Node 20 running the tests does not have it.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runRecordingLoads } from "@acpkit/test-support/record-loads";
import { describe, expect, it } from "vitest";
import { BIN, BUILTIN_AGENT } from "./support/cli.js";

const STUB = fileURLToPath(new URL("./fixtures/compile-cache-stub.mjs", import.meta.url));
const CACHE_CALL = "call:module.enableCompileCache";

/** Runs `acpkit args…` (which must exit 0) under the hook: its stdout, every URL it loaded in order, and the compile-cache calls' arguments. */
async function runRecorded(args: readonly string[]): Promise<{ stdout: string; urls: string[]; cacheCallArgs: string[] }> {
  expect(existsSync(STUB)).toBe(true);
  const { stdout, edges } = await runRecordingLoads(BIN, args, { NODE_OPTIONS: `--import=${pathToFileURL(STUB).href}`, NO_COLOR: "1" });
  const urls = edges.map((edge) => edge.url);
  // The log covers the CLI itself: at least the executable was resolved through the hook.
  expect(urls.some((url) => url.endsWith("/dist/bin.js"))).toBe(true);
  const cacheCallArgs = edges.filter((edge) => edge.url === CACHE_CALL).map((edge) => edge.specifier);
  return { stdout, urls, cacheCallArgs };
}

const isWebSocketCode = (url: string) => url.includes("transport-websocket") || /\/ws\/|ws@/.test(url) || url.endsWith("raw-ws-agent.js");

describe("what acpkit loads as it starts", () => {
  it("asks for Node's compile cache once, leaving the directory to Node, before any command module loads", async () => {
    const { stdout, urls, cacheCallArgs } = await runRecorded(["--version"]);
    expect(stdout).toMatch(/\d+\.\d+\.\d+/);
    // Once, with no directory argument: NODE_COMPILE_CACHE, when the user sets it, stays in charge.
    expect(cacheCallArgs).toEqual(["[]"]);
    const asked = urls.indexOf(CACHE_CALL);
    const main = urls.findIndex((url) => url.endsWith("/dist/main.js"));
    expect(main).toBeGreaterThan(-1);
    expect(asked).toBeLessThan(main);
    // Before the call, only the executable and the module that makes the call were loaded.
    const before = urls.slice(0, asked).filter((url) => url.startsWith("file:") && !url.startsWith(pathToFileURL(STUB).href));
    expect(before.map((url) => url.replace(/^.*\/dist\//, ""))).toEqual(["bin.js", "compile-cache.js"]);
  });

  it("runs a turn with a command-line agent without loading the WebSocket transport or ws", async () => {
    const { stdout, urls } = await runRecorded(["run", "--prompt", "hello", "--", ...BUILTIN_AGENT]);
    expect(stdout).toContain("end_turn");
    // The run did load the client and the stdio transport, so the log covers the command's graph.
    expect(urls.some((url) => url.includes("/transport-stdio/"))).toBe(true);
    expect(urls.some((url) => url.includes("/client/dist/"))).toBe(true);
    expect(urls.filter(isWebSocketCode)).toEqual([]);
  });

  it("loads the checker of agents without ws until a check targets a WebSocket", async () => {
    const { urls } = await runRecorded(["check", "agent", "--help"]);
    expect(urls.some((url) => url.endsWith("/conformance/dist/agent/check-agent.js"))).toBe(true);
    expect(urls.filter(isWebSocketCode)).toEqual([]);
  });
});
