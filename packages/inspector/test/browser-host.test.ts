// What the inspector page offers an agent as a client: files in the page's memory and simulated
// terminals. The agent decides how much it writes and how many terminals it opens, so both are
// bounded, and a refused request says why.
import { describe, expect, it } from "vitest";
import { MAX_PAGE_TERMINALS, PageFiles, simulatedTerminals } from "../src/ui/browser-host.js";

const session = { sessionId: "s" };

describe("PageFiles", () => {
  it("keeps what the agent writes and reads it back, by line and limit", async () => {
    let changes = 0;
    const files = new PageFiles(() => changes++);
    const fs = files.handlers(true, true);
    await fs.writeTextFile!({ ...session, path: "/a.txt", content: "one\ntwo\nthree" });
    expect(await fs.readTextFile!({ ...session, path: "/a.txt", line: 2, limit: 1 })).toBe("two");
    expect(changes).toBe(1);
  });

  it("refuses a write past the file count or the character budget, and keeps the rest", async () => {
    const files = new PageFiles(() => {}, { maxFiles: 2, maxChars: 10 });
    const fs = files.handlers(true, true);
    await fs.writeTextFile!({ ...session, path: "/a", content: "12345" });
    await fs.writeTextFile!({ ...session, path: "/b", content: "12345" });
    await expect(Promise.resolve().then(() => fs.writeTextFile!({ ...session, path: "/c", content: "" }))).rejects.toThrow(
      "the inspector page keeps at most 2 files; /c was not written",
    );
    await expect(Promise.resolve().then(() => fs.writeTextFile!({ ...session, path: "/a", content: "123456" }))).rejects.toThrow(
      "the inspector page keeps at most 10 characters of files; /a (6) was not written",
    );
    // Rewriting a file within the budget is fine: its old content no longer counts.
    await fs.writeTextFile!({ ...session, path: "/a", content: "abc" });
    await fs.writeTextFile!({ ...session, path: "/b", content: "abcdefg" });
    expect([...files.files]).toEqual([
      ["/a", "abc"],
      ["/b", "abcdefg"],
    ]);
  });
});

describe("simulatedTerminals", () => {
  it("refuses more than MAX_PAGE_TERMINALS unreleased terminals, and takes more after a release", async () => {
    const host = simulatedTerminals();
    const context = { sessionId: "s", sessionCwd: "/" };
    const request = { command: "ls", args: [], env: [], cwd: null, outputByteLimit: null };
    const ids: string[] = [];
    for (let i = 0; i < MAX_PAGE_TERMINALS; i++) ids.push((await host.create(request, context)).terminalId);
    await expect(Promise.resolve().then(() => host.create(request, context))).rejects.toThrow(`at most ${MAX_PAGE_TERMINALS} terminals`);
    await host.release(ids[0]!);
    expect((await host.create(request, context)).terminalId).toMatch(/^page-terminal-\d+$/);
  });
});
