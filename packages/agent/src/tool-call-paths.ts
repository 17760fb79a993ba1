// A tool call's locations and diffs name files, and ACP file paths are absolute (docs/protocol.md
// E4). A client cannot answer an update, so a relative path would reach the editor as a link to
// nowhere; the handle refuses it at the call instead, as `turn.readTextFile` does.
import { AcpError, toolCallPathProblem } from "@acpkit/core";
import type { ToolCallContent, ToolCallFields } from "./types.js";

/**
 * Throws AcpError "InvalidArgument" naming the first location or diff whose path is not absolute:
 * in a tool call's fields, or in one content item (`{ content: item }`, as `appendContent` sends it).
 */
export function checkToolCallPaths(toolCallId: string, fields: Pick<ToolCallFields, "locations" | "content"> | { content: ToolCallContent }): void {
  const found = toolCallPathProblem(fields);
  if (found !== undefined)
    throw new AcpError("InvalidArgument", `Tool call ${toolCallId}: ${found.pointer.slice(1)} ${found.problem}`, { data: { path: found.pointer } });
}
