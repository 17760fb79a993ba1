// The script format of `acpkit agent --script FILE`: a JSON file describing one turn that the
// agent replays for every prompt. The format is documented by schema/agent-script.schema.json;
// this module checks a file against the same rules (plus the ACP schema for the protocol objects
// it embeds) and turns it into steps, reporting every problem with its JSON Pointer.
import { isJsonObject } from "@acpkit/core";
import { readFile } from "node:fs/promises";
import type { SessionUpdate, PermissionOption } from "@acpkit/agent";
import { checkOutgoing, type ProtocolVersion } from "@acpkit/schema";
import { stopReasonProblem } from "./stop-reasons.js";
import { EDIT_PERMISSION_OPTIONS } from "./tools.js";

/** A step runs only when the latest permission step ended this way. */
export type ScriptCondition = "allowed" | "rejected";

/** One validated step of an agent script (the JSON form is in schema/agent-script.schema.json). */
export type ScriptStep = (
  | { type: "update"; update: SessionUpdate }
  | { type: "message"; text: string; kind: "agent" | "thought"; chunks: number | undefined }
  | { type: "permission"; toolCall: { toolCallId: string } & Record<string, unknown>; options: PermissionOption[] }
  | { type: "sleep"; ms: number }
  | { type: "read"; path: string; line: number | undefined; limit: number | undefined }
) & { when: ScriptCondition | undefined };

/** A validated script. */
export interface AgentScript {
  steps: ScriptStep[];
  stopReason: string;
}

/** One problem in a script: where (a JSON Pointer, "" for the root) and what. */
export interface ScriptProblem {
  path: string;
  message: string;
}

/** What `checkScript` found: the parsed script, or every problem with its JSON path. */
export type ScriptCheck = { ok: true; script: AgentScript } | { ok: false; problems: ScriptProblem[] };

/** Longest sleep step: 10 minutes. */
export const MAX_SLEEP_MS = 600_000;
const ACTIONS = ["update", "message", "permission", "sleep", "read"] as const;
const ROOT_KEYS = ["$schema", "description", "steps", "stopReason"];
const STEP_KEYS: Record<(typeof ACTIONS)[number], readonly string[]> = {
  update: ["update", "when"],
  message: ["message", "kind", "chunks", "when"],
  permission: ["permission", "when"],
  sleep: ["sleep", "when"],
  read: ["read", "when"],
};
/** Placeholder session id for checking embedded protocol objects as whole params. */
const CHECK_SESSION = "script";

function isWholeNumber(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? `the string ${JSON.stringify(value)}` : `${typeof value} ${JSON.stringify(value)}`;
}

/** Collects problems while walking the script. */
class Checker {
  readonly problems: ScriptProblem[] = [];
  add(path: string, message: string): void {
    this.problems.push({ path, message });
  }
  unknownKeys(value: Record<string, unknown>, path: string, allowed: readonly string[]): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) this.add(`${path}/${escapePointer(key)}`, `unknown property (allowed here: ${allowed.join(", ")})`);
    }
  }
  /** Problems from the ACP schema, re-rooted: `/toolCall/kind` under `base`. */
  protocol(base: string, result: ReturnType<typeof checkOutgoing>, strip: string): void {
    if (result.valid) return;
    for (const error of result.errors) {
      const inner = error.path.startsWith(strip) ? error.path.slice(strip.length) : error.path;
      this.add(base + inner, error.message);
    }
  }
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Check a parsed script file. `maxProtocol` is the highest version the agent will speak: with 1,
 * custom (`_`) stop reasons are refused, since no connection could carry them.
 */
