// `acpkit agent --script FILE`: checking the file (problems named by JSON path) and replaying it.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { checkScript, loadScriptFile, type AgentScript } from "@acpkit/conformance/test-agent";
import { agentCommand } from "../src/commands/agent.js";
import { createStyle } from "../src/style.js";
import { chunkText, CWD, runPrompt, startBuiltinAgent, tagRuns, type StartOptions, type Started } from "../../conformance/test/agent-support.js";

const running: Started[] = [];
afterEach(async () => {
  for (const started of running.splice(0)) await started.close();
});

async function start(options: StartOptions): Promise<Started> {
  const started = await startBuiltinAgent(options);
  running.push(started);
  return started;
}

/** Problems of `value` as "path: message" lines. */
function problems(value: unknown, maxProtocol: 1 | 2 = 2): string[] {
  const checked = checkScript(value, maxProtocol);
  return checked.ok ? [] : checked.problems.map((p) => `${p.path || "/"}: ${p.message}`);
}

function validScript(value: unknown, maxProtocol: 1 | 2 = 2): AgentScript {
  const checked = checkScript(value, maxProtocol);
  if (!checked.ok) throw new Error(`script rejected: ${JSON.stringify(checked.problems)}`);
  return checked.script;
}

const createTool = { update: { sessionUpdate: "tool_call_update", toolCallId: "edit-1", title: "Edit config.json", kind: "edit", status: "pending" } };

const branching = {
  steps: [
    { update: { sessionUpdate: "plan_update", plan: { type: "items", id: "p", entries: [{ content: "Edit", priority: "high", status: "in_progress" }] } } },
    { message: "Thinking about it.", kind: "thought", chunks: 3 },
    createTool,
    { permission: { toolCall: { toolCallId: "edit-1" } } },
    { update: { sessionUpdate: "tool_call_update", toolCallId: "edit-1", status: "completed" }, when: "allowed" },
    { message: "Edited.", when: "allowed" },
    { update: { sessionUpdate: "tool_call_update", toolCallId: "edit-1", status: "failed" }, when: "rejected" },
    { message: "Not edited.", when: "rejected" },
    { sleep: 1 },
    { update: { sessionUpdate: "usage_update", used: 10, size: 100 } },
  ],
  stopReason: "max_tokens",
};

