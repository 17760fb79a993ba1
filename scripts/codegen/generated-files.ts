// Reading and writing the generated directory: the committed side of `pnpm codegen --check`.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { GENERATED_DIR } from "./pipeline.js";

function listFiles(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

/** Paths (relative to the generated dir) whose committed text differs from `files`, plus stale extras. */
export function diffGenerated(files: Map<string, string>, dir = GENERATED_DIR): { changed: string[]; missing: string[]; extra: string[] } {
  const changed: string[] = [];
  const missing: string[] = [];
  for (const [path, text] of files) {
    const full = join(dir, path);
    if (!existsSync(full)) missing.push(path);
    else if (readFileSync(full, "utf8") !== text) changed.push(path);
  }
  const extra = listFiles(dir).filter((path) => !files.has(path));
  return { changed, missing, extra };
}

/** Writes `files` into the generated dir and removes files the codegen no longer produces. */
export function writeGenerated(files: Map<string, string>, dir = GENERATED_DIR): void {
  for (const stale of listFiles(dir).filter((path) => !files.has(path))) rmSync(join(dir, stale));
  for (const [path, text] of files) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}
