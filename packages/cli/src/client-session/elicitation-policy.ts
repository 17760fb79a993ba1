// How `acpkit run` answers the agent's elicitations without a person: decline (default), cancel,
// or accept a form with its defaults (fields without one get an empty value of their type).
import type { ElicitationHandlers, ElicitationResult, ElicitationSchema } from "@acpkit/client";

export const ELICIT_POLICIES = ["decline", "cancel", "accept-defaults"] as const;
export type ElicitPolicy = (typeof ELICIT_POLICIES)[number];

/** The form's values from its defaults; a field without one gets "", 0 (or its minimum), false or []. */
export function defaultFormValues(schema: ElicitationSchema): Record<string, string | number | boolean | string[]> {
  const values: Record<string, string | number | boolean | string[]> = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const spec = field as { type: string; default?: unknown; minimum?: unknown };
    if (spec.default !== undefined && spec.default !== null) values[name] = spec.default as string | number | boolean | string[];
    else if (spec.type === "string") values[name] = "";
    else if (spec.type === "number" || spec.type === "integer") values[name] = typeof spec.minimum === "number" ? spec.minimum : 0;
    else if (spec.type === "boolean") values[name] = false;
    else if (spec.type === "array") values[name] = [];
  }
  return values;
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
