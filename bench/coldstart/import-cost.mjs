// What importing a client costs on top of bare Node: prints the ms the imports took.
const which = process.argv[2];
const started = performance.now();
if (which === "acpkit") {
  await import("@acpkit/client");
  await import("@acpkit/transport-stdio");
} else if (which === "official") {
  await import("@agentclientprotocol/sdk");
}
console.log(performance.now() - started);
