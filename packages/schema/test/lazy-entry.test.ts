// @acpkit/schema/lazy loads nothing up front: in a fresh process (the test setup of every other
// test loads both versions), validation in an unloaded version throws a clear error, the method
// tables work without loading, loadProtocolVersion loads one version (once, shared), and the root
// entry loads both.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));

async function inFreshProcess(script: string): Promise<unknown> {
  expect(existsSync(`${DIST}lazy.js`), "@acpkit/schema is built").toBe(true);
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: DIST });
  return JSON.parse(stdout);
}

describe("@acpkit/schema/lazy", () => {
  it("keeps every version's validators (and each side's part) out of its files: each is a module the entry imports on demand", () => {
    const lazy = readFileSync(`${DIST}lazy.js`, "utf8");
    const validators = readFileSync(`${DIST}generated/v1/validators.js`, "utf8");
    expect(validators.length).toBeGreaterThan(100_000);
    for (const version of ["v1", "v2"])
      for (const name of ["validators", "agent-receives", "client-receives"]) {
        expect(existsSync(`${DIST}generated/${version}/${name}.js`)).toBe(true);
        expect(lazy).toContain(`import("./generated/${version}/${name}.js")`);
      }
    // A bundled-in copy would make the entry as large as the validators themselves.
    expect(lazy.length).toBeLessThan(validators.length / 4);
  });

  it("validates a version only once it is loaded, and loads each version separately", async () => {
    const report = await inFreshProcess(`
      import * as lazy from "./lazy.js";
      const out = { before: [lazy.isProtocolVersionLoaded(1), lazy.isProtocolVersionLoaded(2)] };
      out.kind = lazy.getMethod(2, "session/prompt").kind;
      try { lazy.validateParams(2, "session/cancel", { sessionId: "s" }); out.threw = null; } catch (error) { out.threw = error.message; }
      const first = lazy.loadProtocolVersion(2);
      out.shared = first === lazy.loadProtocolVersion(2);
      await first;
      out.after = [lazy.isProtocolVersionLoaded(1), lazy.isProtocolVersionLoaded(2)];
      out.valid = lazy.validateParams(2, "session/cancel", { sessionId: "s" }).valid;
      out.invalid = lazy.validateParams(2, "session/cancel", {}).valid;
      await lazy.loadProtocolVersion(3).catch((error) => { out.bad = error.constructor.name; });
      console.log(JSON.stringify(out));
    `);
    expect(report).toEqual({
      before: [false, false],
      kind: "request",
      threw: expect.stringContaining("await loadProtocolVersion(2) first"),
      shared: true,
      after: [false, true],
      valid: true,
      invalid: false,
      bad: "RangeError",
    });
  });

  it("loadProtocolVersion(version, side) loads only what that side receives; the rest says it is not loaded", async () => {
    const report = await inFreshProcess(`
      import * as lazy from "./lazy.js";
      const probe = (run) => { try { return run(); } catch (error) { return error.message; } };
      await lazy.loadProtocolVersion(1, "agent");
      const out = { loaded: [lazy.isProtocolVersionLoaded(1), lazy.isProtocolVersionLoaded(1, "agent"), lazy.isProtocolVersionLoaded(1, "client")] };
      // An agent receives session/prompt params and the results of its own requests.
      out.prompt = lazy.validateParams(1, "session/prompt", { sessionId: "s", prompt: [] }).valid;
      out.badPrompt = lazy.validateParams(1, "session/prompt", { sessionId: "s" }).errors.map((e) => e.message);
      out.permissionResult = lazy.validateResult(1, "session/request_permission", { outcome: { outcome: "cancelled" } }).valid;
      // What a client receives (session/update) and whole-version checks are not there.
      out.update = probe(() => lazy.validateParams(1, "session/update", { sessionId: "s", update: {} }));
      out.definition = probe(() => lazy.validateDefinition(1, "ContentBlock", { type: "text", text: "x" }));
      out.bad = await lazy.loadProtocolVersion(1, "server").catch((error) => error.constructor.name + ": " + error.message);
      await lazy.loadProtocolVersion(1, "client");
      out.updateAfterClient = lazy.validateParams(1, "session/update", { sessionId: "s", update: {} }).valid;
      await lazy.loadProtocolVersion(1);
      out.definitionAfterAll = lazy.validateDefinition(1, "ContentBlock", { type: "text", text: "x" }).valid;
      out.v2 = [lazy.isProtocolVersionLoaded(2, "agent"), lazy.isProtocolVersionLoaded(2, "client")];
      console.log(JSON.stringify(out));
    `);
    expect(report).toEqual({
      loaded: [false, true, false],
      prompt: true,
      badPrompt: [expect.stringContaining("prompt")],
      permissionResult: true,
      update: expect.stringMatching(
        /^The protocol v1 validator of SessionNotification is not loaded: only what the agent receives is\. await loadProtocolVersion\(1\)/,
      ),
      definition: expect.stringContaining("await loadProtocolVersion(1) first"),
      bad: 'RangeError: side must be "agent" or "client", got "server"',
      updateAfterClient: false,
      definitionAfterAll: true,
      v2: [false, false],
    });
  });

  it("the root entry has both versions loaded at import", async () => {
    const report = await inFreshProcess(`
      import * as root from "./index.js";
      console.log(JSON.stringify([root.isProtocolVersionLoaded(1), root.isProtocolVersionLoaded(2), root.validateParams(1, "session/cancel", { sessionId: "s" }).valid]));
    `);
    expect(report).toEqual([true, true, true]);
  });

  it("provideValidators registers a version once: the first validators handed over stay", async () => {
    const report = await inFreshProcess(`
      import * as lazy from "./lazy.js";
      import * as v2 from "./generated/v2/validators.js";
      lazy.provideValidators(2, v2);
      const out = { loaded: lazy.isProtocolVersionLoaded(2), before: lazy.validateParams(2, "session/cancel", {}).valid };
      lazy.provideValidators(2, {});
      out.after = lazy.validateParams(2, "session/cancel", { sessionId: "s" }).valid;
      await lazy.loadProtocolVersion(2);
      out.stillInvalid = lazy.validateParams(2, "session/cancel", {}).valid;
      console.log(JSON.stringify(out));
    `);
    expect(report).toEqual({ loaded: true, before: false, after: true, stillInvalid: false });
  });
});

