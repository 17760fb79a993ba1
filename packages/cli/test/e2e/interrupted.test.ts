// Any acpkit command that started an agent (or a client) stops it when it is itself interrupted
// or terminated, and exits 130 (SIGINT) or 143 (SIGTERM). The agent here is the worst case seen in
// the field: a launcher that ignores EOF and SIGTERM, with a native child that does the same, both
// in the process group spawnAgent gives the agent (out of reach of the terminal's Ctrl-C).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isRunning } from "@acpkit/test-support/processes";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { BIN } from "../support/cli.js";

const launcher = fileURLToPath(new URL("../fixtures/stubborn-launcher.mjs", import.meta.url));

async function waitFor<T>(read: () => T | undefined, what: string, limitMs = 30_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let dir: string | undefined;
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function startCli(argv: string[], pidFile: string): { cli: ChildProcess; exit: Promise<{ code: number | null; signal: string | null }>; stderr: () => string } {
  const cli = spawn(process.execPath, [BIN, ...argv], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ACPKIT_TEST_PID_FILE: pidFile } });
  let stderr = "";
  cli.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  cli.stdout!.resume();
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => cli.once("exit", (code, signal) => resolve({ code, signal })));
  return { cli, exit, stderr: () => stderr };
}

function readPids(pidFile: string): { launcher: number; child: number } | undefined {
  if (!existsSync(pidFile)) return undefined;
  const text = readFileSync(pidFile, "utf8");
  return text === "" ? undefined : (JSON.parse(text) as { launcher: number; child: number });
}

const AGENT = [process.execPath, launcher];

describe.skipIf(process.platform === "win32")("an interrupted acpkit stops what it started", () => {
  it.each([
    { name: "run", argv: ["run", "--prompt", "hi", "--", ...AGENT], signal: "SIGINT", expected: 130 },
    { name: "run", argv: ["run", "--prompt", "hi", "--", ...AGENT], signal: "SIGTERM", expected: 143 },
    { name: "check agent", argv: ["check", "agent", "--timeout", "600000", "--", ...AGENT], signal: "SIGTERM", expected: 143 },
    { name: "check agent", argv: ["check", "agent", "--timeout", "600000", "--", ...AGENT], signal: "SIGINT", expected: 130 },
    { name: "sessions", argv: ["sessions", "--", ...AGENT], signal: "SIGTERM", expected: 143 },
    { name: "inspect --tap", argv: ["inspect", "--tap", "--no-open", "--", ...AGENT], signal: "SIGTERM", expected: 143 },
  ] as const)("$name: $signal ends the launcher and its child, exit $expected", async ({ argv, signal, expected }) => {
    dir = mkdtempSync(join(tmpdir(), "acpkit-interrupted-"));
    const pidFile = join(dir, "pids.json");
    const { cli, exit, stderr } = startCli([...argv], pidFile);
    const pids = await waitFor(() => readPids(pidFile), "the launcher's pid file");
    leftovers.push(pids.launcher, pids.child);
    expect(isRunning(pids.launcher) && isRunning(pids.child)).toBe(true);
    cli.kill(signal);
    const result = await exit;
    expect(result, stderr()).toEqual({ code: expected, signal: null });
    expect(stderr()).toContain(`${signal}: stopping the processes it started`);
    // stopAgentsOnSignal waits for the group to go before it exits; reaping may lag a moment.
    await waitFor(() => (isRunning(pids.launcher) || isRunning(pids.child) ? undefined : true), "the launcher and its child to end");
  });

  it("bridge: SIGTERM ends the agent a WebSocket connection started, exit 143", async () => {
    dir = mkdtempSync(join(tmpdir(), "acpkit-interrupted-"));
    const pidFile = join(dir, "pids.json");
    const { cli, exit, stderr } = startCli(["bridge", "--listen", "127.0.0.1:0", "--", ...AGENT], pidFile);
    let stdout = "";
    cli.stdout!.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    const url = await waitFor(() => (stdout.includes("\n") ? stdout.slice(0, stdout.indexOf("\n")) : undefined), "the bridge's URL");
    const socket = new WebSocket(url);
    socket.on("error", () => {});
    const pids = await waitFor(() => readPids(pidFile), "the launcher's pid file");
    leftovers.push(pids.launcher, pids.child);
    cli.kill("SIGTERM");
    expect(await exit, stderr()).toEqual({ code: 143, signal: null });
    await waitFor(() => (isRunning(pids.launcher) || isRunning(pids.child) ? undefined : true), "the launcher and its child to end");
    socket.terminate();
  });
});
