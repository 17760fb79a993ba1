// An older TypeScript SDK's documentation shows protocol shapes as object literals inside code
// (`connection.sessionUpdate({...})`, `requestPermission({...})`, `return { stopReason: "..." }`),
// not as JSON. The fixture records each literal's value (with `params.sessionId` bound to
// "sess_seed") and what it is, so the v1 tests can validate what that page shows.
import { readExampleFixture } from "./protocol-examples.js";

export interface SdkDocLiteral {
  label: string;
  /** What the literal is: the params of a method, or a session/prompt result. */
  target: { part: "params" | "result"; method: string };
  value: unknown;
}

export function sdkDocLiterals(name: string): SdkDocLiteral[] {
  const { entries } = readExampleFixture<{ section: string; target: SdkDocLiteral["target"]; value: unknown }>(name, "literals");
  return entries.map(({ section, target, value }, n) => ({ label: `${name} § ${section} #${n + 1} ${target.method} ${target.part}`, target, value }));
}
