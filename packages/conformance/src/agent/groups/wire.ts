// Group "wire": what every line of every connection must be, judged over each group's connection
// once it is done: framing, UTF-8, one of result and error, no second answer, no fs/terminal
// request to a client that advertised neither. Framing and UTF-8 are about lines of text, which
// an in-process transport does not have: not_applicable there.
import { isJsonObject as isObject } from "@acpkit/core";
import type { AgentRequirementId } from "../../requirements.js";
import type { CheckGroup, Judge } from "../../results.js";
import { MAX_LINE_BYTES, RECORD_BUDGET_CHARS, type RawConnection, type RecordedLine } from "../raw-connection.js";
import { evidence, type Json } from "../session-steps.js";

export const WIRE_GROUP = {
  name: "wire",
  judges: ["ACPKIT-STDIO-001", "ACPKIT-STDIO-002", "ACPKIT-RPC-002", "ACPKIT-RPC-009", "ACPKIT-CAP-001"],
} as const satisfies CheckGroup<AgentRequirementId>;

type WireId = (typeof WIRE_GROUP.judges)[number];

/** An agent whose output ended on its own inside a line left a message unframed (S3: each ends with a newline). */
export function checkOutputEnd(agent: RawConnection, results: Judge<WireId>): void {
  const tail = agent.unterminatedTail;
  if (tail === undefined) return;
  results.set(
    "ACPKIT-STDIO-001",
    "fail",
    `stdout ended inside a line: ${tail.bytes} bytes after the last newline (${JSON.stringify(tail.start)}); every message ends with a newline (docs/protocol.md S3), and a reader that splits on newlines never sees it`,
    evidence(agent),
  );
}

/** Checks every line of a group's wire that concerns all of them: framing, UTF-8, responses, fs/terminal. */
export function checkWire(agent: RawConnection, results: Judge<WireId>): void {
  if (agent.movesMessages) {
    const why = `${agent.messageChannel} moves whole messages, not lines of bytes`;
    results.set("ACPKIT-STDIO-001", "not_applicable", why);
    results.set("ACPKIT-STDIO-002", "not_applicable", why);
  } else {
    const bad = agent.lines.find((line) => !isMessageLine(line));
    if (bad) results.set("ACPKIT-STDIO-001", "fail", `stdout line is not a JSON-RPC 2.0 message: ${bad.text.slice(0, 200)}`, evidence(agent));
    else if (agent.oversizedLine)
      results.set(
        "ACPKIT-STDIO-001",
        "fail",
        `stdout held a line of more than ${MAX_LINE_BYTES} bytes (${agent.oversizedLine.bytesSeen} without a newline when the checker gave it up); acpkit's transports refuse lines that long by default`,
        evidence(agent),
      );
    else results.pass("ACPKIT-STDIO-001", `${agent.lines.length} lines, each one JSON-RPC message${unrecordedNote(agent)}`);
    checkOutputEnd(agent, results);
    if (agent.invalidUtf8) results.set("ACPKIT-STDIO-002", "fail", "stdout held bytes that are not UTF-8", evidence(agent));
    else results.pass("ACPKIT-STDIO-002", "all of stdout was UTF-8");
  }
  // A response: an object with an id and no method.
  const both = agent.lines.find(
    (line) => isObject(line.value) && !("method" in line.value) && "id" in line.value && "result" in line.value === "error" in line.value,
  );
  if (both)
    results.set(
      "ACPKIT-RPC-002",
      "fail",
      `a response with ${"result" in (both.value as Json) ? "both result and error" : "neither result nor error"}: ${both.text.slice(0, 200)}`,
      evidence(agent),
    );
  else results.pass("ACPKIT-RPC-002", "every response had exactly one of result and error");
  const twice = agent.requestsSent.firstRepeatedAnswer(agent.lines);
  if (twice)
    results.set(
      "ACPKIT-RPC-009",
      "fail",
      `request id ${twice.id} was answered ${twice.answers} times (sent ${twice.sent}): ${twice.text.slice(0, 200)}`,
      evidence(agent),
    );
  else results.pass("ACPKIT-RPC-009", "no request was answered twice");
  const client = agent.lines.find((line) => isObject(line.value) && typeof line.value.method === "string" && /^(fs|terminal)\//.test(line.value.method));
  if (client)
    results.set("ACPKIT-CAP-001", "fail", `the agent sent ${(client.value as Json).method} though the client advertised no fs or terminal`, evidence(agent));
  else results.pass("ACPKIT-CAP-001", "no fs/* or terminal/* request");
}

/** What a pass message adds when lines were read past the record budget and judged as read, not kept ("" otherwise). */
export function unrecordedNote(agent: RawConnection): string {
  if (agent.unrecorded === 0) return "";
  const budget = RECORD_BUDGET_CHARS / (1024 * 1024);
  return `; ${agent.unrecorded} more lines, past the ${budget} Mi characters the checker keeps, were judged as they were read and not kept`;
}

function isMessageLine(line: RecordedLine): boolean {
  const values = Array.isArray(line.value) ? line.value : [line.value];
  return values.length > 0 && values.every((value) => isObject(value) && value.jsonrpc === "2.0");
}
