// The client file system `acpkit run` serves to v1 agents (`fs/read_text_file`,
// `fs/write_text_file`), confined to one directory. A path is checked after resolving symlinks
// (realpath), so a link inside the directory cannot lead the agent outside it; a dangling link is
// refused (its target cannot be checked); files are opened with O_NOFOLLOW and, where the OS can
// say which file an open descriptor is (/proc/self/fd), checked again after opening, so a link
// swapped in between the check and the open does not lead outside either.
//
// Only regular files are served, and a read has a size bound: the agent names the path, so a FIFO
// in the directory (opening one waits for its other end, holding the request and a thread of
// Node's pool for good) or a multi-gigabyte file must get an answer, not a hang or a heap of that
// size. Files are opened non-blocking, which makes a FIFO open return at once, and checked with
// fstat before anything is read or truncated.
import { constants } from "node:fs";
import { lstat, mkdir, open, readlink, realpath, unlink, type FileHandle } from "node:fs/promises";
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
 * The largest file `fs/read_text_file` answers with: 32 MiB. The answer is one JSON-RPC line the
 * agent must accept; acpkit's own transports take lines of up to 64 MiB, which leaves room for
 * escaping, and an agent's `line`/`limit` select from the file only once it has been read.
 */
export const DEFAULT_MAX_FILE_BYTES = 32 * 1024 * 1024;

/** Limits of `confinedFileSystem`. */
export interface ConfinedFsLimits {
  /** The largest file served by `fs/read_text_file`, in bytes. Default `DEFAULT_MAX_FILE_BYTES`. */
  maxFileBytes?: number;
}

// O_NONBLOCK: a FIFO opens at once instead of waiting for a writer (reading) or a reader
// (writing: ENXIO without one); regular files ignore it. Windows has no such flag and no FIFOs.
const OPEN_NONBLOCK = constants.O_NONBLOCK ?? 0;

const ignore = (): void => {};

/**
 * File system handlers for `mode`, serving only regular files under `root` (which must exist).
 * `none` serves nothing (the client then advertises no fs capability); `write` serves both.
 */
export async function confinedFileSystem(
  root: string,
  mode: FsMode,
  events: FsEvents = {},
  limits: ConfinedFsLimits = {},
): Promise<FileSystemHandlers | undefined> {
  if (mode === "none") return undefined;
  const maxFileBytes = limits.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  if (!Number.isSafeInteger(maxFileBytes) || maxFileBytes < 0) throw new RangeError(`maxFileBytes must be a non-negative integer, got ${String(maxFileBytes)}`);
  const realRoot = await realpath(root);
  const confine = (method: string, path: unknown) => confinePath(realRoot, method, path, events);

  const handlers: FileSystemHandlers = {
    async readTextFile({ path, line, limit }) {
      const method = "fs/read_text_file";
      const target = await confine(method, path);
      let text: string;
      let handle: FileHandle | undefined;
      try {
        handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW | OPEN_NONBLOCK);
        await checkOpenedInside(realRoot, handle, method, path, events);
        const size = await regularFileSize(handle);
        const bytes = size > maxFileBytes ? undefined : await readAtMost(handle, size, maxFileBytes);
        if (bytes === undefined) {
          const bound = `the ${maxFileBytes} bytes acpkit run serves in one answer`;
          // Over the bound by its size, or grown past it while being read (fstat said `size`).
          const reason = size > maxFileBytes ? `is ${size} bytes, more than ${bound}` : `holds more than ${bound} (it was ${size} bytes when opened)`;
          throw Object.assign(new Error(reason), { code: "ETOOBIG" });
        }
        text = bytes.toString("utf8");
      } catch (error) {
        throw fileError(method, path, error, events);
      } finally {
        await handle?.close();
      }
      const content = selectLines(text, line ?? undefined, limit ?? undefined);
      events.read?.(path, Buffer.byteLength(content));
      return content;
    },
  };
  if (mode === "write") {
    const writeConfined = async (target: string, path: string, content: string): Promise<void> => {
      const method = "fs/write_text_file";
      let handle: FileHandle | undefined;
      let created = false;
      try {
        // The client MUST create a missing file (docs/protocol.md §4.10); its folder too, inside the root.
        await mkdir(dirname(target), { recursive: true });
        try {
          handle = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW);
          created = true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
          handle = await open(target, constants.O_WRONLY | constants.O_NOFOLLOW | OPEN_NONBLOCK);
        }
        try {
          await checkOpenedInside(realRoot, handle, method, path, events);
        } catch (error) {
          // Created through a directory swapped for a link after the check: remove what we made.
          if (created) await unlink((await openedPath(handle)) ?? target).catch(() => {});
          throw error;
        }
        await regularFileSize(handle);
        // Truncate only now: nothing outside the root, and nothing but a regular file, is ever emptied.
        await handle.truncate(0);
        await handle.writeFile(content, "utf8");
      } catch (error) {
        throw fileError(method, path, error, events);
      } finally {
        await handle?.close();
      }
    };
    // Writes run one after the other, in the order they came. Each truncates and then writes from
    // the start, so two writes of one file at once left the shorter text followed by the rest of
    // the longer one: text neither write asked for (11 of 20 such pairs in a test). One queue for
    // all paths, so two spellings of one file (a link inside the root) are kept apart too.
    let writes: Promise<void> = Promise.resolve();
    handlers.writeTextFile = ({ path, content }) => {
      const write = writes.then(async () => {
        const target = await confine("fs/write_text_file", path);
        await writeConfined(target, path, content);
        events.write?.(path, Buffer.byteLength(content));
      });
      writes = write.then(ignore, ignore);
      return write;
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
  if (path.includes("\0")) {
    const message = `${method}: path must not contain a NUL character (got ${JSON.stringify(path)})`;
    events.refused?.(method, path, message);
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
      // realpath says "missing" for a dangling link too; following it later would land wherever
      // it points, so it counts as a link whose target cannot be checked.
      if (await isSymlink(current)) throw Object.assign(new Error("is a symbolic link whose target does not exist"), { code: "EDANGLING" });
      missing.push(current.slice(parent.length).replace(/^[\\/]/, ""));
      current = parent;
    }
  }
}

