// A client that writes many requests with large answers in one go and reads slowly. Every request
// was read before the pipe filled, so the answers pile up on the agent's side of a full pipe:
// they must all arrive, in bounded memory, even when the client's input ends before it reads.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "@acpkit/test-support/build-once";
import { beforeAll, describe, expect, it } from "vitest";

const AGENT = fileURLToPath(new URL("fixtures/large-answers-agent.mjs", import.meta.url));

interface Run {
  /** Whole answer lines the client read. */
  answers: number;
  /** What the agent wrote to stderr when its transport closed. */
  stderr: string;
  exitCode: number | null;
}

/** Spawns the agent, writes `count` `_big` requests and ends its stdin, then reads nothing for `readAfterMs`. */
async function run(count: number, env: Record<string, string>, readAfterMs: number): Promise<Run> {
  const child = spawn(process.execPath, [AGENT], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } });
  let requests = "";
  for (let id = 0; id < count; id++) requests += `${JSON.stringify({ jsonrpc: "2.0", id, method: "_big", params: {} })}\n`;
  child.stdin.end(requests);
  child.stdout.pause();
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  let answers = 0;
  const reading = setTimeout(() => {
    child.stdout.on("data", (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) answers++;
    });
    child.stdout.resume();
  }, readAfterMs);
  const [exitCode] = (await once(child, "close")) as [number | null];
  clearTimeout(reading);
  return { answers, stderr, exitCode };
}

function peakRssMiB(stderr: string): number {
  const kB = /peak rss (\d+) kB/.exec(stderr)?.[1];
  expect(kB, `the agent reported no peak memory; its stderr: ${stderr}`).toBeDefined();
  return Number(kB) / 1024;
}

describe("answers waiting behind a pipe the client does not read yet", () => {
  beforeAll(() => {
    ensureBuilt("transport-stdio");
    expect(existsSync(AGENT)).toBe(true);
  });

  // Before: the connection closed once every handler had answered, and the transport's close
  // rejected the answers still queued behind the full pipe: 1 of 50 arrived.
  it("delivers every answer after the client's input ended, once it reads", async () => {
    const result = await run(50, { ANSWER_CHARS: String(1_000_000), ANSWER_DELAY_MS: "4" }, 500);
    expect(result.stderr).toContain("closed: peer closed the stream");
    expect(result.answers, `the agent said: ${result.stderr}`).toBe(50);
    expect(result.exitCode).toBe(0);
  });

  // Before: all the answers were encoded at once (16 MB each) and waited in the writer: the agent
  // peaked at about 1 GB for 60 (1.7 GB for 100), so over 500 MiB for these 24. Answers now wait as
  // objects sharing one string and are encoded as the pipe drains: the peak is about 198 MiB for
  // 24 and for 60 alike (the shared string, one encoded answer and its bytes, Node itself).
  it("encodes a burst of large answers one at a time as the client reads, in bounded memory", async () => {
    const result = await run(24, { ANSWER_CHARS: String(16_000_000) }, 1000);
    expect(result.answers, `the agent said: ${result.stderr}`).toBe(24);
    expect(peakRssMiB(result.stderr)).toBeLessThan(350);
    // 384 MB through a pipe: ~12 s alone (60 answers took 26 s, and 100-240 s while CI ran every
    // package's tests at once).
  }, 240_000);
});
