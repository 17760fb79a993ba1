// The measured part of the `validate` scenario, run in a fresh worker process.
import { mixedSessionUpdates } from "./mixed-updates.js";
import { loadValidator } from "./validators.mjs";
import type { ImplName } from "./impl.js";

/** Validations per second over `count` mixed params (after one unmeasured pass); every one must pass. */
export async function measureValidate(impl: ImplName, count: number): Promise<number> {
  const validate = await loadValidator(impl);
  assertRejectsInvalid(impl, validate);
  const params = mixedSessionUpdates(count);
  const pass = () => {
    for (let i = 0; i < params.length; i++) {
      if (!validate(params[i])) throw new Error(`${impl} rejected valid params #${i}: ${JSON.stringify(params[i])}`);
    }
  };
  pass();
  // Repeat until at least 300 ms were measured so small counts still give a stable figure.
  let passes = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  do {
    pass();
    passes++;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  } while (elapsed < 0.3);
  return (passes * count) / elapsed;
}

/** Guards the comparison: a validator that accepted anything would win every round. */
function assertRejectsInvalid(impl: ImplName, validate: (params: unknown) => boolean): void {
  const invalid = { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text" } } };
  let accepted: boolean;
  try {
    accepted = validate(invalid);
  } catch {
    accepted = false;
  }
  if (accepted) throw new Error(`${impl} accepted a text chunk without text; the validate scenario would measure nothing`);
}
