// The turn an ordinary prompt plays: everything a prompt turn can contain, in a fixed order, so
// `acpkit demo` (and anyone trying a client) sees each kind of update once. Deterministic: the
// same prompt on the same version always produces the same updates.
import type { PlanEntry, PromptResult, AgentTurn } from "@acpkit/agent";
import { sleep } from "./pacing.js";
import { excerpt, splitWords } from "./text.js";
import { editWithPermission, noClientFsReason, readThroughClient } from "./tools.js";

/** The file the demo turn reads through the client (v1 only), relative to the session cwd. */
export const DEMO_READ_FILE = "README.md";
/** Default pause between the demo turn's stages, in ms (the whole turn stays well under 1 s). */
export const DEMO_PACE_MS = 40;

/** The plan's steps; the read is labelled as skipped up front when the client has no file system. */
function planSteps(canRead: boolean): readonly string[] {
  const read = canRead ? `Read ${DEMO_READ_FILE} through the client` : `Read ${DEMO_READ_FILE} (skipped: no client file system)`;
  return ["Understand the request", "Edit hello.txt (asks permission)", read, "Answer"];
}

/** The plan with steps before `current` completed, `current` in progress, the rest pending. */
function planAt(steps: readonly string[], current: number): PlanEntry[] {
  return steps.map((content, index) => ({
    content,
    priority: index === 1 ? "high" : "medium",
    status: index < current ? "completed" : index === current ? "in_progress" : "pending",
  }));
}

export interface DemoOptions {
  cwd: string;
  /** The prompt's text, quoted back in the thought and the answer. */
  text: string;
  /** Pause between stages in ms; 0 for none. */
  paceMs: number;
}

/**
 * Plan → thought → edit tool call with a permission request → file read through the client (v1
 * with fs.readTextFile; otherwise a thought says why it is skipped) → streamed answer → usage →
 * end_turn. A cancel at any point ends the turn "cancelled" without further updates.
 */
export async function playDemoTurn(turn: AgentTurn, { cwd, text, paceMs }: DemoOptions): Promise<PromptResult> {
  const pause = (): Promise<boolean> => sleep(paceMs, turn.signal);
  const asked = excerpt(text, 60) || "(an empty prompt)";
  const noFs = noClientFsReason(turn);
  const steps = planSteps(noFs === undefined);

  turn.plan(planAt(steps, 0));
  const thought = turn.thought();
  for (const piece of splitWords(`The user asked: "${asked}". I will propose a small edit, ask before applying it, read ${DEMO_READ_FILE}, then answer.`)) {
    thought.append(piece);
  }
  if (!(await pause())) return "cancelled";

  turn.plan(planAt(steps, 1));
  const edit = await editWithPermission(turn, cwd);
  if (edit === "cancelled") return "cancelled";
  if (!(await pause())) return "cancelled";

  turn.plan(planAt(steps, 2));
  let readSummary: string;
  if (noFs === undefined) {
    const read = await readThroughClient(turn, cwd, DEMO_READ_FILE);
    if (read.status === "cancelled") return "cancelled";
    readSummary = read.status === "read" ? `${DEMO_READ_FILE} has ${read.lines} lines` : `${DEMO_READ_FILE} could not be read`;
  } else {
    turn.thought(`Skipping the file read: ${noFs}.`);
    readSummary = "no file was read";
  }
  if (!(await pause())) return "cancelled";

  turn.plan(planAt(steps, 3));
  const answer = turn.message();
  const verdict = edit === "allowed" ? "you allowed the edit, so it was applied" : "you did not allow the edit, so it was skipped";
  for (const piece of splitWords(
    `Done. You asked: "${asked}". ${verdict[0]!.toUpperCase()}${verdict.slice(1)}; ${readSummary}. This is the acpkit built-in agent: it answers every prompt the same way.`,
  )) {
    answer.append(piece);
    if (!(await sleep(paceMs / 4, turn.signal))) return "cancelled";
  }
  turn.plan(planAt(steps, steps.length));
  turn.usage({ used: 1200 + text.length, size: 200_000, cost: { amount: 0.0042, currency: "USD" } });
  return "end_turn";
}
