// Every `acpkit` command starts a fresh Node, and much of what it then waits for before doing any
// work is V8 compiling the CLI's and the libraries' modules (docs/performance.md, "Compile cache"). Node
// 22.1 and later can keep that compiled code on disk and reuse it while a file is unchanged
// (`module.enableCompileCache()`); Node 20 has no such API, and there this does nothing.
//
// Only this process is affected: an agent the CLI spawns is the user's program, started with the
// environment the user gave it. Node chooses the directory (NODE_COMPILE_CACHE, else a folder in
// the temporary directory), checks each entry against the source it was made from, and never
// throws here; NODE_DISABLE_COMPILE_CACHE=1 turns the cache off.
import nodeModule from "node:module";

/** What this file needs of `node:module` on Node ≥ 22.1 (the Node 20 typings do not have it). */
interface CompileCacheApi {
  enableCompileCache?: () => unknown;
}

/** Turns on Node's on-disk compile cache for this process, where Node has one. */
export function enableCompileCache(): void {
  const api = nodeModule as unknown as CompileCacheApi;
  if (typeof api.enableCompileCache !== "function") return;
  try {
    api.enableCompileCache();
  } catch {
    // Documented not to throw; a cache is never worth failing a command for.
  }
}
