// Measured under callgrind by bench/instructions.ts: importing IMPL's client side (acpkit: the
// client and the stdio transport; official: the SDK's entry), or nothing ("none": the floor, an
// empty script) to subtract.
// Usage: node --single-threaded import.mjs IMPL
const [impl] = process.argv.slice(2);
if (impl === "acpkit") {
  await import("@acpkit/client");
  await import("@acpkit/transport-stdio");
} else if (impl === "official") {
  await import("@agentclientprotocol/sdk");
} else if (impl !== "none") {
  process.stderr.write(`import.mjs: unknown implementation ${impl}\n`);
  process.exitCode = 2;
}
