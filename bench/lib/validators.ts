// The two validators the `validate` scenario compares on v1 `session/update` params: acpkit's
// generated standalone validators and the official SDK's zod schemas (what its connection runs on
// every received notification).
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ImplName } from "./impl.js";

export type ParamsValidator = (params: unknown) => boolean;

/** The official SDK's zod schemas are not exported by name; load them from next to its v1 entry. */
async function officialValidator(): Promise<ParamsValidator> {
  const require = createRequire(import.meta.url);
  const entry = require.resolve("@agentclientprotocol/sdk"); // dist/v1/stable/acp.js
  const zodFile = join(dirname(entry), "..", "schema", "zod.gen.js");
  const { zSessionNotification } = (await import(pathToFileURL(zodFile).href)) as { zSessionNotification: { parse(v: unknown): unknown } };
  return (params) => {
    // The SDK calls .parse (throwing) on every received notification; do exactly that.
    zSessionNotification.parse(params);
    return true;
  };
}

async function acpkitValidator(): Promise<ParamsValidator> {
  const schema = (await import("@acpkit/schema")) as Record<string, unknown>;
  const validateParams = schema.validateParams as ((version: 1 | 2, method: string, params: unknown) => { valid: boolean }) | undefined;
  if (typeof validateParams !== "function") throw new Error("@acpkit/schema does not export validateParams yet");
  return (params) => validateParams(1, "session/update", params).valid;
}

export async function loadValidator(impl: ImplName): Promise<ParamsValidator> {
  if (impl === "official") return officialValidator();
  if (impl === "acpkit") return acpkitValidator();
  throw new Error(`no validator for ${impl}`);
}
