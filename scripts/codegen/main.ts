// `pnpm codegen`: schema/v{1,2}/acp.schema.json → packages/schema/src/generated/ (and core's copy
// of the method tables, packages/core/src/generated/).
// `pnpm codegen --check`: regenerate in memory, fail on any difference from the committed
// files, then round-trip the generated types through typescript-json-schema and fail if a
// required property or an enum/const value was lost on the way.

import { relative } from "node:path";
import { diffGenerated, writeGenerated } from "./generated-files.js";
import { CORE_GENERATED_DIR, GENERATED_DIR, generateAll, REPO_ROOT } from "./pipeline.js";
import { checkRoundTrip } from "./roundtrip.js";

function main(argv: string[]): number {
  const check = argv.includes("--check");
  const unknown = argv.filter((arg) => arg !== "--check");
  if (unknown.length > 0) {
    console.error(`codegen: unknown argument(s) ${unknown.join(" ")} (usage: pnpm codegen [--check])`);
    return 2;
  }
  const started = performance.now();
  const { files, coreFiles, models } = generateAll();
  const outputs: [Map<string, string>, string][] = [
    [files, GENERATED_DIR],
    [coreFiles, CORE_GENERATED_DIR],
  ];
  if (!check) {
    for (const [written, dir] of outputs) writeGenerated(written, dir);
    const where = outputs.map(([written, dir]) => `${written.size} to ${relative(REPO_ROOT, dir)}`).join(", ");
    console.log(`codegen: wrote ${where} in ${Math.round(performance.now() - started)} ms`);
    return 0;
  }
  let failed = false;
  for (const [expected, dir] of outputs) {
    const { changed, missing, extra } = diffGenerated(expected, dir);
    if (changed.length + missing.length + extra.length === 0) continue;
    failed = true;
    console.error(`codegen --check: ${relative(REPO_ROOT, dir)} is out of date with schema/ (run \`pnpm codegen\` and commit the result):`);
    for (const path of changed) console.error(`  changed: ${path}`);
    for (const path of missing) console.error(`  missing: ${path}`);
    for (const path of extra) console.error(`  not generated (stale): ${path}`);
  }
  for (const [version, model] of models) {
    const problems = checkRoundTrip(model, files.get(`${version}/types.ts`)!, version);
    if (problems.length > 0) {
      failed = true;
      console.error(`codegen --check: the ${version} types lost constraints of the schema (typescript-json-schema round trip):`);
      for (const problem of problems) console.error(`  ${problem}`);
    }
  }
  if (failed) return 1;
  console.log(
    `codegen --check: ${files.size + coreFiles.size} files up to date; round trip kept every constraint (${Math.round(performance.now() - started)} ms)`,
  );
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  console.error(`codegen: ${(error as Error).message}`);
  process.exitCode = 1;
}
