// The oracle: what JSON-RPC 2.0 and the receiver's method table say the answer to one line must
// be, worked out from the line alone, without acpkit's code. Each line gets:
//   - not JSON                                  → one answer, id null, -32700
//   - JSON but not a valid message              → one answer, id null, -32600
//   - a notification or a response              → no answer
//   - a request the receiver does not serve     → one answer under its id, -32601
//   - a request it serves                       → one answer under its id (result or error), never -32603
// and a v2 batch gets one array holding its entries' answers (none when it has none).

/** What one line must produce. */
export interface Expectation {
  /** Answers with `id: null` and these codes, in any order. */
  nullAnswers: number[];
  /** Answers under these ids: the code they must carry, or "served" (anything but -32603/-32700). */
  byId: { id: string | number; code: number | "served" }[];
  /** The answers come back inside one batch array. */
  batched: boolean;
  /** How many inputs the receiver should report dropping (invalid notifications, stray responses). */
  dropped: number;
}

const NONE: Expectation = { nullAnswers: [], byId: [], batched: false, dropped: 0 };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON-RPC 2.0: a string, a number or null. Numbers must survive a round trip (finite, within ±2^53). */
function isId(value: unknown): boolean {
  return typeof value === "string" || value === null || (typeof value === "number" && Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER);
}

type Kind =
  | { kind: "invalid" }
  | { kind: "notification"; method: string }
  | { kind: "request"; method: string; id: string | number | null }
  | { kind: "response" };

function classify(value: unknown): Kind {
  if (!isObject(value) || value.jsonrpc !== "2.0") return { kind: "invalid" };
  if ("method" in value && value.method !== undefined) {
    const params = value.params;
    if (typeof value.method !== "string") return { kind: "invalid" };
    if (params !== undefined && params !== null && typeof params !== "object") return { kind: "invalid" };
    if (!("id" in value)) return { kind: "notification", method: value.method };
    return isId(value.id) ? { kind: "request", method: value.method, id: value.id as string | number | null } : { kind: "invalid" };
  }
  if (!("id" in value) || !isId(value.id)) return { kind: "invalid" };
  const hasResult = "result" in value;
  const hasError = "error" in value;
  if (hasResult === hasError) return { kind: "invalid" };
  if (hasError) {
    const error = value.error;
    if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== "string") return { kind: "invalid" };
  }
  return { kind: "response" };
}

/** The receiver's side of the method table for one protocol version. */
export interface ServedMethods {
  requests: ReadonlySet<string>;
  /** Notifications it acts on; any other notification is dropped (and reported). */
  notifications: ReadonlySet<string>;
  /** The later v2 draft (docs/protocol.md A6): no batches (an array gets one -32600), and a request with id null gets -32600. */
  later?: boolean;
}

function expectOne(value: unknown, served: ServedMethods, into: Expectation): void {
  const kind = classify(value);
  switch (kind.kind) {
    case "invalid":
      into.nullAnswers.push(-32600);
      return;
    case "response":
      // Nothing the fuzz sends answers a pending request of the receiver: a stray response.
      into.dropped++;
      return;
    case "notification":
      if (!served.notifications.has(kind.method)) into.dropped++;
      return;
    case "request": {
      const code = served.requests.has(kind.method) ? "served" : -32601;
      if (kind.id === null) into.nullAnswers.push(served.later ? -32600 : code === "served" ? 0 : code);
      else into.byId.push({ id: kind.id, code });
    }
  }
}

/**
 * The expectation for one line. `version` decides what a JSON array means (a v2 batch; nothing in
 * v1 or the later v2 draft). `text` is the line as the receiver decodes it.
 */
export function expectationFor(text: string, version: 1 | 2, served: ServedMethods): Expectation {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ...NONE, nullAnswers: [-32700] };
  }
  const into: Expectation = { nullAnswers: [], byId: [], batched: false, dropped: 0 };
  if (Array.isArray(value)) {
    if (version === 1 || served.later === true || value.length === 0) {
      into.nullAnswers.push(-32600);
      return into;
    }
    into.batched = true;
    for (const entry of value) {
      // A nested array is not a message.
      if (Array.isArray(entry)) into.nullAnswers.push(-32600);
      else expectOne(entry, served, into);
    }
    return into;
  }
  expectOne(value, served, into);
  return into;
}
