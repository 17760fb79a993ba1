// What an `acpkit` process loads before it works (docs/performance.md, step 20): it turns on
// Node's on-disk compile cache (Node ≥ 22.1) before its commands load, and a command whose agent is
// a command line never loads the WebSocket transport or `ws`. A preloaded spy
// (fixtures/startup-spy.mjs) logs every module the CLI resolves and provides the compile-cache
// function, which the Node 20 running the tests does not have.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { BUILTIN_AGENT, runCli, type CliResult } from "./support/cli.js";

const SPY = fileURLToPath(new URL("./fixtures/startup-spy.mjs", import.meta.url));

describe("what acpkit loads as it starts", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `acpkit args…` with the spy; returns the result and the spy's log, line by line. */
  async function runSpied(args: readonly string[]): Promise<{ result: CliResult; lines: string[] }> {
    expect(existsSync(SPY)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), "acpkit-startup-"));
    dirs.push(dir);
    const log = join(dir, "log.txt");
    const result = await runCli(args, { env: { NODE_OPTIONS: `--import=${pathToFileURL(SPY).href}`, ACPKIT_TEST_STARTUP_LOG: log } });
    const lines = readFileSync(log, "utf8").trim().split("\n");
    // The log is the spy's own: at least the executable itself was resolved through it.
    expect(lines.some((line) => line.startsWith("resolve ") && line.endsWith("/dist/bin.js"))).toBe(true);
    return { result, lines };
  }

  it("asks for Node's compile cache once, leaving the directory to Node, before any command module loads", async () => {
    const { result, lines } = await runSpied(["--version"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\d+\.\d+\.\d+/);

    const calls = lines.filter((line) => line.startsWith("enableCompileCache"));
    // No directory argument: NODE_COMPILE_CACHE, when the user sets it, stays in charge.
    expect(calls).toEqual(["enableCompileCache []"]);
    const asked = lines.indexOf(calls[0]!);
    const main = lines.findIndex((line) => line.startsWith("resolve ") && line.endsWith("/dist/main.js"));
    expect(main).toBeGreaterThan(-1);
    expect(asked).toBeLessThan(main);
    // Before the call, only the executable and the module that makes the call were loaded.
    const before = lines.slice(0, asked).filter((line) => !line.startsWith("resolve node:"));
    expect(before.map((line) => line.replace(/^resolve .*\/dist\//, ""))).toEqual(["bin.js", "compile-cache.js"]);
  });

  it("runs a turn with a command-line agent without loading the WebSocket transport or ws", async () => {
    const { result, lines } = await runSpied(["run", "--prompt", "hello", "--", ...BUILTIN_AGENT]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("end_turn");
    // The run did load the client and the stdio transport, so the log covers the command's graph.
    // (The built-in agent inherits NODE_OPTIONS, so its process is logged too; it needs no ws either.)
    expect(lines.some((line) => line.includes("/transport-stdio/"))).toBe(true);
    expect(lines.some((line) => line.includes("/client/dist/"))).toBe(true);
    expect(lines.filter((line) => line.includes("transport-websocket") || /\/ws\/|ws@/.test(line))).toEqual([]);
  });

  it("loads the checker of agents without ws until a check targets a WebSocket", async () => {
    const { result, lines } = await runSpied(["check", "agent", "--help"]);
    expect(result.code).toBe(0);
    expect(lines.some((line) => line.endsWith("/dist/check/agent-check.js"))).toBe(true);
    expect(lines.filter((line) => line.includes("transport-websocket") || /\/ws\/|ws@/.test(line) || line.endsWith("raw-ws-agent.js"))).toEqual([]);
  });
});
