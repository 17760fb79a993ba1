// E4 on the receiving side: a tool call's locations and diffs name absolute paths. An update
// cannot be answered, and dropping one would lose what the agent did, so a session applies it as
// sent and reports the first path that is not absolute (diagnostic `relative_path`): an editor
// that opens locations can then tell why a link leads nowhere.
import { absolutePathProblem } from "@acpkit/core";
import type { ModelUpdate } from "./types.js";

type PathHolder = { type?: unknown; path?: unknown } | null | undefined;

/** `pointer problem` for the first location or diff of a tool-call update whose path is not absolute, else undefined. */
export function relativePathIn(update: ModelUpdate): string | undefined {
  const fields = update as { sessionUpdate: string; locations?: unknown; content?: unknown };
  if (fields.sessionUpdate === "tool_call_content_chunk") return diffProblem("/content", fields.content as PathHolder);
  if (fields.sessionUpdate !== "tool_call_update") return undefined;
  if (Array.isArray(fields.locations)) {
    for (let index = 0; index < fields.locations.length; index++) {
      const problem = pathProblem(`/locations/${index}/path`, (fields.locations[index] as PathHolder)?.path);
      if (problem !== undefined) return problem;
    }
  }
  if (Array.isArray(fields.content)) {
    for (let index = 0; index < fields.content.length; index++) {
      const problem = diffProblem(`/content/${index}`, fields.content[index] as PathHolder);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

function diffProblem(pointer: string, item: PathHolder): string | undefined {
  return item?.type === "diff" ? pathProblem(`${pointer}/path`, item.path) : undefined;
}

function pathProblem(pointer: string, path: unknown): string | undefined {
  if (typeof path !== "string") return undefined;
  const problem = absolutePathProblem(path);
  return problem === undefined ? undefined : `${pointer.slice(1)} ${problem}`;
}
