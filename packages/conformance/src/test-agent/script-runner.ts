// Replays a checked script as one prompt turn. Updates are sent as written (so ids repeat if the
// script plays twice in one session); a cancel at any step ends the turn "cancelled".
import type { PromptResult, AgentTurn } from "@acpkit/agent";
import type { AgentScript, ScriptCondition } from "./script.js";
import { sleep } from "./pacing.js";
import { splitEvenly, splitWords } from "./text.js";
import { isAllowed, readThroughClient } from "./tools.js";

export async function playScript(turn: AgentTurn, script: AgentScript, cwd: string): Promise<PromptResult> {
  let lastPermission: ScriptCondition | undefined;
  for (const step of script.steps) {
    if (turn.cancelled) return "cancelled";
    if (step.when !== undefined && step.when !== lastPermission) continue;
    switch (step.type) {
      case "update":
        turn.update(step.update);
        break;
      case "message": {
        const handle = step.kind === "thought" ? turn.thought() : turn.message();
        const pieces = step.chunks === undefined ? splitWords(step.text) : splitEvenly(step.text, step.chunks);
        for (const piece of pieces) handle.append(piece);
        break;
      }
      case "permission": {
        const outcome = await turn.requestPermission({ toolCall: step.toolCall, options: step.options });
        if (turn.cancelled) return "cancelled";
        lastPermission = isAllowed(outcome, step.options) ? "allowed" : "rejected";
        break;
      }
      case "sleep":
        if (!(await sleep(step.ms, turn.signal))) return "cancelled";
        break;
      case "read": {
        const range: { line?: number; limit?: number } = {};
        if (step.line !== undefined) range.line = step.line;
        if (step.limit !== undefined) range.limit = step.limit;
        const result = await readThroughClient(turn, cwd, step.path, range);
        if (result.status === "cancelled") return "cancelled";
        break;
      }
    }
  }
  return script.stopReason;
}
