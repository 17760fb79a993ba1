// `acpkit inspect` in headless Chromium against `acpkit agent`: the page drives a whole session
// (initialize, new session, mode switch, a permission answered by a click, a streamed turn
// cancelled mid-way), exports a transcript that `acpkit validate` accepts and replays it into the
// same views; the launch token, Host and Origin guard the API and the WebSocket; and in tap mode
// a scripted client gets exactly the bytes the agent wrote while the page shows the traffic.
// Screenshots of the main views go to test-results/inspector (ACPKIT_SCREENSHOTS_DIR overrides:
// docs/images is how docs/inspector.md's pictures are made).
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import WebSocket from "ws";
import { BIN, BUILTIN_AGENT, runCli, startCli } from "../support/cli.js";

const CHROMIUM = "/usr/bin/chromium";
const TEE_AGENT = fileURLToPath(new URL("../fixtures/tee-agent.mjs", import.meta.url));
const SHOTS = resolve(process.env.ACPKIT_SCREENSHOTS_DIR ?? fileURLToPath(new URL("../../test-results/inspector/", import.meta.url)));

let browser: Browser | undefined;
let workDir: string;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "acpkit-inspect-"));
  mkdirSync(SHOTS, { recursive: true });
  if (existsSync(CHROMIUM)) {
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  }
});

afterAll(async () => {
  await browser?.close();
  rmSync(workDir, { recursive: true, force: true });
});

/** Start `acpkit inspect …` and resolve with the URL of its `inspector: URL` line (stdout, or stderr with --tap). */
async function startInspect(context: TestContext, args: readonly string[]): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = startCli(["inspect", "--no-open", ...args], { cwd: workDir });
  context.onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });
  const tap = args.includes("--tap");
  let stderr = "";
  let announced = "";
  child.stderr!.setEncoding("utf8");
  const url = await new Promise<string>((resolveUrl, reject) => {
    const watch = (text: string, stream: "out" | "err") => {
      if (stream === "err") stderr += text;
      if ((stream === "err") !== tap) return;
      announced += text;
      const match = /^inspector: (\S+)$/m.exec(announced);
      if (match) resolveUrl(match[1]!);
    };
    child.stderr!.on("data", (text: string) => watch(text, "err"));
    if (!tap) child.stdout!.setEncoding("utf8").on("data", (text: string) => watch(text, "out"));
    child.once("exit", (code) => reject(new Error(`acpkit inspect exited with ${code} before printing its URL: ${stderr}`)));
  });
  return { url, child, stderr: () => stderr };
}

/** A page that records every request it makes, to prove it talks to nothing but the inspector. */
async function openPage(url: string, viewport = { width: 1400, height: 900 }): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await browser!.newPage({ viewport, acceptDownloads: true });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("websocket", (socket) => requests.push(socket.url()));
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(url);
  return { page, requests, errors };
}

function onlyOwnServer(requests: readonly string[], url: string): string[] {
  const { host } = new URL(url);
  return requests.filter((request) => !request.startsWith("data:") && !request.startsWith("blob:") && new URL(request).host !== host);
}

