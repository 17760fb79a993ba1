// How `acpkit run` / `acpkit demo` answer `session/request_permission`: automatically (allow,
// reject, cancel) or by asking the person at the terminal (ask).
import type { Writable } from "node:stream";
import type { PermissionOption, PermissionOutcome, PermissionRequest } from "@acpkit/client";
import type { Style } from "../style.js";
import type { LineSource } from "./line-source.js";

export type PermissionPolicy = "allow" | "reject" | "cancel" | "ask";
export const PERMISSION_POLICIES: readonly PermissionPolicy[] = ["allow", "reject", "cancel", "ask"];

const CANCELLED: PermissionOutcome = { outcome: "cancelled" };

/** Option kinds in order of preference for each automatic answer (once before always). */
const PREFERRED_KINDS: Record<"allow" | "reject", readonly string[]> = {
  allow: ["allow_once", "allow_always"],
  reject: ["reject_once", "reject_always"],
};

/**
 * The automatic answer: the first option of the wanted kind ("once" preferred, so an automatic
 * answer never grants or refuses more than this one call); `cancelled` when the agent offered no
 * such option, or for the `cancel` policy.
 */
export function automaticOutcome(policy: "allow" | "reject" | "cancel", options: readonly PermissionOption[]): PermissionOutcome {
  if (policy === "cancel") return CANCELLED;
  for (const kind of PREFERRED_KINDS[policy]) {
    const option = options.find((candidate) => candidate.kind === kind);
    if (option) return { outcome: "selected", optionId: option.optionId };
  }
  return CANCELLED;
}

/**
 * Ask on the terminal: list the options on stderr and read a number (or an option id) from the
 * shared line source. An empty answer, end of input or a cancelled turn answers `cancelled`.
 */
export async function askOnTerminal(
  request: PermissionRequest,
  title: string,
  lines: LineSource,
  stderr: Writable,
  style: Style,
  signal: AbortSignal,
): Promise<PermissionOutcome> {
  const options = request.options;
  stderr.write(`${style.blue("?")} ${style.bold(`The agent asks permission: ${title}`)}\n`);
  options.forEach((option, index) => {
    stderr.write(`  ${index + 1}) ${option.name} ${style.dim(`[${option.kind}]`)}\n`);
  });
  for (;;) {
    stderr.write(`  choose 1-${options.length} (empty = cancel): `);
    const answer = await lines.next(signal);
    if (signal.aborted || answer === undefined) {
      stderr.write("\n");
      return CANCELLED;
    }
    const text = answer.trim();
    if (text === "") return CANCELLED;
    const chosen = /^\d+$/.test(text) ? options[Number(text) - 1] : options.find((option) => option.optionId === text);
    if (chosen) return { outcome: "selected", optionId: chosen.optionId };
    stderr.write(style.yellow(`  "${text}" is not one of the choices\n`));
  }
}
