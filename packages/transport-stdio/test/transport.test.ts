// The shared transport suite over a REAL child process (test-support/fixtures/stdio-peer.mjs,
// which runs the built stdioServer()), plus what only stdio has: raw line framing from a real
// pipe, stderr, the stdin → SIGTERM → SIGKILL shutdown and exit reporting.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Connection } from "@acpkit/core";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ensureBuilt, fixturesDir } from "@acpkit/test-support/build-once";
import { defineTransportSuite, RawClient, within, type ConnectionConstructor } from "@acpkit/test-support/transport-suite";
import { ProcessStdioTransport, spawnAgent, type ChildProcessTransport } from "../src/index.js";

const STDIO_PEER = join(fixturesDir, "stdio-peer.mjs");
const IGNORE_SIGTERM = join(fixturesDir, "ignore-sigterm.mjs");

beforeAll(() => {
  ensureBuilt("transport-stdio");
});

function startPeer(options: { maxMessageSize?: number; peerArgs?: string[] } = {}): ChildProcessTransport & { stderrText(): string } {
  const args = [STDIO_PEER, ...(options.peerArgs ?? [])];
  if (options.maxMessageSize !== undefined) args.push("--max-message-size", String(options.maxMessageSize));
  const transport = spawnAgent(process.execPath, args, { stderr: "pipe", maxMessageSize: options.maxMessageSize, shutdownGraceMs: 1000 });
  let stderr = "";
  transport.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  return Object.assign(transport, { stderrText: () => stderr });
}

function writeToChild(transport: ChildProcessTransport, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => transport.child.stdin!.write(data, (error) => (error ? reject(error) : resolve())));
}