describe("acpkit inspect", () => {
  it.skipIf(!existsSync(CHROMIUM)).for(["http", "ws"])(
    "--url drives an agent behind acpkit serve (%s profile) from the page: a turn with a permission card (needs /usr/bin/chromium)",
    async (scheme, context) => {
      const serve = startCli(["serve", "--listen", "127.0.0.1:0", "--", ...BUILTIN_AGENT]);
      context.onTestFinished(async () => {
        if (serve.exitCode === null && serve.signalCode === null) {
          serve.kill("SIGTERM");
          await once(serve, "exit");
        }
      });
      let served = "";
      const endpoint = await new Promise<string>((resolveUrl, reject) => {
        serve.stdout!.setEncoding("utf8").on("data", (text: string) => {
          served += text;
          const match = /^serving: (\S+)$/m.exec(served);
          if (match) resolveUrl(match[1]!);
        });
        serve.once("exit", (code) => reject(new Error(`acpkit serve exited with ${code}`)));
      });
      const { url, stderr } = await startInspect(context, ["--protocol", "2", "--url", endpoint.replace(/^http/, scheme)]);
      const { page, errors } = await openPage(url);
      try {
        await page.getByTestId("initialize").click();
        await expect.poll(() => page.getByTestId("agent-info").innerText()).toMatch(/acpkit built-in agent .* protocol v2/);
        await page.getByTestId("new-session").click();
        await page.getByTestId("prompt-input").fill("/permission");
        await page.getByTestId("send").click();
        const card = page.getByTestId("permission-card");
        await card.waitFor();
        await card.locator('button[data-kind="allow_once"]').click();
        await expect.poll(() => page.getByTestId("timeline").innerText()).toContain("Permission granted");
        expect(await page.getByTestId("wire-summary").innerText()).toContain("0 with problems");
        expect(stderr()).toContain(`connecting to ${endpoint.replace(/^http/, scheme)}`);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );

  it.skipIf(!existsSync(CHROMIUM))(
    "drives an agent of the later v2 draft (the official SDK's router agent): the dialect is named, the wire checked against that draft (needs /usr/bin/chromium)",
    async (context) => {
      const sdkAgent = fileURLToPath(new URL("../../../../test-support/fixtures/sdk-later-v2-agent.mjs", import.meta.url));
      const { url } = await startInspect(context, ["--protocol", "2", "--", process.execPath, sdkAgent, "--v2-only"]);
      const { page, errors } = await openPage(url);
      try {
        await page.getByTestId("initialize").click();
        await expect.poll(() => page.getByTestId("agent-info").innerText()).toMatch(/sdk-later-v2-agent 2\.4\.0 · protocol v2 \(the later v2 draft\)/);
        await page.getByTestId("new-session").click();
        await page.getByTestId("prompt-input").fill("hello");
        await page.getByTestId("send").click();
        await expect.poll(() => page.getByTestId("agent-message").allInnerTexts()).toContain("hello over later v2");
        await page.locator("[data-stop-reason=end_turn]").waitFor();
        // Every line on the wire is the later draft's, checked against its schema: no problem.
        expect(await page.getByTestId("wire-summary").innerText()).toContain("0 with problems");
        // Exported, it validates as the later draft (its first, pinned offer judged as the pinned
        // draft's: the client retried in the later one); imported back, the turn view is rebuilt
        // through that draft's codec.
        const download = page.waitForEvent("download");
        await page.getByTestId("export").click();
        const file = join(workDir, "later.ndjson");
        await (await download).saveAs(file);
        const validated = await runCli(["validate", "--strict", file]);
        expect(validated.stdout).toContain("(the later v2 draft)");
        expect(validated.code).toBe(0);
        const live = await page.getByTestId("agent-message").allInnerTexts();
        await page.getByTestId("import").setInputFiles(file);
        await expect.poll(() => page.getByTestId("connection-status").innerText()).toBe("imported transcript");
        await expect.poll(() => page.getByTestId("agent-message").allInnerTexts()).toEqual(live);
        await page.locator("[data-stop-reason=end_turn]").waitFor();
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );

  it.skipIf(!existsSync(CHROMIUM))(
    "drives a session in the browser: mode, permission, cancel, export, validate, import (needs /usr/bin/chromium)",
    async (context) => {
      const { url } = await startInspect(context, ["--protocol", "1", "--", ...BUILTIN_AGENT, "--chunk-delay", "150"]);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
      const { page, requests, errors } = await openPage(url);
      try {
        await expect.poll(() => page.getByTestId("protocol").inputValue()).toBe("1");
        await page.getByTestId("initialize").click();
        await expect.poll(() => page.getByTestId("agent-info").innerText()).toMatch(/acpkit built-in agent .* protocol v1/);

        await page.getByTestId("new-session").click();
        await page.getByTestId("mode-select").waitFor();
        expect(await page.getByTestId("mode-select").inputValue()).toBe("ask");
        await page.getByTestId("mode-select").selectOption("code");
        await page.locator('[data-testid=wire-row][data-method="session/set_mode"][data-direction=agent_to_client]').waitFor();
        expect(await page.getByTestId("mode-select").inputValue()).toBe("code");

        // The agent's commands as a slash menu.
        await page.getByTestId("prompt-input").fill("/per");
        await expect.poll(() => page.getByTestId("slash-menu").innerText()).toContain("/permission");
        await page.screenshot({ path: join(SHOTS, "inspector-session.png") });

        await page.getByTestId("prompt-input").fill("/permission");
        await page.getByTestId("send").click();
        const card = page.getByTestId("permission-card");
        await card.waitFor();
        await page.screenshot({ path: join(SHOTS, "inspector-permission.png") });
        await card.locator('button[data-kind="allow_once"]').click();
        await page.locator("[data-testid=tool-call][data-status=completed]").waitFor();
        await expect.poll(() => page.getByTestId("timeline").innerText()).toContain("Permission granted");
        expect(await page.getByTestId("diff").count()).toBe(1);

        // A turn streamed slowly (150 ms a chunk), cancelled once a few chunks are in.
        await page.getByTestId("prompt-input").fill("/stream 50");
        await page.getByTestId("send").click();
        await expect.poll(() => page.getByTestId("timeline").innerText(), { timeout: 10_000 }).toContain("3 the quick");
        await page.getByTestId("cancel").click();
        await page.locator("[data-stop-reason=cancelled]").waitFor();
        const streamed = (await page.getByTestId("agent-message").allInnerTexts()).at(-1)!;
        expect(streamed).toContain("3 the quick");
        expect(streamed).not.toContain("49 the");
        await page.locator('[data-testid=wire-row][data-method="session/cancel"]').waitFor();
        expect(await page.getByTestId("wire-summary").innerText()).toContain("0 with problems");
        await page.screenshot({ path: join(SHOTS, "inspector-turn.png") });

        // Export: the transcript acpkit validate reads.
        const download = page.waitForEvent("download");
        await page.getByTestId("export").click();
        const file = join(workDir, "exported.ndjson");
        await (await download).saveAs(file);
        const transcript = readFileSync(file, "utf8");
        expect(transcript).toMatch(/^→ \{"jsonrpc":"2.0","id":0,"method":"initialize"/);
        for (const method of ["session/set_mode", "session/request_permission", "session/cancel"]) expect(transcript).toContain(`"method":"${method}"`);
        const validated = await runCli(["validate", "--strict", file]);
        expect(validated.stderr + validated.stdout).not.toMatch(/line \d+:/);
        expect(validated.code).toBe(0);

        // Import it back: the same messages, without an agent.
        const live = await page.getByTestId("agent-message").allInnerTexts();
        const liveUser = await page.getByTestId("user-message").allInnerTexts();
        const liveTimeline = await page.getByTestId("timeline").innerText();
        expect(live.length).toBe(2); // "Permission granted…" and the cancelled stream
        await page.getByTestId("import").setInputFiles(file);
        await expect.poll(() => page.getByTestId("connection-status").innerText()).toBe("imported transcript");
        await expect.poll(() => page.getByTestId("agent-message").allInnerTexts()).toEqual(live);
        expect(await page.getByTestId("user-message").allInnerTexts()).toEqual(liveUser);
        // The same items in the same order: prompts, tool call with its diff and outcome, answers, stop reason.
        expect(await page.getByTestId("timeline").innerText()).toBe(liveTimeline);
        expect(await page.locator("[data-testid=tool-call][data-status=completed]").count()).toBe(1);
        expect(await page.getByTestId("wire-row").count()).toBe(transcript.trim().split("\n").length);
        await page.screenshot({ path: join(SHOTS, "inspector-import.png") });

        // Filter the wire by update kind.
        await page.getByTestId("wire-filter").fill("tool_call");
        await expect
          .poll(async () => new Set(await page.getByTestId("wire-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-update-kind")))))
          .toEqual(new Set(["tool_call", "tool_call_update"]));

        // A narrow window still shows everything, stacked.
        await page.setViewportSize({ width: 420, height: 900 });
        await page.getByTestId("wire-filter").fill("");
        await page.screenshot({ path: join(SHOTS, "inspector-narrow.png"), fullPage: false });
        expect(await page.getByTestId("timeline").isVisible()).toBe(true);

        expect(errors).toEqual([]);
        expect(onlyOwnServer(requests, url)).toEqual([]);
      } finally {
        await page.close();
      }
    },
    60_000,
  );

  it.skipIf(!existsSync(CHROMIUM))(
    "shows the rest of the surface: login, plans, config, elicitation forms and links, terminals, attachments, list and close (needs /usr/bin/chromium)",
    async (context) => {
      const { url } = await startInspect(context, ["--protocol", "1", "--", ...BUILTIN_AGENT]);
      const { page, requests, errors } = await openPage(url);
      const promptRows = (direction: "client_to_agent" | "agent_to_client") =>
        page.locator(`[data-testid=wire-row][data-method="session/prompt"][data-direction=${direction}]`);
      // Returns once the prompt is on the wire: right after the click the page may not have drawn
      // its "turn running" marker yet, and a wait for that marker to go would end at once.
      const prompt = async (text: string) => {
        const sent = await promptRows("client_to_agent").count();
        await page.getByTestId("prompt-input").fill(text);
        await page.getByTestId("send").click();
        await expect.poll(() => promptRows("client_to_agent").count()).toBeGreaterThan(sent);
      };
      // Every prompt sent has its answer, and the page has drawn the turn's end.
      const turnEnded = async () => {
        const sent = await promptRows("client_to_agent").count();
        await expect.poll(() => promptRows("agent_to_client").count()).toBe(sent);
        await page.locator("[data-testid=turn-running]").waitFor({ state: "detached" });
      };
      try {
        await page.getByTestId("initialize").click();
        await page.getByRole("button", { name: /Authenticate: Test login/ }).click();
        await page.locator('[data-testid=wire-row][data-method="authenticate"][data-direction=agent_to_client]').waitFor();
        await page.getByTestId("new-session").click();
        await page.getByTestId("config-model").waitFor();
        await page.getByTestId("config-model").selectOption("thorough");
        await page.locator('[data-testid=wire-row][data-method="session/set_config_option"][data-direction=agent_to_client]').waitFor();
        expect(await page.getByTestId("config-model").inputValue()).toBe("thorough");

        await prompt("/plan");
        await turnEnded();
        await expect.poll(() => page.locator("[data-testid=plan] li[data-status=completed]").count()).toBe(3);

        // An elicitation form built from the agent's schema: the default filled in, then changed.
        await prompt("/elicit");
        const form = page.getByTestId("elicitation-card");
        await form.waitFor();
        expect(await form.getByLabel("Your name").inputValue()).toBe("Ada");
        await form.getByLabel("Your name").fill("Grace");
        await form.getByLabel("Subscribe to updates").check();
        await page.screenshot({ path: join(SHOTS, "inspector-elicitation.png") });
        await form.getByRole("button", { name: "Accept" }).click();
        await expect.poll(() => page.getByTestId("timeline").innerText()).toContain('Elicitation answered: accept {"name":"Grace","subscribe":true}');

        // A URL elicitation is a link only to a web page: a javascript: address stays text (the
        // page's CSP would refuse to run it too; the card does not depend on that).
        await prompt("/elicit javascript:document.title='pwned'");
        await page.getByTestId("refused-link").waitFor();
        expect(await page.getByTestId("refused-link").textContent()).toContain("javascript:document.title='pwned' is not an http or https address");
        expect(await page.getByTestId("elicitation-card").locator("a").count()).toBe(0);
        await page.getByTestId("elicitation-card").getByRole("button", { name: "Decline" }).click();
        await expect.poll(() => page.getByTestId("timeline").textContent()).toContain("Elicitation answered: decline");
        await prompt("/elicit https://example.com/login");
        const link = page.getByTestId("elicitation-card").getByRole("link");
        await link.waitFor();
        expect(await link.getAttribute("href")).toBe("https://example.com/login");
        expect(await link.getAttribute("rel")).toBe("noreferrer noopener");
        await page.getByTestId("elicitation-card").getByRole("button", { name: "Done" }).click();
        await expect.poll(() => page.getByTestId("timeline").textContent()).toContain("Elicitation answered: accept {}");

        // The page runs no commands: its terminal says so and exits 127, shown in the tool call.
        await prompt("/terminal ls -l");
        await page.getByTestId("terminal").waitFor();
        await expect.poll(() => page.getByTestId("terminal").innerText()).toContain("this terminal is simulated");
        await expect.poll(() => page.getByTestId("timeline").innerText()).toContain("exited with code 127");

        // A file attached as a resource_link.
        const attachment = join(workDir, "notes.txt");
        await import("node:fs/promises").then((fs) => fs.writeFile(attachment, "remember the milk\n"));
        await page.getByTestId("attach").setInputFiles(attachment);
        await page.getByLabel("attach as").selectOption("resource_link");
        await prompt("/echo attached");
        await turnEnded();
        const sentPrompt = await page.locator('[data-testid=wire-row][data-method="session/prompt"][data-direction=client_to_agent]').last();
        await sentPrompt.locator("button").click();
        expect(await sentPrompt.locator("pre").innerText()).toContain('"type": "resource_link"');
        await expect.poll(() => page.getByTestId("user-message").last().innerText()).toContain("notes.txt");

        // List, close the open session, then load it from the list: its history is replayed into the page.
        await page.getByTestId("list-sessions").click();
        await expect.poll(() => page.getByTestId("listed-sessions").innerText()).toMatch(/sess_1/);
        await page.getByTestId("open-sessions").getByRole("button", { name: "Close" }).click();
        await page.locator('[data-testid=wire-row][data-method="session/close"][data-direction=agent_to_client]').waitFor();
        await expect.poll(() => page.getByTestId("open-sessions").locator("li").count()).toBe(0);
        await page.getByTestId("listed-sessions").getByRole("button", { name: "Load" }).click();
        await page.locator('[data-testid=wire-row][data-method="session/load"][data-direction=agent_to_client]').waitFor();
        await expect.poll(() => page.getByTestId("user-message").allInnerTexts()).toContain("/plan");
        await expect.poll(() => page.getByTestId("open-sessions").locator("li").count()).toBe(1);
        expect(await page.getByTestId("wire-summary").innerText()).toContain("0 with problems");
        expect(errors).toEqual([]);
        expect(onlyOwnServer(requests, url)).toEqual([]);
      } finally {
        await page.close();
      }
    },
    60_000,
  );

  it("refuses the API and the WebSocket without the token (401), and a foreign Origin (403)", async (context) => {
    const { url } = await startInspect(context, ["--", ...BUILTIN_AGENT]);
    const { origin, port, searchParams } = new URL(url);
    const token = searchParams.get("token")!;
    expect((await fetch(`${origin}/api/info`)).status).toBe(401);
    expect((await fetch(`${origin}/api/info?token=${token}`)).status).toBe(200);
    const status = (target: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolveStatus, reject) => {
        const socket = new WebSocket(target, { headers });
        socket.once("open", () => {
          socket.close();
          resolveStatus(101);
        });
        socket.once("unexpected-response", (_request, response) => resolveStatus(response.statusCode!));
        socket.once("error", reject);
      });
    expect(await status(`ws://127.0.0.1:${port}/acp`)).toBe(401);
    expect(await status(`ws://127.0.0.1:${port}/acp?token=${token}`, { origin: "http://attacker.example" })).toBe(403);
    expect(await status(`ws://127.0.0.1:${port}/acp?token=${token}`, { origin })).toBe(101);
  });

  it("refuses to listen elsewhere without a token file", async () => {
    const result = await runCli(["inspect", "--no-open", "--host", "0.0.0.0", "--", ...BUILTIN_AGENT]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--host needs --token-file");
  });

  it.skipIf(!existsSync(CHROMIUM))(
    "--tap relays the editor's traffic byte for byte and shows it in the page (needs /usr/bin/chromium)",
    async (context) => {
      const agentWrote = join(workDir, "agent-stdout.bin");
      const { url, child } = await startInspect(context, ["--tap", "--", process.execPath, TEE_AGENT, agentWrote, process.execPath, BIN, "agent"]);
      const { page, requests, errors } = await openPage(url);
      try {
        await expect.poll(() => page.getByTestId("connection-status").innerText()).toBe("tap (read-only)");
        const received: Buffer[] = [];
        child.stdout!.on("data", (chunk: Buffer) => received.push(chunk));
        const lines = () =>
          Buffer.concat(received)
            .toString("utf8")
            .split("\n")
            .filter((line) => line !== "");
        const send = (message: unknown) => child.stdin!.write(`${JSON.stringify(message)}\n`);
        send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } });
        send({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: workDir, mcpServers: [] } });
        await expect.poll(() => lines().some((line) => line.startsWith('{"jsonrpc":"2.0","id":1,'))).toBe(true);
        const sessionId = JSON.parse(lines().find((line) => line.startsWith('{"jsonrpc":"2.0","id":1,'))!).result.sessionId;
        send({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "/echo hello through the tap" }] } });
        await expect.poll(() => lines().some((line) => line.startsWith('{"jsonrpc":"2.0","id":2,'))).toBe(true);

        await expect.poll(() => page.locator('[data-testid=wire-row][data-method="session/prompt"]').count()).toBe(2);
        await expect.poll(() => page.getByTestId("timeline").innerText()).toContain("hello through the tap");
        expect(await page.getByTestId("wire-summary").innerText()).toContain("0 with problems");

        // A message that breaks the schema is relayed as it is, and the page marks it with the JSON path of the problem.
        send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: 42 } });
        const bad = page.locator('[data-testid=wire-row][data-method="session/cancel"][data-problems="1"]');
        await bad.waitFor();
        expect(await bad.getByTestId("problem").innerText()).toMatch(/^\/params\/sessionId /);
        await expect.poll(() => page.getByTestId("wire-summary").innerText()).toContain("1 with problems");
        expect(await page.getByTestId("prompt-input").count()).toBe(0); // read-only
        await page.screenshot({ path: join(SHOTS, "inspector-tap.png") });
        expect(lines().join("\n")).not.toContain('"sessionId":42'); // the agent ignored it; nothing was answered

        child.stdin!.end();
        const [code] = await once(child, "exit");
        expect(code).toBe(0);
        expect(existsSync(agentWrote)).toBe(true);
        const wrote = readFileSync(agentWrote);
        expect(wrote.length).toBeGreaterThan(0);
        expect(Buffer.concat(received).equals(wrote)).toBe(true);
        expect(errors).toEqual([]);
        expect(onlyOwnServer(requests, url)).toEqual([]);
      } finally {
        await page.close();
      }
    },
    60_000,
  );
});