describe("script checking", () => {
  it("accepts a script using every step kind and returns its steps", () => {
    const script = validScript({ ...branching, steps: [...branching.steps, { read: { path: "a.txt", line: 2, limit: 5 } }] });
    expect(script.stopReason).toBe("max_tokens");
    expect(script.steps.map((s) => s.type)).toEqual([
      "update",
      "message",
      "update",
      "permission",
      "update",
      "message",
      "update",
      "message",
      "sleep",
      "update",
      "read",
    ]);
    expect(script.steps[3]).toMatchObject({ type: "permission", options: [{ kind: "allow_once" }, { kind: "reject_once" }] });
    expect(validScript({ steps: [] }).stopReason).toBe("end_turn");
  });

  it("names each problem by its JSON path", () => {
    expect(
      problems({
        steps: [
          { message: "ok" },
          { message: "" },
          { sleep: -5 },
          { sleep: 1.5 },
          { read: { path: "", lines: 3 } },
          { message: "x", sleep: 3 },
          {},
          { message: "x", kind: "shout", chunks: 0 },
          "sleep 3",
        ],
        stopReason: "error",
        extra: true,
      }),
    ).toEqual([
      "/extra: unknown property (allowed here: $schema, description, steps, stopReason)",
      '/stopReason: stop reason "error" is not one of end_turn, max_tokens, max_turn_requests, refusal, cancelled, and custom stop reasons must start with "_" (failures are JSON-RPC errors, not stop reasons)',
      '/steps/1/message: must be a non-empty string (got the string "")',
      "/steps/2/sleep: must be a non-negative integer number of milliseconds, at most 600000 (got number -5)",
      "/steps/3/sleep: must be a non-negative integer number of milliseconds, at most 600000 (got number 1.5)",
      "/steps/4/read/lines: unknown property (allowed here: path, line, limit)",
      '/steps/4/read/path: must be a non-empty string: a path, absolute or relative to the session cwd (got the string "")',
      "/steps/5: must have only one of update, message, permission, sleep, read (found message, sleep); use one step for each",
      "/steps/6: must have one of update, message, permission, sleep, read",
      '/steps/7/kind: must be "agent" or "thought" (got the string "shout")',
      "/steps/7/chunks: must be a positive integer (got number 0)",
      '/steps/8: must be an object with one of update, message, permission, sleep, read (got the string "sleep 3")',
    ]);
  });

  it("checks embedded protocol objects against the v2 schema, with paths into the script", () => {
    expect(problems({ steps: [{ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } } }] })).toEqual([
      "/steps/0/update/messageId: must have required property 'messageId'",
    ]);
    // A v1-only shape is named as such.
    expect(problems({ steps: [{ update: { sessionUpdate: "tool_call", toolCallId: "t", title: "x" } }] })[0]).toMatch(
      /^\/steps\/0\/update\/sessionUpdate: v1 shape on a v2 connection "tool_call"/,
    );
    expect(problems({ steps: [createTool, { permission: { toolCall: { toolCallId: "edit-1" }, options: [{ optionId: "a", kind: "allow_once" }] } }] })).toEqual(
      ["/steps/1/permission/options/0/name: must have required property 'name'"],
    );
    // Conformance too: an open-enum value that is neither known nor "_"-prefixed.
    expect(problems({ steps: [createTool, { permission: { toolCall: { toolCallId: "edit-1", kind: "zap" } } }] })).toEqual([
      '/steps/1/permission/toolCall/kind: "zap" is not a known ToolKind value ("read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"); custom values must start with "_"',
    ]);
  });

  it("requires the tool call to exist before its permission step, and a permission step before a `when`", () => {
    expect(
      problems({ steps: [{ message: "x", when: "allowed" }, { permission: { toolCall: { toolCallId: "nope" } } }, { message: "y", when: "maybe" }] }),
    ).toEqual([
      "/steps/0/when: refers to the latest permission step, but no permission step comes before this one",
      '/steps/1/permission/toolCall/toolCallId: tool call "nope" must be created first, by an earlier update step {"sessionUpdate": "tool_call_update", "toolCallId": "nope", …}',
      '/steps/2/when: must be "allowed" or "rejected" (got the string "maybe")',
    ]);
    expect(problems({ steps: [createTool, { permission: { toolCall: { toolCallId: "edit-1" }, options: [] } }] })).toEqual([
      "/steps/1/permission/options: must be a non-empty array of permission options (leave it out for Allow / Reject)",
    ]);
  });

  it("custom stop reasons need protocol v2", () => {
    expect(problems({ steps: [], stopReason: "_acpkit/budget" }, 2)).toEqual([]);
    expect(problems({ steps: [], stopReason: "_acpkit/budget" }, 1)).toEqual([
      '/stopReason: stop reason "_acpkit/budget" is a custom (v2) value, but this connection speaks protocol v1, which allows only end_turn, max_tokens, max_turn_requests, refusal, cancelled (the agent runs with --max-protocol 1)',
    ]);
  });

  it("rejects a root that is not an object, or has no steps", () => {
    expect(problems([])).toEqual(['/: must be an object with a "steps" array (got an array)']);
    expect(problems({})).toEqual(['/: must have a "steps" array']);
    expect(problems({ steps: {} })).toEqual(["/steps: must be an array of steps (got object {})"]);
  });
});

describe("the JSON Schema file", () => {
  const schema = JSON.parse(readFileSync(new URL("../schema/agent-script.schema.json", import.meta.url), "utf8"));
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);

  it("accepts its own example and the scripts the agent accepts", () => {
    for (const example of schema.examples) {
      expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
      expect(problems(example)).toEqual([]);
    }
    expect(validate(branching), JSON.stringify(validate.errors)).toBe(true);
  });

  it("rejects the structural mistakes the agent rejects", () => {
    const bad = [
      { steps: [{ sleep: -1 }] },
      { steps: [{ message: "x", sleep: 3 }] },
      { steps: [{}] },
      { steps: [{ message: "x", kind: "shout" }] },
      { steps: [{ read: { path: "a", lines: 3 } }] },
      { steps: [], stopReason: "error" },
      { steps: [], extra: 1 },
      {},
    ];
    for (const script of bad) {
      expect(validate(script), JSON.stringify(script)).toBe(false);
      expect(problems(script).length, JSON.stringify(script)).toBeGreaterThan(0);
    }
  });
});

