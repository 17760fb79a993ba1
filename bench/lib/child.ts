// Starting and stopping the agent child processes the stdio and WebSocket scenarios talk to.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

export const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));

export function agentScript(name: string): string {
  return fileURLToPath(new URL(`../agents/${name}`, import.meta.url));
}

/**
 * Extra node flags for agent children, from ACPKIT_BENCH_AGENT_NODE_ARGS (space-separated); the
 * profiler uses it for --cpu-prof, which NODE_OPTIONS does not allow.
 */
export function agentNodeArgs(): string[] {
  return (process.env.ACPKIT_BENCH_AGENT_NODE_ARGS ?? "").split(" ").filter(Boolean);
}

/** Spawns `node <script> <args…>` with piped stdio; stderr is forwarded so agent crashes are visible. */
export function spawnAgent(script: string, args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [...agentNodeArgs(), script, ...args], {
    cwd: BENCH_DIR,
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stderr.on("data", (data) => process.stderr.write(`[agent ${script.split("/").pop()}] ${data}`));
  return child;
}

/** Reads the `port <n>` line a WebSocket agent prints once it listens. */
export async function waitForPort(child: ChildProcessWithoutNullStreams): Promise<number> {
  let buffered = "";
  child.stdout.setEncoding("utf8");
  for await (const chunk of child.stdout) {
    buffered += chunk;
    const match = /port (\d+)/.exec(buffered);
    if (match) return Number(match[1]);
  }
  throw new Error(`agent exited before printing its port (exit code ${child.exitCode})`);
}

/** Ends a child politely (stdin EOF), then SIGKILL if it lingers. */
export async function stopAgent(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stdin.end();
  const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
  await once(child, "exit");
  clearTimeout(timer);
}
