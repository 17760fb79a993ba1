// Measured under callgrind by bench/instructions.ts: IMPL's validator (acpkit or official) run on
// COUNT v1 session/update params (message chunks, each different), after one warm-up pass over
// the first 50. The runner subtracts COUNT = 0 from COUNT = N, so loading and warming cancel.
// Usage: node --single-threaded validate.mjs IMPL COUNT
import { chunkUpdate, SESSION_ID } from "../lib/fixtures.mjs";
import { loadValidator } from "../lib/validators.mjs";

const [impl, countText = "0"] = process.argv.slice(2);
const validate = await loadValidator(impl);
const params = Array.from({ length: Math.max(50, Number(countText)) }, (_, i) => ({ sessionId: SESSION_ID, update: chunkUpdate(i) }));
for (let i = 0; i < 50; i++) validate(params[i]);
for (let i = 0; i < Number(countText); i++) if (!validate(params[i])) throw new Error(`${impl} rejected valid params #${i}`);
