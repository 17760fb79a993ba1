// An agent that asks for a large file's text many times in one go and does not read the answers
// yet. Each answer is a string of its own, so producing them all at once held every copy (300
// reads of a 10 MB file made `acpkit run` peak at 6 GB). The client now reads one file at a time,
// each once the answers before it went out (Connection.outputReady).
import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { spawnAgent } from "@acpkit/transport-stdio";
import { connectAgent } from "@acpkit/client";
import { describe, expect, it } from "vitest";

const AGENT = fileURLToPath(new URL("./fixtures/read-burst-agent.mjs", import.meta.url));
const CHARS = 8_000_000; // each answer alone passes the transport's 4 Mi-character mark

describe("a burst of fs/read_text_file requests the agent does not read the answers of", () => {
  it("reads one file at a time while the answers wait for the agent, and answers every request", async () => {
    expect(existsSync(AGENT)).toBe(true);
    let stderr = "";
    const transport = spawnAgent(process.execPath, [AGENT], {
      env: { ...process.env, READS: "40", STALL_MS: "3000", EXPECTED_CHARS: String(CHARS) },
      stderr: "pipe",
    });
    transport.stderr?.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    let reads = 0;
    let firstRead: (() => void) | undefined;
    const firstReadSeen = new Promise<void>((resolve) => (firstRead = resolve));
    const agent = await connectAgent(transport, {
      protocolVersion: 1,
      fs: {
        readTextFile: () => {
          reads++;
          firstRead?.();
          return "y".repeat(CHARS); // a new string per read, as a file read makes
        },
      },
    });
    try {
      const session = await agent.newSession({ cwd: "/work" });
      const turn = session.prompt("read it");
      await firstReadSeen;
      await delay(700); // the agent reads nothing for 3 s from its burst on
      // Before: all 40 reads ran at once and their 320 MB of answers waited in the client.
      expect(reads).toBeLessThanOrEqual(3);
      expect(await turn).toEqual({ stopReason: "end_turn" });
      expect(reads).toBe(40);
      expect(stderr).toContain("reads answered: 40, wrong length: 0");
    } finally {
      await agent.close();
    }
    // 320 MB of answers: 16–19 s while CI ran every package's tests at once on two cores.
  }, 120_000);
});
