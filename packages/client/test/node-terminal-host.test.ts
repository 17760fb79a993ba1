// The Node terminal host on its own: real child processes, confinement to the session's cwd,
// the output byte limit (kept at a character boundary), kill and release, and the terminal cap.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNodeTerminalHost } from "@acpkit/client/node";
import { describe, expect, it } from "vitest";

const node = process.execPath;
const root = realpathSync(mkdtempSync(join(tmpdir(), "acpkit-host-")));
mkdirSync(join(root, "sub"));
const context = { sessionId: "s1", sessionCwd: root };

/** Whether a live process (not a zombie) has `marker` in its command line (Linux: /proc). */
function runningWith(marker: string): boolean {
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z")) continue;
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker)) return true;
    } catch {
      // The process ended while we looked.
    }
  }
  return false;
}
const run = (script: string, extra: { cwd?: string | null; outputByteLimit?: number | null; env?: { name: string; value: string }[] } = {}) => ({
  command: node,
  args: ["-e", script],
  env: extra.env ?? [],
  cwd: extra.cwd ?? null,
  outputByteLimit: extra.outputByteLimit ?? null,
});

describe("createNodeTerminalHost", () => {
  it("runs in the session's cwd (or a directory inside it) with the agent's env on top", async () => {
    const host = createNodeTerminalHost();
    const { terminalId } = await host.create(
      run("process.stdout.write(process.cwd() + ' ' + process.env.ACPKIT_X)", { env: [{ name: "ACPKIT_X", value: "42" }] }),
      context,
    );
    expect(await host.waitForExit(terminalId)).toEqual({ exitCode: 0, signal: null });
    expect(await host.output(terminalId)).toEqual({ output: `${root} 42`, truncated: false, exitStatus: { exitCode: 0, signal: null } });
    const inner = await host.create(run("process.stdout.write(process.cwd())", { cwd: join(root, "sub") }), context);
    await host.waitForExit(inner.terminalId);
    expect((await host.output(inner.terminalId)).output).toBe(join(root, "sub"));
    await host.closeAll();
  });

  it("refuses a cwd outside the session (also through a symlink) with -32602 at /cwd (J3)", async () => {
    const host = createNodeTerminalHost();
    await expect(Promise.resolve(host.create(run(""), { sessionId: "s1", sessionCwd: join(root, "sub") })).then(() => "ok")).resolves.toBe("ok");
    await expect(host.create(run("", { cwd: tmpdir() }), { sessionId: "s1", sessionCwd: join(root, "sub") })).rejects.toMatchObject({
      code: -32602,
      data: { path: "/cwd" },
    });
    const link = join(root, "sub", "escape");
    symlinkSync(tmpdir(), link);
    await expect(host.create(run("", { cwd: link }), { sessionId: "s1", sessionCwd: join(root, "sub") })).rejects.toMatchObject({ code: -32602 });
    await expect(host.create(run("", { cwd: "relative" }), context)).rejects.toMatchObject({ code: -32602 });
    await host.closeAll();
  });

  it("keeps the newest outputByteLimit bytes, starting on a whole character", async () => {
    const host = createNodeTerminalHost();
    // 10 × "é" (2 bytes each) then "END": 23 bytes; a 6-byte limit cuts inside an "é".
    const { terminalId } = await host.create(run("process.stdout.write('é'.repeat(10) + 'END')", { outputByteLimit: 6 }), context);
    await host.waitForExit(terminalId);
    const output = await host.output(terminalId);
    expect(output.truncated).toBe(true);
    expect(output.output).toBe("éEND");
    expect(Buffer.byteLength(output.output)).toBeLessThanOrEqual(6);
    await host.release(terminalId);
  });

  it("kill stops the command's process group; the output stays readable until release", async () => {
    const host = createNodeTerminalHost({ killGraceMs: 300 });
    const { terminalId } = await host.create(run("process.stdout.write('started'); setInterval(() => {}, 1000)"), context);
    while ((await host.output(terminalId)).output !== "started") await new Promise((resolve) => setTimeout(resolve, 5));
    await host.kill(terminalId);
    expect(await host.waitForExit(terminalId)).toEqual({ exitCode: null, signal: "SIGTERM" });
    expect((await host.output(terminalId)).output).toBe("started");
    await host.release(terminalId);
    expect(host.size).toBe(0);
    await expect(Promise.resolve().then(() => host.output(terminalId))).rejects.toMatchObject({ code: -32002 });
  });

  it("a command that ignores SIGTERM is killed after the grace period", async () => {
    const host = createNodeTerminalHost({ killGraceMs: 100 });
    const { terminalId } = await host.create(run("process.on('SIGTERM', () => {}); process.stdout.write('x'); setInterval(() => {}, 1000)"), context);
    while ((await host.output(terminalId)).output !== "x") await new Promise((resolve) => setTimeout(resolve, 5));
    await host.release(terminalId);
    expect(host.size).toBe(0);
  });

  it("refuses more than maxTerminals open terminals, and a command that does not exist", async () => {
    const host = createNodeTerminalHost({ maxTerminals: 1 });
    await host.create(run("setTimeout(() => {}, 5000)"), context);
    await expect(host.create(run(""), context)).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("1 terminals are already open") });
    await host.closeAll();
    await expect(host.create({ ...run(""), command: "/nonexistent/acpkit-cmd" }, context)).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining("ENOENT"),
    });
  });

  // The cap was checked before spawning and the terminal counted only after, so requests that
  // arrived together (an agent sends them without waiting) all passed it.
  it("holds maxTerminals for creates that arrive together", async () => {
    const host = createNodeTerminalHost({ maxTerminals: 2 });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => host.create(run("setTimeout(() => {}, 5000)"), context)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused).toHaveLength(4);
    for (const r of refused) expect(r.reason).toMatchObject({ code: -32603, message: expect.stringContaining("2 terminals are already open") });
    expect(host.size).toBe(2);
    await host.closeAll();
    expect(host.size).toBe(0);
  });

  // closeAll() while a command was still starting used to leave that command running, unowned.
  it.skipIf(process.platform !== "linux")("stops a command that was still starting when closeAll() ran, and its create rejects", async () => {
    const host = createNodeTerminalHost({ killGraceMs: 300 });
    const script = (marker: string) => `/* ${marker} */ setInterval(() => {}, 1000)`;
    const open = `acpkit-open-${process.pid}`;
    const late = `acpkit-late-${process.pid}`;
    await host.create(run(script(open)), context);
    // The control: the scan sees a command that runs.
    expect(runningWith(open)).toBe(true);
    const starting = Promise.resolve(host.create(run(script(late)), context));
    const closing = host.closeAll();
    const error = await starting.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: -32603, message: expect.stringContaining("closed while the command was starting") });
    await closing;
    expect(host.size).toBe(0);
    expect(runningWith(open)).toBe(false);
    expect(runningWith(late)).toBe(false);
  });
});
