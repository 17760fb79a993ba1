// File paths in ACP are absolute (docs/protocol.md E4, H10): a session's `cwd`, a file the agent
// reads or writes, a terminal's directory. The schemas type them as plain strings, so only these
// checks catch "src" or "". Both peers may run on different systems (an editor on Windows, an agent
// in a Linux container behind a WebSocket), so the test accepts either system's form wherever it
// runs, instead of asking node:path about the local one (core also runs in browsers).
import { AcpError, ErrorCode, RpcError } from "./errors.js";
import { valueKind } from "./json.js";

/** Whether `path` is absolute on POSIX (`/home/u`) or Windows (`C:\Users\u`, `C:/Users/u`, `\\server\share`). */
export function isAbsolutePath(path: string): boolean {
  if (path.startsWith("/")) return true;
  // A drive letter, a colon and a separator: "C:" alone or "C:dir" is relative to that drive's current directory.
  if (/^[A-Za-z]:[\\/]/.test(path)) return true;
  // A UNC path: two backslashes and a server name.
  return /^\\\\[^\\/]/.test(path);
}

/** Longest part of a rejected path an error message quotes: the peer chose its length. */
const QUOTED_PATH_LIMIT = 120;

/**
 * What is wrong with `path` where ACP needs an absolute path, as the end of a sentence
 * (`must be an absolute path (got "src")`), or `undefined` when it is absolute.
 */
export function absolutePathProblem(path: unknown): string | undefined {
  // Not a string at all (a missing option, a number): said as such, never a TypeError from inside.
  if (typeof path !== "string") return `must be an absolute path (got ${valueKind(path)})`;
  if (isAbsolutePath(path)) return undefined;
  const quoted = path.length > QUOTED_PATH_LIMIT ? `${JSON.stringify(path.slice(0, QUOTED_PATH_LIMIT))}… (${path.length} characters)` : JSON.stringify(path);
  return `must be an absolute path (got ${quoted})`;
}

/**
 * For a peer's request: throws RpcError -32602 with `data.path` = `pointer` unless `path` is
 * absolute, worded like the schema check's answers (`Invalid params for session/new: /cwd must be …`).
 */
export function checkAbsolutePathParam(method: string, pointer: string, path: unknown): void {
  const problem = absolutePathProblem(path);
  if (problem !== undefined)
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${pointer} ${problem}`, { path: pointer, message: problem });
}

/**
 * For our own caller, before anything is sent: throws AcpError "InvalidArgument" with `data.path`
 * = `pointer` unless `path` is absolute (`newSession: cwd must be an absolute path (got "src")`).
 */
export function checkAbsolutePathArgument(call: string, pointer: string, path: unknown): void {
  const problem = absolutePathProblem(path);
  if (problem !== undefined) throw new AcpError("InvalidArgument", `${call}: ${pointer.slice(1)} ${problem}`, { data: { path: pointer } });
}

type PathHolder = { type?: unknown; path?: unknown } | null | undefined;

/**
 * The first location or diff of a tool call whose path is not absolute (E4): its JSON pointer
 * within `fields` (`/locations/1/path`, `/content/0/path`) and what is wrong, or `undefined`.
 * `content` is a list (a tool call's fields) or one item (a `tool_call_content_chunk`:
 * `/content/path`). Paths that are not strings are left to the schema check.
 */
export function toolCallPathProblem(fields: { locations?: unknown; content?: unknown }): { pointer: string; problem: string } | undefined {
  const { locations, content } = fields;
  if (Array.isArray(locations)) {
    for (let index = 0; index < locations.length; index++) {
      const found = pathProblemAt(`/locations/${index}/path`, (locations[index] as PathHolder)?.path);
      if (found !== undefined) return found;
    }
  }
  if (Array.isArray(content)) {
    for (let index = 0; index < content.length; index++) {
      const found = diffProblemAt(`/content/${index}`, content[index] as PathHolder);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return diffProblemAt("/content", content as PathHolder);
}

function diffProblemAt(pointer: string, item: PathHolder): { pointer: string; problem: string } | undefined {
  return item?.type === "diff" ? pathProblemAt(`${pointer}/path`, item.path) : undefined;
}

function pathProblemAt(pointer: string, path: unknown): { pointer: string; problem: string } | undefined {
  if (typeof path !== "string") return undefined;
  const problem = absolutePathProblem(path);
  return problem === undefined ? undefined : { pointer, problem };
}
