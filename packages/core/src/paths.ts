// File paths in ACP are absolute (docs/protocol.md E4, H10): a session's `cwd`, a tool call's
// location, a file the agent reads or writes. Both peers may run on different systems (an editor on
// Windows, an agent in a Linux container behind a WebSocket), so this accepts either system's form
// wherever it runs, instead of asking node:path about the local one (core also runs in browsers).

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
export function absolutePathProblem(path: string): string | undefined {
  if (isAbsolutePath(path)) return undefined;
  const quoted = path.length > QUOTED_PATH_LIMIT ? `${JSON.stringify(path.slice(0, QUOTED_PATH_LIMIT))}… (${path.length} characters)` : JSON.stringify(path);
  return `must be an absolute path (got ${quoted})`;
}