defineTransportSuite(
  "stdio (real child process)",
  async (options) => {
    const local = startPeer(options);
    return {
      local,
      cleanup: () => local.close(),
      killPeer() {
        local.child.kill("SIGKILL");
        return { signal: "SIGKILL", exitCode: null };
      },
      sendRaw: (text) => writeToChild(local, text + "\n"),
      async sendPieces(pieces) {
        // Separate writes with a pause between them, so the child's reads see separate chunks.
        for (const piece of pieces) {
          await writeToChild(local, piece);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await writeToChild(local, "\n");
      },
    };
  },
  { Connection: Connection as unknown as ConnectionConstructor },
);

describe("stdio framing against a real child", () => {
  it("strips one trailing \\r, skips empty lines, and answers each line in order", async () => {
    const peer = startPeer();
    const client = new RawClient(peer);
    await writeToChild(
      peer,
      '\n\r\n{"jsonrpc":"2.0","id":"a","method":"echo","params":{"n":1}}\r\n\n{"jsonrpc":"2.0","id":"b","method":"echo","params":{"n":2}}\n',
    );
    await client.waitFor(() => client.unmatched.length === 2, "two answers");
    expect(client.unmatched.map((m) => [m.id, m.result])).toEqual([
      ["a", { n: 1 }],
      ["b", { n: 2 }],
    ]);
    // Empty lines are not messages: the peer saw no parse error.
    expect(client.orphanErrors).toEqual([]);
    await peer.close();
  });

  it("a last line without its newline is still read when the stream ends", async () => {
    const peer = startPeer();
    const client = new RawClient(peer);
    await writeToChild(peer, '{"jsonrpc":"2.0","method":"note","params":{"seq":0}}');
    peer.child.stdin!.end();
    // stdin ended → the peer's transport closes → it exits; the note was counted before that.
    const info = await peer.closed;
    expect(info).toMatchObject({ exitCode: 0, signal: null });
    expect(peer.stderrText()).toContain("stdio-peer closed: peer closed the stream");
    expect(client.closeInfo).toBeDefined();
  });

  it("stdout carries only protocol lines: console.log in the agent goes to stderr", async () => {
    const peer = startPeer({ peerArgs: ["--log-on-start"] });
    const client = new RawClient(peer);
    expect(await client.request("echo", { ok: true })).toEqual({ ok: true });
    // stderr is a pipe of its own: its line may be read after the reply on stdout, so wait for it
    // (a loaded CI machine once asserted in between).
    await vi.waitFor(() => expect(peer.stderrText()).toContain("stdio-peer started (this line belongs on stderr)"), { timeout: 5000 });
    expect(client.transportErrors).toEqual([]);
    await peer.close();
  });
});

describe("spawnAgent lifecycle", () => {
  it("close() ends stdin and a well-behaved child exits by itself with code 0", async () => {
    const peer = startPeer();
    const client = new RawClient(peer);
    expect(await client.request("echo", {})).toEqual({});
    await peer.close();
    expect(await peer.closed).toMatchObject({ exitCode: 0, signal: null, reason: "agent process exited with code 0" });
    expect(isRunning(peer.pid!)).toBe(false);
  });

  it("a transport that was never started still closes when its child exits (nobody reads stdout)", async () => {
    const probe = join(import.meta.dirname, "fixtures", "unstarted-close.mjs");
    expect(existsSync(probe)).toBe(true);
    const { stdout } = await promisify(execFile)(process.execPath, [probe], { cwd: join(import.meta.dirname, "..") });
    expect(JSON.parse(stdout)).toMatchObject({ exitCode: 0, signal: null, reason: "agent process exited with code 0" });
  });

  it("a child that ignores SIGTERM gets SIGKILL after the grace period, and is reaped (no zombie)", async () => {
    const transport = spawnAgent(process.execPath, [IGNORE_SIGTERM], { stderr: "pipe", shutdownGraceMs: 200 });
    let stderr = "";
    transport.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    new RawClient(transport);
    await waitUntil(() => stderr.includes("ready"));
    await transport.close();
    const info = await transport.closed;
    expect(info).toMatchObject({ signal: "SIGKILL", exitCode: null, reason: "agent process was killed by SIGKILL" });
    // It saw both earlier steps and survived them.
    expect(stderr).toContain("stdin ended, staying alive");
    expect(stderr).toContain("ignoring SIGTERM");
    // A zombie would still answer signal 0; a reaped process does not exist any more.
    expect(isRunning(transport.pid!)).toBe(false);
  });

  it("a child that exits on its own closes the transport with its exit code; pending sends reject", async () => {
    const transport = spawnAgent(process.execPath, ["-e", "process.stdin.resume(); setTimeout(() => process.exit(3), 50)"]);
    const client = new RawClient(transport);
    const pending = client.request("echo", {});
    pending.catch(() => {});
    const info = await within(5000, "closed", transport.closed);
    expect(info).toMatchObject({ exitCode: 3, signal: null, reason: "agent process exited with code 3" });
    await expect(pending).rejects.toMatchObject({ code: "ConnectionClosed" });
    await expect(transport.send({ jsonrpc: "2.0", method: "late" })).rejects.toMatchObject({ code: "ConnectionClosed" });
  });

  it("a command that cannot start closes the transport with the spawn error", async () => {
    const transport = spawnAgent("/nonexistent/acpkit-agent-binary");
    new RawClient(transport);
    const info = await transport.closed;
    expect(info.reason).toMatch(/could not start the agent: .*ENOENT/);
    expect(info.error).toBeInstanceOf(Error);
    await expect(transport.send({ jsonrpc: "2.0", method: "m" })).rejects.toMatchObject({ code: "ConnectionClosed" });
  });

  it("rejects a bad maxMessageSize with a clear error", () => {
    expect(() => spawnAgent(process.execPath, ["-e", ""], { maxMessageSize: -1 })).toThrow(/maxMessageSize must be a positive integer/);
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("stdioServer options", () => {
  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])("refuses inputEndGraceMs %s with a RangeError that names it", (value) => {
    expect(() => new ProcessStdioTransport({ inputEndGraceMs: value })).toThrow(RangeError);
    expect(() => new ProcessStdioTransport({ inputEndGraceMs: value })).toThrow(/inputEndGraceMs must be a non-negative number of milliseconds, got/);
  });
});
