// stopAgentsOnSignal(): one call makes SIGINT/SIGTERM stop every agent spawnAgent started (SIGTERM,
// then SIGKILL after the grace) and exit 128 + the signal number. Real processes: a host process
// (fixtures/signal-host.mjs) and its agent, which ignores SIGTERM.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isRunning } from "@acpkit/test-support/processes";
import { afterEach, describe, expect, it } from "vitest";
import { liveChildProcessCount, stopAgentsOnSignal, stopTrackedChildren, trackChildProcess } from "../src/index.js";

const host = fileURLToPath(new URL("./fixtures/signal-host.mjs", import.meta.url));
const started: number[] = [];

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
});

async function startHost(
  mode: "on" | "off",
): Promise<{ child: ChildProcess; agentPid: number; exit: Promise<{ code: number | null; signal: string | null }> }> {
  const child = spawn(process.execPath, [host, mode], { stdio: ["ignore", "pipe", "inherit"] });
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let out = "";
  const agentPid = await new Promise<number>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (text: string) => {
      out += text;
      if (out.includes("\n")) resolve(Number(out.trim()));
    });
    void exit.then(() => reject(new Error("the host exited before it started its agent")));
  });
  started.push(agentPid, child.pid!);
  return { child, agentPid, exit };
}

describe.skipIf(process.platform === "win32")("stopAgentsOnSignal", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("%s: the agent (which ignores SIGTERM) is stopped and the host exits %i", async (signal, code) => {
    const { child, agentPid, exit } = await startHost("on");
    expect(isRunning(agentPid)).toBe(true);
    child.kill(signal);
    expect(await exit).toEqual({ code, signal: null });
    const deadline = Date.now() + 30_000;
    while (isRunning(agentPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isRunning(agentPid)).toBe(false);
  });

  it("without the call, the host dies by the signal and the agent is left running (what the call is for)", async () => {
    const { child, agentPid, exit } = await startHost("off");
    child.kill("SIGTERM");
    expect(await exit).toEqual({ code: null, signal: "SIGTERM" });
    expect(isRunning(agentPid)).toBe(true);
  });

  it("refuses a grace that is not a non-negative number, naming it", () => {
    expect(() => stopAgentsOnSignal({ graceMs: -1 })).toThrow(/graceMs must be a non-negative number, got -1/);
  });

  it("trackChildProcess, liveChildProcessCount and stopTrackedChildren: a child that ignores SIGTERM is counted, then stopped by SIGKILL after the grace", async () => {
    const before = liveChildProcessCount();
    const child = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); process.stdout.write('ready\\n'); setInterval(() => {}, 1000)"], {
      stdio: ["ignore", "pipe", "ignore"],
      detached: true,
    });
    started.push(child.pid!);
    await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
    const untrack = trackChildProcess(child, { processGroup: true });
    expect(liveChildProcessCount()).toBe(before + 1);
    const exited = new Promise<string | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
    await stopTrackedChildren(200);
    expect(await exited).toBe("SIGKILL");
    expect(liveChildProcessCount()).toBe(before);
    untrack();
  });
});
