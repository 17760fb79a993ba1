// `acpkit serve` hosting the built-in agent behind the remote endpoint, driven the way users do:
// `acpkit run --url` in both profiles, the token, TLS (HTTP/2 with HTTP/1.1 by ALPN, a
// self-signed certificate trusted through NODE_EXTRA_CA_CERTS), and a graceful SIGTERM in the
// middle of a turn: the turn ends cancelled on the client, serve exits 0, no agent is left.
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isRunning } from "@acpkit/test-support/processes";
import { describe, expect, it } from "vitest";
import { BUILTIN_AGENT, runCli, runJson, startCli } from "../support/cli.js";
import { startServe } from "../support/serve.js";

const CERT = fileURLToPath(new URL("../../../transport-http/test/fixtures/localhost-cert.pem", import.meta.url));
const KEY = fileURLToPath(new URL("../../../transport-http/test/fixtures/localhost-key.pem", import.meta.url));
const LAUNCHER = fileURLToPath(new URL("../fixtures/launcher.mjs", import.meta.url));

// Concurrent: each test waits on its own serve process. A poll goes through the test's own
// context.expect, which knows its test while others run (the global expect.poll does not).
describe.concurrent("acpkit serve", () => {
  it.for([
    ["http", 1],
    ["http", 2],
    ["ws", 1],
    ["ws", 2],
  ] as const)("RT24: carries a turn with a permission request over the %s profile on protocol v%i", async ([scheme, version], context) => {
    const { url } = await startServe(context, ["--listen", "127.0.0.1:0"]);
    const target = url.replace(/^http/, scheme);
    const { code, state, stderr } = await runJson([
      "--url",
      target,
      "--protocol",
      String(version),
      "--prompt",
      "/permission",
      "--prompt",
      "/echo over the wire",
    ]);
    expect(code, stderr).toBe(0);
    expect(state.protocolVersion).toBe(version);
    expect(state.turns).toEqual([{ stopReason: "end_turn" }, { stopReason: "end_turn" }]);
    expect(state.permissions[0].outcome).toEqual({ outcome: "selected", optionId: "allow" });
    expect(
      state.messages
        .at(-1)
        .content.map((block: { text: string }) => block.text)
        .join(""),
    ).toBe("over the wire");
  });

  it.for(["http", "ws"])("acpkit check agent --url judges the served agent over the %s profile: conformant, exit 0", async (scheme, context) => {
    const { url } = await startServe(context, ["--listen", "127.0.0.1:0"]);
    const { code, stdout, stderr } = await runCli(["check", "agent", "--url", url.replace(/^http/, scheme), "--json"]);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.verdict).toBe("conformant");
    expect(report.results.filter((result: { status: string }) => result.status === "fail")).toEqual([]);
  });

  it("--resume advertises streams that resume in the initialize result (RT26), and a turn runs over them", async (context) => {
    const { url } = await startServe(context, ["--listen", "127.0.0.1:0", "--resume"]);
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }),
    });
    const answer = (await response.json()) as { result: { _meta?: Record<string, unknown> } };
    expect(answer.result._meta?.["acpkit.dev/streamResume"]).toEqual({ maxEvents: 1000, maxChars: 4 * 1024 * 1024 });
    await fetch(url, { method: "DELETE", headers: { "Acp-Connection-Id": response.headers.get("acp-connection-id")! } });
    const { code, state, stderr } = await runJson(["--url", url, "--prompt", "/stream 30"]);
    expect(code, stderr).toBe(0);
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
  });

  it("requires the token when one is set (401 without it), read from --token-file", async (context) => {
    const dir = await mkdtemp(join(tmpdir(), "acpkit-serve-"));
    context.onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, "token"), "s3cret\n");
    const { url } = await startServe(context, ["--listen", "127.0.0.1:0", "--token-file", join(dir, "token")]);
    for (const target of [url, url.replace(/^http/, "ws")]) {
      const refused = await runCli(["run", "--url", target, "--prompt", "/echo hi"]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("401");
      expect((await runJson(["--url", target, "--token", "s3cret", "--prompt", "/echo hi"])).code).toBe(0);
    }
  });

  it("serves HTTPS (HTTP/2, HTTP/1.1 by ALPN) and WSS with --tls-cert and --tls-key", async (context) => {
    const { url } = await startServe(context, ["--listen", "127.0.0.1:0", "--tls-cert", CERT, "--tls-key", KEY]);
    expect(url).toMatch(/^https:/);
    const env = { NODE_EXTRA_CA_CERTS: CERT };
    for (const target of [url, url.replace(/^https/, "wss")]) {
      const { code, state, stderr } = await runJson(["--url", target, "--prompt", "/echo secure"], { env });
      expect(code, `${target}: ${stderr}`).toBe(0);
      expect(
        state.messages
          .at(-1)
          .content.map((block: { text: string }) => block.text)
          .join(""),
      ).toBe("secure");
    }
  });

  it.for(["http", "ws"])(
    "RT25, RT20: SIGTERM in the middle of a turn (%s profile): the turn ends cancelled on the client, serve exits 0, the agent is gone",
    async (scheme, context) => {
      const dir = await mkdtemp(join(tmpdir(), "acpkit-serve-"));
      context.onTestFinished(() => rm(dir, { recursive: true, force: true }));
      const pidFile = join(dir, "agent.pid");
      const { url, serve, stderr } = await startServe(context, ["--listen", "127.0.0.1:0"], [process.execPath, LAUNCHER, ...BUILTIN_AGENT], {
        ACPKIT_TEST_PID_FILE: pidFile,
      });
      const client = startCli(["run", "--url", url.replace(/^http/, scheme), "--prompt", "/wait"]);
      const clientExit = once(client, "exit");
      let clientOut = "";
      client.stdout!.setEncoding("utf8").on("data", (text: string) => (clientOut += text));
      let clientErr = "";
      client.stderr!.setEncoding("utf8").on("data", (text: string) => (clientErr += text));
      client.stdin!.end();
      // The turn runs once the client printed /wait's first chunk; it then waits for session/cancel.
      await context.expect.poll(() => clientOut, { timeout: 20_000 }).toContain("Waiting until the turn is cancelled");
      const agentPid = Number(await readFile(pidFile, "utf8"));
      const serveExit = once(serve, "exit");
      serve.kill("SIGTERM");
      const [serveCode] = await serveExit;
      expect(serveCode, stderr()).toBe(0);
      expect(stderr()).toMatch(/shutting down: 1 running turn\(s\) cancelled/);
      const [clientCode] = await clientExit;
      expect(clientOut, clientErr).toMatch(/■ cancelled/);
      expect(clientCode, clientErr).toBe(0);
      await context.expect.poll(() => isRunning(agentPid), { timeout: 20_000 }).toBe(false);
    },
  );

  it.each([
    [["serve", "--", "x"], "--listen HOST:PORT is required"],
    [["serve", "--listen", "127.0.0.1:0"], "no agent"],
    [["serve", "--listen", "0.0.0.0:0", "--", "x"], "pass --token-file"],
    [["serve", "--listen", "127.0.0.1:0", "--tls-cert", "c.pem", "--", "x"], "--tls-cert and --tls-key go together"],
    [["serve", "--listen", "127.0.0.1:0", "--tls-cert", "/nonexistent/c", "--tls-key", "/nonexistent/k", "--", "x"], "--tls-cert /nonexistent/c: no such file"],
    [["run", "--url", "ftp://x/acp", "--prompt", "hi"], "--url must be an http(s):// or ws(s):// URL"],
    [["run", "--url", "http://x/acp", "--ws", "ws://x/acp"], "either --url or --ws"],
  ])("usage error %j", async (args, message) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});
