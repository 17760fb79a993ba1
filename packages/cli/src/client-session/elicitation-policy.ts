// How `acpkit run` answers the agent's elicitations without a person: decline (default), cancel,
// or accept a form with its defaults (fields without one get an empty value of their type).
import type { ElicitationHandlers, ElicitationResult, ElicitationSchema } from "@acpkit/client";
import { setOwnField } from "@acpkit/core";

export const ELICIT_POLICIES = ["decline", "cancel", "accept-defaults"] as const;
export type ElicitPolicy = (typeof ELICIT_POLICIES)[number];

/** The form's values from its defaults; a field without one gets "", 0 (or its minimum), false or []. */
export function defaultFormValues(schema: ElicitationSchema): Record<string, string | number | boolean | string[]> {
  const values: Record<string, string | number | boolean | string[]> = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const value = defaultFieldValue(field as { type: string; default?: unknown; minimum?: unknown });
    // The agent names the fields, "__proto__" included: it must stay a field of the answer.
    if (value !== undefined) setOwnField(values, name, value);
  }
  return values;
}

function defaultFieldValue(spec: { type: string; default?: unknown; minimum?: unknown }): string | number | boolean | string[] | undefined {
  if (spec.default !== undefined && spec.default !== null) return spec.default as string | number | boolean | string[];
  if (spec.type === "string") return "";
  if (spec.type === "number" || spec.type === "integer") return typeof spec.minimum === "number" ? spec.minimum : 0;
  if (spec.type === "boolean") return false;
  if (spec.type === "array") return [];
  return undefined;
}

/** Elicitation handlers answering every request by `policy`; `report` sees each question and answer. */
export function elicitationHandlers(policy: ElicitPolicy, report: (what: string, answer: ElicitationResult) => void): ElicitationHandlers {
  const answer = (accepted: () => ElicitationResult): ElicitationResult =>
    policy === "accept-defaults" ? accepted() : ({ action: policy } as ElicitationResult);
  return {
    form(request) {
      const result = answer(() => ({ action: "accept", content: defaultFormValues(request.requestedSchema) }) as ElicitationResult);
      report(request.message, result);
      return result;
    },
    url(request) {
      // Nobody can follow the link here; accepting means "the user will", so it is printed.
      const result = answer(() => ({ action: "accept" }) as ElicitationResult);
      report(`${request.message} (${request.url})`, result);
      return result;
    },
  };
}