export function checkScript(value: unknown, maxProtocol: ProtocolVersion): ScriptCheck {
  const checker = new Checker();
  if (!isJsonObject(value)) {
    checker.add("", `must be an object with a "steps" array (got ${describe(value)})`);
    return { ok: false, problems: checker.problems };
  }
  checker.unknownKeys(value, "", ROOT_KEYS);
  if (value.$schema !== undefined && typeof value.$schema !== "string") checker.add("/$schema", "must be a string");
  if (value.description !== undefined && typeof value.description !== "string") checker.add("/description", "must be a string");

  let stopReason = "end_turn";
  if (value.stopReason !== undefined) {
    if (typeof value.stopReason !== "string") checker.add("/stopReason", `must be a string (got ${describe(value.stopReason)})`);
    else {
      const problem = stopReasonProblem(value.stopReason, maxProtocol);
      if (problem !== undefined) checker.add("/stopReason", maxProtocol === 1 ? `${problem} (the agent runs with --max-protocol 1)` : problem);
      stopReason = value.stopReason;
    }
  }

  const steps: ScriptStep[] = [];
  if (!Array.isArray(value.steps)) {
    checker.add(
      value.steps === undefined ? "" : "/steps",
      value.steps === undefined ? 'must have a "steps" array' : `must be an array of steps (got ${describe(value.steps)})`,
    );
  } else {
    const createdToolCalls = new Set<string>();
    let sawPermission = false;
    value.steps.forEach((raw, index) => {
      const step = checkStep(checker, raw, `/steps/${index}`, { createdToolCalls, sawPermission });
      if (step?.type === "permission") sawPermission = true;
      if (step) steps.push(step);
    });
  }
  return checker.problems.length > 0 ? { ok: false, problems: checker.problems } : { ok: true, script: { steps, stopReason } };
}

interface StepContext {
  /** Tool call ids created by earlier update steps (a permission request needs one, docs/protocol.md O3). */
  createdToolCalls: Set<string>;
  /** Whether an earlier step asked permission (a `when` needs one). */
  sawPermission: boolean;
}

function checkStep(checker: Checker, raw: unknown, path: string, context: StepContext): ScriptStep | undefined {
  if (!isJsonObject(raw)) {
    checker.add(path, `must be an object with one of ${ACTIONS.join(", ")} (got ${describe(raw)})`);
    return undefined;
  }
  const present = ACTIONS.filter((action) => raw[action] !== undefined);
  if (present.length !== 1) {
    checker.add(
      path,
      present.length === 0
        ? `must have one of ${ACTIONS.join(", ")}`
        : `must have only one of ${ACTIONS.join(", ")} (found ${present.join(", ")}); use one step for each`,
    );
    return undefined;
  }
  const action = present[0]!;
  checker.unknownKeys(raw, path, STEP_KEYS[action]);

  let when: ScriptCondition | undefined;
  if (raw.when !== undefined) {
    if (raw.when !== "allowed" && raw.when !== "rejected") checker.add(`${path}/when`, `must be "allowed" or "rejected" (got ${describe(raw.when)})`);
    else if (!context.sawPermission) checker.add(`${path}/when`, "refers to the latest permission step, but no permission step comes before this one");
    else when = raw.when;
  }

  const body = raw[action];
  const at = `${path}/${action}`;
  switch (action) {
    case "update": {
      const before = checker.problems.length;
      if (!isJsonObject(body)) checker.add(at, `must be a session update object (got ${describe(body)})`);
      else checker.protocol(at, checkOutgoing(2, "session/update", "params", { sessionId: CHECK_SESSION, update: body }), "/update");
      if (checker.problems.length > before) return undefined;
      const update = body as SessionUpdate & { toolCallId?: string };
      if (update.sessionUpdate === "tool_call_update" && typeof update.toolCallId === "string") context.createdToolCalls.add(update.toolCallId);
      return { type: "update", update, when };
    }
    case "message": {
      if (typeof body !== "string" || body === "") checker.add(at, `must be a non-empty string (got ${describe(body)})`);
      if (raw.kind !== undefined && raw.kind !== "agent" && raw.kind !== "thought")
        checker.add(`${path}/kind`, `must be "agent" or "thought" (got ${describe(raw.kind)})`);
      if (raw.chunks !== undefined && !isWholeNumber(raw.chunks, 1)) checker.add(`${path}/chunks`, `must be a positive integer (got ${describe(raw.chunks)})`);
      return { type: "message", text: String(body), kind: raw.kind === "thought" ? "thought" : "agent", chunks: raw.chunks as number | undefined, when };
    }
    case "permission":
      return checkPermission(checker, body, at, context, when);
    case "sleep":
      if (!isWholeNumber(body, 0, MAX_SLEEP_MS))
        checker.add(at, `must be a non-negative integer number of milliseconds, at most ${MAX_SLEEP_MS} (got ${describe(body)})`);
      return { type: "sleep", ms: body as number, when };
    case "read": {
      if (!isJsonObject(body)) {
        checker.add(at, `must be an object like {"path": "README.md"} (got ${describe(body)})`);
        return undefined;
      }
      checker.unknownKeys(body, at, ["path", "line", "limit"]);
      if (typeof body.path !== "string" || body.path === "")
        checker.add(`${at}/path`, `must be a non-empty string: a path, absolute or relative to the session cwd (got ${describe(body.path)})`);
      if (body.line !== undefined && !isWholeNumber(body.line, 1, 0xffffffff))
        checker.add(`${at}/line`, `must be a positive integer (1-based line number) (got ${describe(body.line)})`);
      if (body.limit !== undefined && !isWholeNumber(body.limit, 1, 0xffffffff))
        checker.add(`${at}/limit`, `must be a positive integer (number of lines) (got ${describe(body.limit)})`);
      return { type: "read", path: String(body.path), line: body.line as number | undefined, limit: body.limit as number | undefined, when };
    }
  }
}

