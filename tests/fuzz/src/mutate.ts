// Mutations: a valid message made wrong in one way a hostile or buggy peer might: a member dropped
// or retyped, a strange id, a strange method name (prototype names included), params damaged at a
// random depth, nesting deep enough to break recursive code, huge strings, a batch, or damage to
// the text itself (cut, garbage, a stray newline, bytes that are not UTF-8).
import type { Random } from "./random.js";

type Json = unknown;

/**
 * Ids a peer might use. The valid ones are made unique per case (`uniq`), so two cases in flight
 * never share an id; the invalid ones cannot be echoed and must be refused.
 */
function oddId(random: Random, uniq: number): string {
  return random.pick(["null", `${uniq}.5`, `-${uniq}`, `"${uniq}${"i".repeat(2000)}"`, `"ü-${uniq}-😀"`, "1e309", "9007199254740993", "{}", "[]", "true"]);
}
const ODD_METHODS: readonly Json[] = [
  "constructor",
  "toString",
  "__proto__",
  "hasOwnProperty",
  "",
  "session/update",
  "fs/read_text_file",
  "_acpkit/custom",
  "$/cancel_request",
  "session/prompt/",
  "SESSION/NEW",
  42,
  null,
  ["session/new"],
];
const ODD_VALUES: readonly Json[] = [null, true, 0, -1, 1.5, "", "x", [], {}, [1, "a"], { nested: { deeper: null } }, "\u0000\u202e\ud83d\ude00", 2 ** 53 + 2];

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A path to a random node inside `value` (objects and arrays), the root included. */
function randomPath(random: Random, value: Json): (string | number)[] {
  const path: (string | number)[] = [];
  let node = value;
  while (typeof node === "object" && node !== null && random.chance(0.7)) {
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (keys.length === 0) break;
    const key = random.pick(keys);
    path.push(key);
    node = (node as Record<string | number, Json>)[key];
  }
  return path;
}

/**
 * Nesting is written as text (after JSON.stringify, which would itself overflow on it): a marker
 * string stands in the value and `expandDeep` replaces it.
 */
const DEEP_MARKER = /"@@acpkit-fuzz-deep-(\d+)@@"/g;
function deepMarker(depth: number): string {
  return `@@acpkit-fuzz-deep-${depth}@@`;
}
function expandDeep(text: string): string {
  return text.replace(DEEP_MARKER, (_match, depth: string) => {
    const n = Number(depth);
    let open = "";
    let close = "";
    for (let i = 0; i < n; i++) {
      open += i % 2 === 0 ? "[" : '{"d":';
      close = (i % 2 === 0 ? "]" : "}") + close;
    }
    return `${open}null${close}`;
  });
}

/** Damage the message's params (or the whole message) at a random place. */
function damageValue(random: Random, message: Record<string, Json>): void {
  const root = "params" in message && random.chance(0.85) ? message.params : message;
  const path = randomPath(random, root);
  if (path.length === 0) {
    if (root === message.params) message.params = random.pick(ODD_VALUES);
    return;
  }
  // The id has its own mutations (unique per case); a shared damaged id would make two cases' answers ambiguous.
  if (root === message && path[0] === "id") return;
  const last = path.pop()!;
  let parent = root as Record<string | number, Json>;
  for (const key of path) parent = parent[key] as Record<string | number, Json>;
  switch (random.int(5)) {
    case 0:
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
      return;
    case 1:
      parent[last] = random.pick(ODD_VALUES);
      return;
    case 2:
      parent[last] = deepMarker(random.pick([50, 5000, 20000]));
      return;
    case 3:
      parent[last] = "x".repeat(random.pick([1000, 100_000]));
      return;
    default:
      parent[random.pick(["constructor", "__proto__", "toString", "_meta", "extra"])] = random.pick(ODD_VALUES);
  }
}

