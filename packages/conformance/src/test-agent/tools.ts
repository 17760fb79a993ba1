// The two tool calls the built-in agent knows, shared by the demo turn, the slash commands and
// script replay: an edit that asks permission first, and a file read through the client (v1).
import { resolve } from "node:path";
import type { PermissionOption, AgentTurn } from "@acpkit/agent";

/** What became of a permission-gated tool call. */
export type PermissionResult = "allowed" | "rejected" | "cancelled";

/** The options the built-in agent offers for an edit. */
export const EDIT_PERMISSION_OPTIONS: readonly PermissionOption[] = [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "reject", name: "Reject", kind: "reject_once" },
];

/** The edit the built-in agent proposes (it never writes anything). */
export const EXAMPLE_EDIT = { file: "hello.txt", oldText: "Hello\n", newText: "Hello, world!\n" } as const;

/** True when the outcome selected one of `options` whose kind allows the operation. */
export function isAllowed(outcome: { outcome: string; optionId?: string }, options: readonly PermissionOption[]): boolean {
  if (outcome.outcome !== "selected") return false;
  const kind = options.find((option) => option.optionId === outcome.optionId)?.kind;
  return kind === "allow_once" || kind === "allow_always";
}

/**
 * A pending edit tool call that asks permission. Allowed: it goes in_progress, streams a note and
 * completes. Rejected (or answered "cancelled" without a session/cancel): it is marked failed with
 * a "skipped" note; the tool never ran. Cancelled turn: nothing more is sent.
 */
export async function editWithPermission(turn: AgentTurn, cwd: string): Promise<PermissionResult> {
  const path = resolve(cwd, EXAMPLE_EDIT.file);
  const tool = turn.toolCall({
    title: `Edit ${EXAMPLE_EDIT.file}`,
    kind: "edit",
    status: "pending",
    locations: [{ path, line: 1 }],
    content: [{ type: "diff", path, oldText: EXAMPLE_EDIT.oldText, newText: EXAMPLE_EDIT.newText }],
    rawInput: { path, newText: EXAMPLE_EDIT.newText },
  });
  const outcome = await tool.requestPermission(EDIT_PERMISSION_OPTIONS);
  if (turn.cancelled) return "cancelled";
  if (!isAllowed(outcome, EDIT_PERMISSION_OPTIONS)) {
    tool.appendContent("Skipped: permission was not granted.");
    tool.fail();
    return "rejected";
  }
  tool.update({ status: "in_progress" });
  tool.appendContent(`Applied the edit to ${EXAMPLE_EDIT.file} (simulated: the built-in agent writes nothing).`);
  tool.complete();
  return "allowed";
}

/** What a read through the client produced. */
export type ReadResult =
  | { status: "read"; path: string; bytes: number; lines: number }
  | { status: "unavailable" | "failed"; path: string; reason: string }
  | { status: "cancelled" };

/** Why this connection has no client file system, or undefined when it has one. */
export function noClientFsReason(turn: AgentTurn): string | undefined {
  const client = turn.client;
  if (client.protocolVersion !== 1) return `the client has no file system on this connection (protocol v${client.protocolVersion} has no fs/* methods)`;
  if (!client.canReadTextFile) return "the client has no file system on this connection (it did not advertise fs.readTextFile)";
  return undefined;
}

function countLines(text: string): number {
  if (text === "") return 0;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return text.endsWith("\n") ? lines - 1 : lines;
}

/**
 * Read `file` (relative to the session cwd) with `fs/read_text_file` inside a `read` tool call and
 * report the size in an agent message. Without a client file system nothing is requested: one
 * message says why. A client error fails the tool call and is reported the same way (the turn
 * still ends normally: the read is the tool's business, not the turn's).
 */
export async function readThroughClient(turn: AgentTurn, cwd: string, file: string, range: { line?: number; limit?: number } = {}): Promise<ReadResult> {
  const path = resolve(cwd, file);
  const unavailable = noClientFsReason(turn);
  if (unavailable !== undefined) {
    turn.message(`Cannot read ${path}: ${unavailable}.`);
    return { status: "unavailable", path, reason: unavailable };
  }
  const tool = turn.toolCall({
    title: `Read ${file}`,
    kind: "read",
    status: "in_progress",
    locations: [range.line === undefined ? { path } : { path, line: range.line }],
    rawInput: { path, ...range },
  });
  let content: string;
  try {
    content = await turn.readTextFile({ path, line: range.line ?? null, limit: range.limit ?? null });
  } catch (error) {
    if (turn.cancelled) return { status: "cancelled" };
    const reason = error instanceof Error ? error.message : String(error);
    tool.fail({ content: [{ type: "content", content: { type: "text", text: `Read failed: ${reason}` } }] });
    turn.message(`Cannot read ${path}: ${reason}`);
    return { status: "failed", path, reason };
  }
  const bytes = Buffer.byteLength(content, "utf8");
  const lines = countLines(content);
  tool.complete({ content: [{ type: "content", content: { type: "text", text: `${bytes} bytes, ${lines} lines` } }] });
  turn.message(`Read ${path}: ${bytes} bytes (UTF-8), ${lines} lines.`);
  return { status: "read", path, bytes, lines };
}
