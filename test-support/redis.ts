// A real redis-server for the tests that need one (the Redis fleet backend, `acpkit serve --redis`):
// started on a free loopback port in a directory of its own, with append-only persistence so that a
// restart keeps what it held, as a fleet's Redis would be run. Stopped by pid.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Whether redis-server is installed (`.ci/run` installs Debian's when it is missing). */
export const hasRedisServer: boolean = (() => {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** The running server's pid (changes on restart). */
  readonly pid: number;
  /** Stop it (SIGTERM, then SIGKILL after a bound); the data directory stays for `start()`. */
  stop(): Promise<void>;
  /** Start it again on the same port and data. */
  start(): Promise<void>;
  /** Stop it and remove its data. */
  dispose(): Promise<void>;
}

/** How long the server may take to accept connections. */
const START_LIMIT_MS = 20_000;

export async function startRedisServer(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "acpkit-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--protected-mode", "no"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`redis-server did not start within ${START_LIMIT_MS} ms: ${output}`)), START_LIMIT_MS);
      started.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${output}`));
      });
    });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGTERM");
    const timer = setTimeout(() => running.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child?.pid ?? -1;
    },
    stop,
    start,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}
