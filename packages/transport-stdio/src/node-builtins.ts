// The Node built-ins this package uses, fetched with process.getBuiltinModule (Node 20.16+).
//
// Why not `import … from "node:…"`: every process that serves or spawns an agent imports this
// package before it can say anything on the wire, and each static import of a built-in builds
// that module's whole export namespace while loading (node:util's pulls in its argument parser
// and MIME code). The synchronous way to load node:child_process only when spawning from ESM was
// node:module's createRequire plus import.meta, which cost about as much again. Invariant: no
// module of this package imports a Node built-in statically (the import benchmark holds it).

/** node:child_process, which pulls in net, stream and dgram: loaded on the first spawn only (an agent never spawns). */
export function childProcess(): typeof import("node:child_process") {
  return process.getBuiltinModule("node:child_process");
}

/** util.format, for console output moved to stderr (loaded on the first such call). */
export function formatLikeConsole(...args: unknown[]): string {
  return process.getBuiltinModule("node:util").format(...args);
}

/** Whether `bytes` are valid UTF-8 (buffer.isUtf8; node:buffer is always loaded already). */
export const isUtf8: (bytes: Uint8Array) => boolean = process.getBuiltinModule("node:buffer").isUtf8;
