// A tool call's locations and diffs name files, and ACP file paths are absolute (docs/protocol.md
// E4). A client cannot answer an update, so a relative path would reach the editor as a link to
// nowhere; the handle refuses it at the call instead, as `turn.readTextFile` does. What is not a
// string at all is left to the schema check of outgoing messages.
import { checkAbsolutePathArgument } from "@acpkit/core";
import type { ToolCallContent, ToolCallFields } from "./types.js";

/** Throws AcpError "InvalidArgument" naming the first location or diff of `fields` whose path is not absolute. */
export function checkToolCallPaths(toolCallId: string, fields: Pick<ToolCallFields, "locations" | "content">): void {
  const { locations, content } = fields;
  if (locations) {
    for (let index = 0; index < locations.length; index++) {
      const path = locations[index]?.path;
      if (typeof path === "string") checkAbsolutePathArgument(`Tool call ${toolCallId}`, `/locations/${index}/path`, path);
    }
  }
  if (content) for (let index = 0; index < content.length; index++) checkContentPath(toolCallId, `/content/${index}`, content[index]);
}

/** The same for one content item at `pointer` (a diff's `path`); other items have no path. */
export function checkContentPath(toolCallId: string, pointer: string, item: ToolCallContent | undefined): void {
  if (item?.type === "diff" && typeof item.path === "string") checkAbsolutePathArgument(`Tool call ${toolCallId}`, `${pointer}/path`, item.path);
}
