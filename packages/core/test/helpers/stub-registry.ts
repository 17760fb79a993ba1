// A small, hand-written method registry for testing the Connection on its own: a handful of ACP
// methods per version with validators that report JSON Pointer paths like the generated ones.
// (The real registry comes from @acpkit/schema; see schema-integration.test.ts.)
import type { MethodInfo, ProtocolVersion, ValidationError, ValidationResult } from "@acpkit/schema";
import type { MethodRegistry } from "../../src/registry.js";

const VALID: ValidationResult = Object.freeze({ valid: true }) as ValidationResult;

type Check = (value: unknown) => ValidationError[];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function object(fields: Record<string, "string" | "integer" | "array" | "object" | "id">, legacy?: Record<string, string>): Check {
  return (value) => {
    if (!isObject(value)) return [{ path: "", message: "must be object" }];
    if (legacy) {
      for (const [old, expected] of Object.entries(legacy)) {
        if (old in value && !(expected in value)) return [{ path: `/${old}`, message: `legacy field "${old}"`, legacyShape: old, expected }];
      }
    }
    const errors: ValidationError[] = [];
    for (const [name, type] of Object.entries(fields)) {
      const field = value[name];
      const path = `/${name}`;
      if (field === undefined) errors.push({ path: "", message: `must have required property '${name}'` });
      else if (type === "string" && typeof field !== "string") errors.push({ path, message: "must be string" });
      else if (type === "integer" && !Number.isInteger(field)) errors.push({ path, message: "must be integer" });
      else if (type === "array" && !Array.isArray(field)) errors.push({ path, message: "must be array" });
      else if (type === "object" && !isObject(field)) errors.push({ path, message: "must be object" });
      else if (type === "id" && typeof field !== "string" && typeof field !== "number") errors.push({ path, message: "must be string or integer" });
    }
    return errors;
  };
}

const toResult = (errors: ValidationError[]): ValidationResult => (errors.length === 0 ? VALID : { valid: false, errors });

function method(name: string, direction: MethodInfo["direction"], kind: MethodInfo["kind"], params: Check, result?: Check): MethodInfo {
  const base = {
    method: name,
    direction,
    kind,
    paramsType: `${name}Params`,
    validateParams: (value: unknown) => toResult(params(value)),
  };
  if (result === undefined) return base;
  return { ...base, resultType: `${name}Result`, validateResult: (value: unknown) => toResult(result(value)) };
}

const sessionUpdateParams: Check = (value) => {
  const errors = object({ sessionId: "string", update: "object" })(value);
  if (errors.length > 0) return errors;
  const update = (value as { update: Record<string, unknown> }).update;
  return typeof update.sessionUpdate === "string" ? [] : [{ path: "/update/sessionUpdate", message: "must be string" }];
};

const common: MethodInfo[] = [
  method("initialize", "client_to_agent", "request", object({ protocolVersion: "integer" }), object({ protocolVersion: "integer" })),
  method("session/new", "client_to_agent", "request", object({ cwd: "string" }), object({ sessionId: "string" })),
  method(
    "session/prompt",
    "client_to_agent",
    "request",
    object({ sessionId: "string", prompt: "array" }, { messages: "prompt" }),
    object({ stopReason: "string" }),
  ),
  method("session/cancel", "client_to_agent", "notification", object({ sessionId: "string" })),
  method("session/update", "agent_to_client", "notification", sessionUpdateParams),
  method("session/request_permission", "agent_to_client", "request", object({ sessionId: "string", options: "array" }), object({ outcome: "object" })),
];

const tables: Record<ProtocolVersion, Map<string, MethodInfo>> = {
  1: new Map(
    [
      ...common,
      method("fs/read_text_file", "agent_to_client", "request", object({ sessionId: "string", path: "string" }), object({ content: "string" })),
      method("$/cancel_request", "both", "notification", object({ requestId: "id" })),
    ].map((m) => [m.method, m]),
  ),
  2: new Map(common.map((m) => [m.method, m])),
};

export const stubRegistry: MethodRegistry = {
  getMethod: (version, name) => tables[version]?.get(name),
  checkOutgoing: (version, name, part, value) => {
    const info = tables[version]?.get(name);
    if (info === undefined) return { valid: false, errors: [{ path: "", message: `unknown method ${name}` }] };
    if (part === "params") return info.validateParams(value);
    return info.validateResult?.(value) ?? VALID;
  },
  legacyMethod: (_version, name) => (name === "acp/prompt" ? { legacyShape: name, expected: '"session/prompt"' } : undefined),
};
