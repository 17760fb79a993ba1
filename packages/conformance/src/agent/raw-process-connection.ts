// The checker's raw connection to an agent it starts as a child process: stdin/stdout pipes,
// stderr kept for the report, the whole process group stopped at the end.
import { type ChildProcess, spawn } from "node:child_process";
import { trackChildProcess } from "@acpkit/transport-stdio";
import { RawConnection } from "./raw-connection.js";

/** The agent as a child process: stdin/stdout pipes, stderr kept for the report. */
export class RawProcessConnection extends RawConnection {
  readonly kind = "process";
  readonly spawnError: Promise<Error | undefined>;
  private readonly child: ChildProcess;
  private readonly exited: Promise<{ code: number | null; signal: string | null }>;
  /** Resolves when stdout has ended (after the exit, or when the agent closed it). */
  private readonly outputEnded: Promise<void>;

  constructor(command: string, args: readonly string[], cwd: string, env?: Readonly<Record<string, string>>) {
    super();
    this.child = spawn(command, args, {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
      detached: process.platform !== "win32",
      ...(env === undefined ? {} : { env: { ...process.env, ...env } }),
    });
    // In a group of its own, so out of reach of the terminal's Ctrl-C: stopped with us (bin.ts).
    trackChildProcess(this.child, { processGroup: true });
    this.spawnError = new Promise((resolve) => {
      this.child.once("spawn", () => resolve(undefined));
      this.child.once("error", (error) => resolve(error));
    });
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.onGone({ code, signal });
        resolve({ code, signal });
      });
    });
    this.child.stdin!.on("error", () => {});
    this.child.stdout!.on("data", (chunk: Buffer) => this.onData(chunk));
    this.outputEnded = new Promise((resolve) => {
      this.child.stdout!.once("end", () => {
        this.onOutputEnd();
        resolve();
      });
      this.child.stdout!.once("close", () => resolve());
    });
    // stderr is the agent's log; keep the last 64 KiB for the report.
    this.child.stderr!.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString("utf8")).slice(-65536);
    });
  }

  protected writeRaw(text: string): void {
    if (this.child.stdin!.writable) this.child.stdin!.write(`${text}\n`);
  }

  async closeStdin(ms: number): Promise<{ code: number | null; signal: string | null } | undefined> {
    this.child.stdin!.end();
    const deadline = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref());
    const exit = await Promise.race([this.exited, deadline]);
    // The exit can be seen before the last of stdout: wait for its end too (bounded by the same
    // deadline, since a child the agent started may still hold the pipe), so that a line it left
    // unterminated is known before the caller judges.
    if (exit) await Promise.race([this.outputEnded, deadline]);
    return exit;
  }

  /** Stop the agent for good (its whole process group). */
  async kill(): Promise<void> {
    if (this.gone !== undefined) return;
    this.killRequested = true;
    try {
      if (process.platform !== "win32" && this.child.pid !== undefined) process.kill(-this.child.pid, "SIGKILL");
      else this.child.kill("SIGKILL");
    } catch {
      this.child.kill("SIGKILL");
    }
    await this.exited;
  }
}
