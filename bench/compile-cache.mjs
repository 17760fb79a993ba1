// `node bench/compile-cache.mjs [NODE_BINARY…]`: what Node's on-disk compile cache saves, per Node
// binary (default: this one). For each, interleaved rounds of
//   import      importing @acpkit/client + @acpkit/transport-stdio (coldstart/import-cost.mjs), ms
//   cold start  spawn a client, which spawns the acpkit agent, one turn, close, exit (wall ms)
// without the cache (NODE_DISABLE_COMPILE_CACHE=1) and with it (NODE_COMPILE_CACHE=<a fresh
// folder>, filled by one unmeasured run first; the variable reaches the agent child too, as it
// would for an application that sets it). Node before 22.1 has no compile cache: there both
// columns measure the same thing. Prints medians of ROUNDS (default 15) per cell.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("./coldstart/", import.meta.url));
const binaries = process.argv.slice(2).length > 0 ? process.argv.slice(2) : [process.execPath];
const rounds = Number(process.env.ROUNDS ?? 15);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function importMs(node, env) {
  return Number(execFileSync(node, [join(dir, "import-cost.mjs"), "acpkit"], { cwd: dir, env, encoding: "utf8" }).trim());
}

function coldStartMs(node, env) {
  const started = process.hrtime.bigint();
  execFileSync(node, [join(dir, "acpkit-client.mjs")], { cwd: dir, env, stdio: "ignore" });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

console.log("node      | import ms, no cache | import ms, cache | cold start ms, no cache | cold start ms, cache");
for (const node of binaries) {
  const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  const cache = mkdtempSync(join(tmpdir(), "acpkit-compile-cache-"));
  const { NODE_COMPILE_CACHE: _unset, ...base } = process.env;
  const off = { ...base, NODE_DISABLE_COMPILE_CACHE: "1" };
  const on = { ...base, NODE_COMPILE_CACHE: cache };
  try {
    // Fill the cache once (both scripts), unmeasured.
    importMs(node, on);
    coldStartMs(node, on);
    const samples = { importOff: [], importOn: [], coldOff: [], coldOn: [] };
    for (let round = 0; round < rounds; round++) {
      samples.importOff.push(importMs(node, off));
      samples.importOn.push(importMs(node, on));
      samples.coldOff.push(coldStartMs(node, off));
      samples.coldOn.push(coldStartMs(node, on));
    }
    const cell = (values) => median(values).toFixed(1).padStart(6);
    console.log(
      `${version.padEnd(9)} | ${cell(samples.importOff)}              | ${cell(samples.importOn)}           | ${cell(samples.coldOff)}                  | ${cell(samples.coldOn)}`,
    );
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}
