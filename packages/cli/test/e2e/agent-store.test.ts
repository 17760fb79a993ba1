// `acpkit agent --store DIR`: the built-in agent keeps its sessions in DIR, so a new process of it
// lists them, loads them (history replayed, title, mode and config as they were) and resumes them,
// as real agents do with their session files.
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_AGENT, runCli, runJson } from "../support/cli.js";

describe("acpkit agent --store", () => {
  it("a new process lists, loads and resumes the sessions an earlier one kept, with title, mode and config", async (context) => {
    const dir = await mkdtemp(join(tmpdir(), "acpkit-store-"));
    context.onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const agent = [...BUILTIN_AGENT, "--store", dir];
    const first = await runJson(["--prompt", "/title Kept work", "--prompt", "/mode code", "--prompt", "/config model thorough", "--", ...agent]);
    expect(first.code, first.stderr).toBe(0);
    const sessionId = first.state.sessionId as string;
    expect(sessionId).toMatch(/^sess_[0-9a-f]{12}$/);
    expect(await readdir(dir)).toEqual([`${sessionId}.json`]);

    const listed = await runCli(["sessions", "--", ...agent]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`${sessionId} Kept work`);

    const loaded = await runJson(["--load", sessionId, "--prompt", "/echo back again", "--", ...agent]);
    expect(loaded.code, loaded.stderr).toBe(0);
    const said = loaded.state.messages.map(
      (message: { kind: string; content: { text?: string }[] }) => `${message.kind}: ${message.content.map((block) => block.text ?? "").join("")}`,
    );
    expect(said.slice(0, 6)).toEqual([
      "user_message: /title Kept work",
      "agent_message: (this turn ended with end_turn)",
      "user_message: /mode code",
      "agent_message: (this turn ended with end_turn)",
      "user_message: /config model thorough",
      "agent_message: (this turn ended with end_turn)",
    ]);
    expect(loaded.state.modes.currentModeId).toBe("code");
    expect(loaded.state.configOptions.find((option: { id: string }) => option.id === "model").currentValue).toBe("thorough");

    const resumed = await runJson(["--resume", sessionId, "--prompt", "/echo resumed", "--", ...agent]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.state.modes.currentModeId).toBe("code");
    // The load's turn and the resume's turn were kept too: five turns in the file now.
    const again = await runJson(["--load", sessionId, "--", ...agent], { input: "" });
    expect(again.state.messages.filter((message: { kind: string }) => message.kind === "user_message")).toHaveLength(5);
  });

  it("skips a file that is not a stored session, says so, and serves the rest", async (context) => {
    const dir = await mkdtemp(join(tmpdir(), "acpkit-store-"));
    context.onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, "sess_broken.json"), "{not json");
    await writeFile(join(dir, "notes.txt"), "not a session file");
    const listed = await runCli(["sessions", "--", ...BUILTIN_AGENT, "--store", dir]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toMatch(/--store: skipped .*sess_broken\.json/);
  });
});