async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The path of the file `handle` is open on, where the OS tells (Linux: /proc/self/fd). */
async function openedPath(handle: FileHandle): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

/** After opening: the file really is inside the root (a link swapped in after the check is caught). */
async function checkOpenedInside(realRoot: string, handle: FileHandle, method: string, path: string, events: FsEvents): Promise<void> {
  const actual = await openedPath(handle);
  if (actual === undefined || isInside(realRoot, actual)) return;
  const message = `${method}: ${path} is outside the working directory ${realRoot}`;
  events.refused?.(method, path, message);
  throw new RpcError(ErrorCode.InvalidParams, message, { path, root: realRoot });
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** The size of the file `handle` is open on; throws ENOTREG when it is not a regular file (a FIFO, a device, a socket). */
async function regularFileSize(handle: FileHandle): Promise<number> {
  const stat = await handle.stat();
  if (stat.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
  if (!stat.isFile()) throw Object.assign(new Error("is not a regular file"), { code: "ENOTREG" });
  return stat.size;
}

/**
 * The file's bytes, or `undefined` when there are more than `max` of them. `expected` (its size
 * from fstat) sizes the buffer; a file that grows while it is read is still cut off at `max + 1`.
 */
async function readAtMost(handle: FileHandle, expected: number, max: number): Promise<Buffer | undefined> {
  let buffer = Buffer.allocUnsafe(Math.min(expected, max) + 1);
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      if (filled > max) return undefined;
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, max + 1));
      buffer.copy(grown, 0, 0, filled);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
    if (bytesRead === 0) return buffer.subarray(0, filled);
    filled += bytesRead;
  }
}

/** `line` is the 1-based first line, `limit` the most lines to return (docs/protocol.md §4.10). */
function selectLines(text: string, line: number | undefined, limit: number | undefined): string {
  if (line === undefined && limit === undefined) return text;
  const lines = text.split("\n");
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined ? lines.length : start + limit;
  return lines.slice(start, end).join("\n");
}

/** What the agent asked for is wrong (-32602), as opposed to a file that is missing (-32002) or a failure of ours (-32603). */
const REQUEST_FAULTS: Readonly<Record<string, string>> = {
  EISDIR: "is a directory",
  ENOTREG: "is not a regular file",
  // Opening a FIFO for writing without blocking, when nothing reads it.
  ENXIO: "is not a regular file",
  ENOTDIR: "a component of the path is not a directory",
  ELOOP: "is a symbolic link (links are not followed when opening)",
  EDANGLING: "is a symbolic link whose target does not exist",
  ENAMETOOLONG: "the path is too long",
  EACCES: "permission denied",
  EPERM: "permission denied",
};

function fileError(method: string, path: string, error: unknown, events: FsEvents): RpcError {
  if (error instanceof RpcError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? "";
  // A file over the size bound carries its own wording (its size and the bound).
  const fault = code === "ETOOBIG" ? (error as Error).message : REQUEST_FAULTS[code];
  const reason = code === "ENOENT" ? "no such file" : (fault ?? (error as Error).message);
  const message = `${method}: ${path}: ${reason}`;
  events.refused?.(method, path, message);
  const errorCode = code === "ENOENT" ? ErrorCode.ResourceNotFound : fault !== undefined ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new RpcError(errorCode, message, { path });
}
