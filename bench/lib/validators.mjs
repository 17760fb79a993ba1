// The two validators the `validate` scenario and the instruction counts compare on v1
// `session/update` params: acpkit's generated standalone validators and the official SDK's zod
// schemas (what its connection runs on every received notification). Plain JS so a measured
// process under valgrind needs no TypeScript loader (types: validators.d.mts).
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** The official SDK's zod schemas are not exported by name; load them from next to its v1 entry. */
async function officialValidator() {
  const require = createRequire(import.meta.url);
  const entry = require.resolve("@agentclientprotocol/sdk"); // dist/v1/stable/acp.js
  const zodFile = join(dirname(entry), "..", "schema", "zod.gen.js");
  const { zSessionNotification } = await import(pathToFileURL(zodFile).href);
  return (params) => {
    // The SDK calls .parse (throwing) on every received notification; do exactly that.
    zSessionNotification.parse(params);
    return true;
  };
}

async function acpkitValidator() {
  const schema = await import("@acpkit/schema");
  if (typeof schema.validateParams !== "function") throw new Error("@acpkit/schema does not export validateParams yet");
  return (params) => schema.validateParams(1, "session/update", params).valid;
}

/** The validator of `impl` ("acpkit" or "official"). */
export async function loadValidator(impl) {
  if (impl === "official") return officialValidator();
  if (impl === "acpkit") return acpkitValidator();
  throw new Error(`no validator for ${impl}`);
}