function checkPermission(checker: Checker, body: unknown, at: string, context: StepContext, when: ScriptCondition | undefined): ScriptStep | undefined {
  if (!isJsonObject(body)) {
    checker.add(at, `must be an object like {"toolCall": {"toolCallId": "call_1"}} (got ${describe(body)})`);
    return undefined;
  }
  checker.unknownKeys(body, at, ["toolCall", "options"]);
  const before = checker.problems.length;
  if (!isJsonObject(body.toolCall)) checker.add(`${at}/toolCall`, `must be a tool call object with a "toolCallId" (got ${describe(body.toolCall)})`);
  if (body.options !== undefined && (!Array.isArray(body.options) || body.options.length === 0)) {
    checker.add(`${at}/options`, "must be a non-empty array of permission options (leave it out for Allow / Reject)");
  }
  if (checker.problems.length > before) return undefined;
  const options = (body.options ?? EDIT_PERMISSION_OPTIONS) as PermissionOption[];
  const toolCall = body.toolCall as { toolCallId: string } & Record<string, unknown>;
  checker.protocol(at, checkOutgoing(2, "session/request_permission", "params", { sessionId: CHECK_SESSION, toolCall, options }), "");
  if (checker.problems.length > before) return undefined;
  if (!context.createdToolCalls.has(toolCall.toolCallId)) {
    checker.add(
      `${at}/toolCall/toolCallId`,
      `tool call ${JSON.stringify(toolCall.toolCallId)} must be created first, by an earlier update step {"sessionUpdate": "tool_call_update", "toolCallId": ${JSON.stringify(toolCall.toolCallId)}, …}`,
    );
    return undefined;
  }
  return { type: "permission", toolCall, options: [...options], when };
}

/** Problems as lines for the terminal: `script.json: /steps/3/sleep: must be …`. */
export function formatScriptProblems(displayName: string, problems: readonly ScriptProblem[]): string[] {
  return problems.map((problem) => `${displayName}: ${problem.path || "/"}: ${problem.message}`);
}

/** Read, parse and check a script file; failures come back as printable lines naming the file. */
export async function loadScriptFile(
  file: string,
  displayName: string,
  maxProtocol: ProtocolVersion,
): Promise<{ ok: true; script: AgentScript } | { ok: false; errors: string[] }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return { ok: false, errors: [`${displayName}: cannot read the script: ${(error as Error).message}`] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`${displayName}: not valid JSON: ${(error as Error).message}`] };
  }
  const checked = checkScript(value, maxProtocol);
  return checked.ok ? checked : { ok: false, errors: formatScriptProblems(displayName, checked.problems) };
}
