// stopAgentsOnSignal(): one call makes SIGINT/SIGTERM stop every agent spawnAgent started (SIGTERM,
// then SIGKILL after the grace) and exit 128 + the signal number. Real processes: a host process
// (fixtures/signal-host.mjs) and its agent, which ignores SIGTERM.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { stopAgentsOnSignal } from "../src/index.js";

const host = fileURLToPath(new URL("./fixtures/signal-host.mjs", import.meta.url));
const started: number[] = [];

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
});

/** Running, not a zombie (signal 0 succeeds on one; /proc tells them apart on Linux). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!existsSync(`/proc/${pid}/stat`)) return process.platform !== "linux";
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

async function startHost(mode: "on" | "off"): Promise<{ child: ChildProcess; agentPid: number; exit: Promise<{ code: number | null; signal: string | null }> }> {
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
    expect(running(agentPid)).toBe(true);
    child.kill(signal);
    expect(await exit).toEqual({ code, signal: null });
    const deadline = Date.now() + 30_000;
    while (running(agentPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running(agentPid)).toBe(false);
  });

  it("without the call, the host dies by the signal and the agent is left running (what the call is for)", async () => {
    const { child, agentPid, exit } = await startHost("off");
    child.kill("SIGTERM");
    expect(await exit).toEqual({ code: null, signal: "SIGTERM" });
    expect(running(agentPid)).toBe(true);
  });

  it("refuses a grace that is not a non-negative number, naming it", () => {
    expect(() => stopAgentsOnSignal({ graceMs: -1 })).toThrow(/graceMs must be a non-negative number, got -1/);
  });
});
