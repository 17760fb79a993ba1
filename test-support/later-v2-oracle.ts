// The independent oracle for the later v2 draft: the official SDK 2.4.0's own v2 schema
// (`schema/v2/schema.json`), read with the Ajv settings every official-schema oracle uses. Each
// message is checked against the definition its method names (`x-method` and the Request /
// Response / Notification suffix); a response is matched to its request by id, per direction.
import { createRequire } from "node:module";
import { officialAjv } from "./official-ajv.js";

type Json = Record<string, unknown>;
type Direction = "client_to_agent" | "agent_to_client";

const require = createRequire(import.meta.url);
const SCHEMA_ID = "https://acpkit.test/official-later-v2.json";

let compiled: { ajv: ReturnType<typeof officialAjv>; defs: Map<string, string> } | undefined;

function oracle() {
  if (compiled !== undefined) return compiled;
  const schema = require("@agentclientprotocol/sdk/schema/v2/schema.json") as { $defs: Record<string, Json> };
  const ajv = officialAjv();
  ajv.addFormat("date-time", true);
  ajv.addFormat("regex", true);
  ajv.addSchema({ ...schema, $id: SCHEMA_ID });
  // method + kind → def name
  const defs = new Map<string, string>();
  for (const [name, def] of Object.entries(schema.$defs)) {
    const method = def["x-method"];
    if (typeof method !== "string") continue;
    const kind = name.endsWith("Response") ? "result" : "params";
    defs.set(`${method} ${kind}`, name);
  }
  compiled = { ajv, defs };
  return compiled;
}

/** Checks every message of one connection, both ways, against the SDK's v2 schema. */
export class LaterV2Oracle {
  readonly problems: string[] = [];
  readonly #pending = new Map<string, string>();
  /** Methods that were checked, by direction (for tests that assert coverage). */
  readonly seen = new Set<string>();

  check(message: unknown, direction: Direction): void {
    const { ajv, defs } = oracle();
    if (Array.isArray(message) || typeof message !== "object" || message === null) {
      this.problems.push(`${direction}: not a single JSON-RPC object: ${JSON.stringify(message)}`);
      return;
    }
    const m = message as Json;
    let method: string | undefined;
    let kind: "params" | "result";
    let value: unknown;
    if (typeof m.method === "string") {
      method = m.method;
      kind = "params";
      value = m.params ?? {};
      if ("id" in m) {
        if (m.id === null) this.problems.push(`${direction} ${method}: null request id`);
        this.#pending.set(`${direction} ${JSON.stringify(m.id)}`, method);
      }
    } else {
      const answering: Direction = direction === "client_to_agent" ? "agent_to_client" : "client_to_agent";
      method = this.#pending.get(`${answering} ${JSON.stringify(m.id)}`);
      this.#pending.delete(`${answering} ${JSON.stringify(m.id)}`);
      if (method === undefined || "error" in m) return;
      kind = "result";
      value = m.result;
    }
    const def = defs.get(`${method} ${kind}`);
    if (def === undefined) {
      if (!method.startsWith("_")) this.problems.push(`${direction} ${method} ${kind}: no such method in the SDK's v2 schema`);
      return;
    }
    this.seen.add(`${direction} ${method} ${kind}`);
    const validate = ajv.getSchema(`${SCHEMA_ID}#/$defs/${def}`)!;
    if (!validate(value)) {
      this.problems.push(`${direction} ${method} ${kind} (${def}): ${ajv.errorsText(validate.errors)} — ${JSON.stringify(value).slice(0, 400)}`);
    }
  }
}