describe("script files", () => {
  const dir = mkdtempSync(join(tmpdir(), "acpkit-agent-script-"));
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it("reports unreadable files and invalid JSON with the file name", async () => {
    const missing = await loadScriptFile(join(dir, "missing.json"), "missing.json", 2);
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.errors[0]).toMatch(/^missing\.json: cannot read the script: ENOENT/);
    const broken = await loadScriptFile(write("broken.json", '{"steps": ['), "broken.json", 2);
    expect(!broken.ok && broken.errors[0]).toMatch(/^broken\.json: not valid JSON: /);
  });

  it("acpkit agent --script with an invalid script prints every problem on stderr, nothing on stdout, exit 2", async () => {
    write("bad.json", JSON.stringify({ steps: [{ message: "ok" }, { message: "ok" }, { message: "ok" }, { sleep: "soon" }] }));
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = "";
    let err = "";
    stdout.on("data", (chunk) => (out += chunk));
    stderr.on("data", (chunk) => (err += chunk));
    const style = createStyle(false);
    const code = await agentCommand(["--script", "bad.json"], { stdin: new PassThrough(), stdout, stderr, out: style, err: style, cwd: dir });
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toBe('acpkit agent: bad.json: /steps/3/sleep: must be a non-negative integer number of milliseconds, at most 600000 (got the string "soon")\n');
  });
});

describe("script replay", () => {
  it.each([1, 2] as const)("v%i: replays updates, messages, the permission branch and the stop reason", async (offer) => {
    const { session, permissionRequests } = await start({ offer, script: validScript(branching), permission: "allow" });
    const { updates, stopReason } = await runPrompt(session, "anything, even /echo");
    expect(stopReason).toBe("max_tokens");
    expect(permissionRequests.map((r) => r.toolCall.toolCallId)).toEqual(["edit-1"]);
    expect(tagRuns(updates)).toEqual(["plan_update", "agent_thought_chunk", "tool_call_update", "agent_message_chunk", "usage_update"]);
    expect(chunkText(updates, "agent_thought_chunk")).toBe("Thinking about it.");
    expect(updates.filter((u) => u.sessionUpdate === "agent_thought_chunk")).toHaveLength(3);
    expect(chunkText(updates, "agent_message_chunk")).toBe("Edited.");
    expect(session.state.toolCalls[0]).toMatchObject({ toolCallId: "edit-1", status: "completed" });
  });

  it("takes the rejected branch when permission is not granted", async () => {
    const { session } = await start({ offer: 2, script: validScript(branching), permission: "reject" });
    const { updates, stopReason } = await runPrompt(session, "go");
    expect(stopReason).toBe("max_tokens");
    expect(chunkText(updates, "agent_message_chunk")).toBe("Not edited.");
    expect(session.state.toolCalls[0]!.status).toBe("failed");
  });

  it("ends cancelled when cancelled during a permission step, skipping the rest", async () => {
    const { session, wire } = await start({ offer: 2, script: validScript(branching), permission: "cancel-turn" });
    const { stopReason } = await runPrompt(session, "go");
    expect(stopReason).toBe("cancelled");
    const askedAt = wire.received.findIndex((m) => m.method === "session/request_permission");
    expect(wire.received.slice(askedAt + 1).some((m) => m.method === "session/update")).toBe(false);
  });

  it("ends cancelled when cancelled during a sleep", async () => {
    const script = validScript({ steps: [{ message: "before" }, { sleep: 600000 }, { message: "after" }] });
    const { session } = await start({ offer: 2, script });
    const turn = session.prompt("go");
    for await (const update of turn) {
      if (update.sessionUpdate === "agent_message_chunk") await turn.cancel();
    }
    expect((await turn).stopReason).toBe("cancelled");
    expect(session.state.messages.filter((m) => m.kind === "agent_message").map((m) => m.content)).toEqual([[{ type: "text", text: "before" }]]);
  });

  it("read steps go through the client on v1 and resolve against the session cwd", async () => {
    const reads: unknown[] = [];
    const script = validScript({ steps: [{ read: { path: "src/a.ts", line: 3, limit: 2 } }] });
    const { session } = await start({
      offer: 1,
      script,
      fs: {
        readTextFile: (r) => {
          reads.push(r);
          return "x\ny\n";
        },
      },
    });
    expect((await runPrompt(session, "go")).stopReason).toBe("end_turn");
    expect(reads).toEqual([{ sessionId: session.sessionId, path: `${CWD}/src/a.ts`, line: 3, limit: 2 }]);
  });

  it("a custom stop reason reaches a v2 client as is and a v1 client as end_turn with _meta (bridge B5)", async () => {
    const script = validScript({ steps: [{ message: "done" }], stopReason: "_acpkit/budget_exhausted" });
    const v2 = await start({ offer: 2, script });
    expect((await runPrompt(v2.session, "go")).stopReason).toBe("_acpkit/budget_exhausted");
    const v1 = await start({ offer: 1, script });
    const outcome = await runPrompt(v1.session, "go");
    expect(outcome.stopReason).toBe("end_turn");
    expect(outcome._meta).toEqual({ "acpkit/v2StopReason": "_acpkit/budget_exhausted" });
  });
});