describe("the two entries", () => {
  it("are the root and lazy, and nothing else", () => {
    const manifest = JSON.parse(readFileSync(`${DIST}../package.json`, "utf8")) as { exports: Record<string, string> };
    expect(Object.keys(manifest.exports)).toEqual([".", "./lazy", "./package.json"]);
  });

  it("lazy has no transcript tools; the root is lazy plus them, on lazy's one registry", async () => {
    const lazyText = readFileSync(`${DIST}lazy.js`, "utf8");
    expect(lazyText).not.toMatch(/TranscriptChecker|TranscriptLineValidator/);
    const report = await inFreshProcess(`
      import * as lazy from "./lazy.js";
      await lazy.loadProtocolVersion(1, "agent");
      const out = { prompt: lazy.validateParams(1, "session/prompt", { sessionId: "s", prompt: [] }).valid };
      out.legacy = lazy.detectLegacyMethod("acp/prompt")?.expected ?? null;
      out.tables = [lazy.methodTable(1).length > 10, lazy.methodTable(2).length > 10];
      out.helpers = [lazy.isProtocolVersion(2), lazy.isProtocolVersion("2"), lazy.isJsonObject([]), lazy.ownEntry({}, "constructor") ?? null];
      // The root entry imports lazy's file instead of a copy: what one loaded, the other sees.
      const root = await import("./index.js");
      out.shared = root.getMethod === lazy.getMethod && lazy.isProtocolVersionLoaded(2);
      out.rootOnly = Object.keys(root).filter((name) => !(name in lazy)).sort();
      console.log(JSON.stringify(out));
    `);
    expect(report).toEqual({
      prompt: true,
      legacy: expect.stringContaining("session/prompt"),
      tables: [true, true],
      helpers: [true, false, false, null],
      shared: true,
      rootOnly: [
        "AGENT_MARK",
        "CLIENT_MARK",
        "MAX_OPEN_REQUESTS",
        "TranscriptChecker",
        "TranscriptLineValidator",
        "VERSION_LOOKAHEAD_CHARS",
        "formatProblem",
        "parseTranscriptLine",
        "validateTranscript",
      ],
    });
  });
});
