// A launcher (npm/npx wrapper, shell script) whose child keeps the pipes after the launcher exits
// must not keep the client alive or leave the child running: close signals the agent's whole
// process group and destroys the pipes.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnAgent } from "@acpkit/transport-stdio";
import { describe, expect, it } from "vitest";

const launcher = fileURLToPath(new URL("./fixtures/launcher.mjs", import.meta.url));

/** Running (a zombie no one reaps yet, as under a container's PID 1, has stopped running). */
function alive(pid: number): boolean {
  if (existsSync("/proc/self/stat")) {
    try {
      return readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[2] !== "Z";
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

describe.skipIf(process.platform === "win32")("spawnAgent and launchers", () => {
  it("close stops a launcher's child that ignores stdin EOF and SIGTERM, within the grace periods", async () => {
    // Without the process group, the launcher dies of SIGTERM and its child keeps the pipes (and
    // runs on): the second test below shows that side.
    const pidFile = join(mkdtempSync(join(tmpdir(), "acpkit-launcher-")), "pid");
    // The grandchild ignores SIGTERM and never reads stdin: only SIGKILL to the group ends it.
    const stubborn = "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)";
    const transport = spawnAgent(process.execPath, [launcher, process.execPath, "-e", stubborn], {
      env: { ...process.env, ACPKIT_TEST_PID_FILE: pidFile },
      stderr: "ignore",
      shutdownGraceMs: 200,
    });
    expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "", 5000)).toBe(true);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    expect(alive(grandchild)).toBe(true);
    // Read it, as a Connection does: the end of its output is how the transport learns it is gone.
    transport.start({ onMessage() {}, onTransportError() {} });

    const started = Date.now();
    await transport.close("test done");
    const info = await transport.closed;
    expect(info.signal).toBe("SIGTERM"); // the launcher died of the group's SIGTERM
    // stdin end → 200 ms → SIGTERM to the group (the launcher dies, its child ignores it) →
    // 200 ms → SIGKILL; the child's output ends with it. Without the SIGKILL the grandchild would
    // hold the pipes for ever, so any bound separates the two; 10 s leaves room for a loaded CI.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await until(() => !alive(grandchild), 10_000)).toBe(true);
    // The pipes are destroyed right after the leftovers are stopped; on a loaded machine the
    // grandchild's death can be seen a moment before that code runs.
    expect(await until(() => transport.child.stdout?.destroyed === true, 10_000)).toBe(true);
  });

  it("with processGroup: false the group is not signalled (the old behaviour, for agents that manage their own)", async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), "acpkit-launcher-")), "pid");
    const transport = spawnAgent(process.execPath, [launcher, process.execPath, "-e", "process.on('SIGTERM', () => {}); setTimeout(() => {}, 3000)"], {
      env: { ...process.env, ACPKIT_TEST_PID_FILE: pidFile },
      stderr: "ignore",
      shutdownGraceMs: 200,
      processGroup: false,
    });
    expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "", 5000)).toBe(true);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    transport.start({ onMessage() {}, onTransportError() {} });
    await transport.close();
    expect(alive(grandchild)).toBe(true);
    process.kill(grandchild, "SIGKILL");
  });
});
