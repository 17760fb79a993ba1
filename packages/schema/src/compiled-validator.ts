// Types shared by the generated modules in ./generated and the runtime that uses them.

/** The subset of Ajv's error object our error translation reads. */
export interface AjvErrorObject {
  /** JSON Pointer to the failing value. */
  instancePath: string;
  /** Pointer into the schema of the function that failed (relative to its $def). */
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A standalone Ajv validator: returns whether the value is valid and leaves errors in `.errors`. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: AjvErrorObject[] | null;
}

/** Which way a method flows: client to agent, agent to client, or either. */
export type MethodDirection = "client_to_agent" | "agent_to_client" | "both";
/** Whether a method is a request (answered) or a notification (not answered). */
export type MethodKind = "request" | "notification";

/** One row of a generated method table (generated/vN/methods.ts). */
export interface MethodTableEntry {
  method: string;
  direction: MethodDirection;
  kind: MethodKind;
  /** The $def of the params: its validator is `validators[paramsType]` once the version is loaded. */
  paramsType: string;
  resultType?: string;
}