/** Replace the text of `"id":<n>` with an odd id (some are only expressible as text: 1e309, 2^53+1). */
function withOddId(random: Random, text: string, uniq: number): string {
  return text.replace(/"id":("[^"]*"|-?\d+)/, `"id":${oddId(random, uniq)}`);
}

/** What the fuzz sends for one case: lines of bytes (a stray newline can make one case two lines). */
export interface Mutated {
  /** The bytes to send, with the final newline. */
  bytes: Uint8Array;
  /** The lines as the receiver decodes them (invalid UTF-8 replaced), without newlines. */
  lines: string[];
  /** What was done, for the failure report. */
  label: string;
}

const encoder = new TextEncoder();
const lenient = new TextDecoder("utf-8");

function fromText(raw: string, label: string): Mutated {
  const text = expandDeep(raw);
  const lines = text.split("\n").filter((line) => line.replace(/\r$/, "").trim() !== "");
  return { bytes: encoder.encode(`${text}\n`), lines: lines.map((line) => line.replace(/\r$/, "")), label };
}

/**
 * One case from a valid message: about a fifth stay valid, the rest get one mutation. `textOnly`
 * leaves out the byte-level damage (for channels that carry strings, not bytes).
 */
export function mutate(random: Random, valid: Record<string, Json>, options: { uniq: number; bytes: boolean; extra: () => Record<string, Json> }): Mutated {
  const message = clone(valid);
  const choice = random.int(12);
  switch (choice) {
    case 0:
    case 1:
      return fromText(JSON.stringify(message), "valid");
    case 2: {
      delete message[random.pick(["jsonrpc", "id", "method", "params"])];
      return fromText(JSON.stringify(message), "member dropped");
    }
    case 3: {
      const member = random.pick(["jsonrpc", "method", "params", "result", "error"]);
      message[member] = random.pick(ODD_VALUES);
      return fromText(JSON.stringify(message), `member ${member} retyped`);
    }
    case 4:
      return fromText(withOddId(random, JSON.stringify(message), options.uniq), "odd id");
    case 5:
      message.method = random.pick(ODD_METHODS);
      return fromText(JSON.stringify(message), `odd method ${JSON.stringify(message.method)}`);
    case 6:
    case 7:
      damageValue(random, message);
      return fromText(JSON.stringify(message), "damaged params");
    case 8: {
      const entries = [message, options.extra(), ...(random.chance(0.5) ? [options.extra()] : [])];
      if (random.chance(0.3)) damageValue(random, entries[1] as Record<string, Json>);
      const batch = random.chance(0.1) ? [] : random.chance(0.1) ? [[message]] : entries;
      return fromText(JSON.stringify(batch), "batch");
    }
    case 9: {
      const text = JSON.stringify(message);
      const cut = random.int(text.length);
      return fromText(
        random.chance(0.5) ? text.slice(0, cut) : text.slice(0, cut) + random.pick(["}", "]", ",", "\\", '"', "\u0000", "{{"]) + text.slice(cut),
        "cut or garbage",
      );
    }
    case 10: {
      if (random.chance(0.5)) return fromText(random.pick(["42", '"text"', "null", "true", "[]", "{}", '{"jsonrpc":"2.0"}', "[1,2]"]), "not a message");
      // A raw newline inside the JSON: the receiver sees two broken lines.
      const text = JSON.stringify(message);
      const at = 1 + random.int(text.length - 1);
      return fromText(`${text.slice(0, at)}\n${text.slice(at)}`, "split by a newline");
    }
    default: {
      if (!options.bytes) return fromText(JSON.stringify(message).replace(/"text"/, '"t\\ud800"'), "lone surrogate escape");
      // Bytes that are not UTF-8 inside a string value: the receiver replaces them (and says so).
      const text = JSON.stringify(message);
      const at = text.indexOf('"', text.indexOf('"method"') + 9) + 1 || 1;
      const head = encoder.encode(text.slice(0, at));
      const tail = encoder.encode(`${text.slice(at)}\n`);
      const bad = random.pick([[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]]);
      const bytes = new Uint8Array(head.length + bad.length + tail.length);
      bytes.set(head, 0);
      bytes.set(bad, head.length);
      bytes.set(tail, head.length + bad.length);
      return { bytes, lines: [lenient.decode(bytes.subarray(0, bytes.length - 1))], label: "invalid UTF-8" };
    }
  }
}
