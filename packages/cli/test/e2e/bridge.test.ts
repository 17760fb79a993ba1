// `acpkit bridge` serving the built-in agent over WebSocket, driven by `acpkit run --ws`: a full
// turn crosses the bridge on both protocol versions, with the transport's security defaults.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocket } from "ws";
import { describe, expect, it, type TestContext } from "vitest";
import { BUILTIN_AGENT, runCli, runJson, startCli } from "../support/cli.js";

/** Start `acpkit bridge` and resolve with its URL (the first line it prints on stdout). */
async function startBridge(
  context: TestContext,
  flags: readonly string[],
  env: Record<string, string> = {},
): Promise<{ url: string; bridge: ChildProcess; stderr: () => string }> {
  const bridge = startCli(["bridge", ...flags, "--", ...BUILTIN_AGENT], { env });
  // Tests run concurrently: each stops its own bridge (through its own context).
  context.onTestFinished(async () => {
    if (bridge.exitCode === null && bridge.signalCode === null) {
      bridge.kill("SIGTERM");
      await once(bridge, "exit");
    }
  });
  let stderr = "";
  bridge.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  let stdout = "";
  bridge.stdout!.setEncoding("utf8");
  const url = await new Promise<string>((resolve, reject) => {
    bridge.stdout!.on("data", (text: string) => {
      stdout += text;
      const newline = stdout.indexOf("\n");
      if (newline !== -1) resolve(stdout.slice(0, newline));
    });
    bridge.once("exit", (code) => reject(new Error(`bridge exited with ${code} before listening: ${stderr}`)));
  });
  return { url, bridge, stderr: () => stderr };
}

describe.concurrent("acpkit bridge", () => {
  it.for([1, 2] as const)("carries a full demo turn over WebSocket on protocol v%i", async (version, context) => {
    const { url } = await startBridge(context, ["--listen", "127.0.0.1:0"]);
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/acp$/);
    const { code, state, stderr } = await runJson(["--ws", url, "--protocol", String(version), "--prompt", "Say hello", "--prompt", "/stop refusal"]);
    expect(code, stderr).toBe(0);
    expect(state.protocolVersion).toBe(version);
    expect(state.turns).toEqual([{ stopReason: "end_turn" }, { stopReason: "refusal" }]);
    expect(state.permissions[0].outcome).toEqual({ outcome: "selected", optionId: "allow" });
    expect(state.toolCalls.find((call: { title: string }) => call.title === "Edit hello.txt").status).toBe("completed");
    expect(state.plans[0].entries).toHaveLength(4);
    expect(state.usage).toMatchObject({ size: 200000 });
  });

  it("starts one agent per connection", async (context) => {
    const { url, stderr } = await startBridge(context, ["--listen", "127.0.0.1:0"]);
    const [a, b] = await Promise.all([
      runJson(["--ws", url, "--prompt", "/echo first"]),
      runJson(["--ws", url, "--protocol", "2", "--prompt", "/echo second"]),
    ]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect([a.state.protocolVersion, b.state.protocolVersion]).toEqual([1, 2]);
    expect(a.state.messages[1].content.map((block: { text: string }) => block.text).join("")).toBe("first");
    expect(b.state.messages[1].content.map((block: { text: string }) => block.text).join("")).toBe("second");
    expect(stderr()).toContain("connection 1");
    expect(stderr()).toContain("connection 2");
  });

  it("requires the token when one is given, and stops cleanly on SIGTERM", async (context) => {
    const { url, bridge } = await startBridge(context, ["--listen", "127.0.0.1:0", "--token", "s3cret"]);
    const refused = await runCli(["run", "--ws", url, "--prompt", "/echo hi"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("401");
    const wrong = await runCli(["run", "--ws", url, "--token", "guess", "--prompt", "/echo hi"]);
    expect(wrong.code).toBe(1);
    // A token written into the URL (the form browsers use) is never quoted back.
    const inUrl = await runCli(["run", "--ws", `${url}?access_token=typed-guess`, "--prompt", "/echo hi"]);
    expect(inUrl.code).toBe(1);
    expect(inUrl.stderr).toContain(`could not start a session with ${url}: `);
    expect(inUrl.stderr).toContain("access_token=…");
    expect(inUrl.stderr).not.toContain("typed-guess");
    const { code, state } = await runJson(["--ws", url, "--token", "s3cret", "--prompt", "/echo hi"]);
    expect(code).toBe(0);
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
    bridge.kill("SIGTERM");
    // Terminated, it stops its agents and exits with the conventional 128 + 15 (e2e/interrupted.test.ts).
    const [exitCode] = await once(bridge, "exit");
    expect(exitCode).toBe(143);
  });

  it("takes the token from --token-file or ACPKIT_BRIDGE_TOKEN, so it is not on the command line", async (context) => {
    const dir = await mkdtemp(join(tmpdir(), "acpkit-token-"));
    context.onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, "token");
    await writeFile(file, "from-file\n");
    const fromFile = await startBridge(context, ["--listen", "127.0.0.1:0", "--token-file", file]);
    expect((await runCli(["run", "--ws", fromFile.url, "--prompt", "/echo hi"])).stderr).toContain("401");
    expect((await runJson(["--ws", fromFile.url, "--token", "from-file", "--prompt", "/echo hi"])).code).toBe(0);
    const fromEnv = await startBridge(context, ["--listen", "127.0.0.1:0"], { ACPKIT_BRIDGE_TOKEN: "from-env" });
    expect((await runCli(["run", "--ws", fromEnv.url, "--prompt", "/echo hi"])).stderr).toContain("401");
    expect((await runJson(["--ws", fromEnv.url, "--token", "from-env", "--prompt", "/echo hi"])).code).toBe(0);
    const both = await runCli(["bridge", "--listen", "127.0.0.1:0", "--token", "a", "--token-file", file, "--", ...BUILTIN_AGENT]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("not both");
  });

  it("--max-connections: a connection beyond the cap is closed with 1013 and starts no agent", async (context) => {
    const { url, stderr } = await startBridge(context, ["--listen", "127.0.0.1:0", "--max-connections", "1"]);
    const first = new WebSocket(url);
    await new Promise((resolve, reject) => {
      first.addEventListener("open", resolve);
      first.addEventListener("error", reject);
    });
    context.onTestFinished(() => first.close());
    const second = new WebSocket(url);
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => second.addEventListener("close", (event) => resolve(event)));
    expect(closed.code).toBe(1013);
    expect(closed.reason).toContain("too many connections");
    expect(stderr()).toMatch(/connection 2 from .* refused: 1 connections already \(--max-connections 1\)/);
    expect(stderr()).not.toMatch(/connection 2 from \S+: starting/);
  });

  it("refuses a non-loopback address without a token (exit 2)", async () => {
    const { code, stderr } = await runCli(["bridge", "--listen", "0.0.0.0:0", "--", ...BUILTIN_AGENT]);
    expect(code).toBe(2);
    expect(stderr).toContain("pass --token-file");
  });

  it.each([
    [["bridge", "--", "x"], "--listen HOST:PORT is required"],
    [["bridge", "--listen", "8080", "--", "x"], "--listen must be HOST:PORT"],
    [["bridge", "--listen", "127.0.0.1:70000", "--", "x"], "port must be 0-65535"],
    [["bridge", "--listen", "127.0.0.1:0"], "no agent"],
  ])("usage error %j", async (args, message) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});
