// The client file system `acpkit run` serves to v1 agents (`fs/read_text_file`,
// `fs/write_text_file`), confined to one directory. A path is checked after resolving symlinks
// (realpath), so a link inside the directory cannot lead the agent outside it.
import { mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ErrorCode, RpcError } from "@acpkit/core";
import type { FileSystemHandlers } from "@acpkit/client";

export type FsMode = "none" | "read" | "write";
export const FS_MODES: readonly FsMode[] = ["none", "read", "write"];

/** What the file system did, for the turn printer and for stderr notes. */
export interface FsEvents {
  read?(path: string, bytes: number): void;
  write?(path: string, bytes: number): void;
  /** A request was refused; `message` says why (it is also the JSON-RPC error message). */
  refused?(method: string, path: string, message: string): void;
}

/**
 * File system handlers for `mode`, serving only files under `root` (which must exist).
 * `none` serves nothing (the client then advertises no fs capability); `write` serves both.
 */
export async function confinedFileSystem(root: string, mode: FsMode, events: FsEvents = {}): Promise<FileSystemHandlers | undefined> {
  if (mode === "none") return undefined;
  const realRoot = await realpath(root);
  const confine = (method: string, path: unknown) => confinePath(realRoot, method, path, events);

  const handlers: FileSystemHandlers = {
    async readTextFile({ path, line, limit }) {
      const target = await confine("fs/read_text_file", path);
      let text: string;
      try {
        text = await readFile(target, "utf8");
      } catch (error) {
        throw fileError("fs/read_text_file", path, error, events);
      }
      const content = selectLines(text, line ?? undefined, limit ?? undefined);
      events.read?.(path, Buffer.byteLength(content));
      return content;
    },
  };
  if (mode === "write") {
    handlers.writeTextFile = async ({ path, content }) => {
      const target = await confine("fs/write_text_file", path);
      try {
        // The client MUST create a missing file (docs/protocol.md §4.10); its folder too, inside the root.
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, content, "utf8");
      } catch (error) {
        throw fileError("fs/write_text_file", path, error, events);
      }
      events.write?.(path, Buffer.byteLength(content));
    };
  }
  return handlers;
}

/**
 * The real path `path` names, if it lies inside `realRoot`. A path that does not exist yet is
 * resolved through its nearest existing ancestor, so a missing file and a file outside the root
 * are told apart without touching anything outside.
 */
async function confinePath(realRoot: string, method: string, path: unknown, events: FsEvents): Promise<string> {
  if (typeof path !== "string" || !isAbsolute(path)) {
    const message = `${method}: path must be absolute (got ${JSON.stringify(path)})`;
    events.refused?.(method, String(path), message);
    throw new RpcError(ErrorCode.InvalidParams, message, { path });
  }
  let real: string;
  try {
    real = await realpathAllowingMissing(resolve(path));
  } catch (error) {
    throw fileError(method, path, error, events);
  }
  if (!isInside(realRoot, real)) {
    const message = `${method}: ${path} is outside the working directory ${realRoot}`;
    events.refused?.(method, path, message);
    throw new RpcError(ErrorCode.InvalidParams, message, { path, root: realRoot });
  }
  return real;
}

async function realpathAllowingMissing(path: string): Promise<string> {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch (error) {
      const parent = dirname(current);
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || parent === current) throw error;
      missing.push(current.slice(parent.length).replace(/^[\\/]/, ""));
      current = parent;
    }
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** `line` is the 1-based first line, `limit` the most lines to return (docs/protocol.md §4.10). */
function selectLines(text: string, line: number | undefined, limit: number | undefined): string {
  if (line === undefined && limit === undefined) return text;
  const lines = text.split("\n");
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined ? lines.length : start + limit;
  return lines.slice(start, end).join("\n");
}

function fileError(method: string, path: string, error: unknown, events: FsEvents): RpcError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : code === "EACCES" ? "permission denied" : (error as Error).message;
  const message = `${method}: ${path}: ${reason}`;
  events.refused?.(method, path, message);
  return new RpcError(code === "ENOENT" ? ErrorCode.ResourceNotFound : ErrorCode.InternalError, message, { path });
}
