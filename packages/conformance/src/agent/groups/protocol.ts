// Group "protocol": JSON-RPC behaviour on one connection (ids, unknown methods, malformed input,
// notifications, extensions), what the agent says about itself, and exiting when stdin closes.
import { isJsonObject as isObject } from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";
import type { AgentRequirementId } from "../../requirements.js";
import type { CheckGroup, Results } from "../../results.js";
import type { RecordedLine } from "../raw-connection.js";
import { evidence, type Json, start } from "../session-steps.js";
import type { CheckContext } from "../target.js";
import { checkOutputEnd, checkWire, WIRE_GROUP } from "./wire.js";

export const PROTOCOL_GROUP = {
  name: "protocol",
  judges: [
    "ACPKIT-INIT-001",
    "ACPKIT-RPC-001",
    "ACPKIT-RPC-003",
    "ACPKIT-RPC-004",
    "ACPKIT-RPC-005",
    "ACPKIT-RPC-006",
    "ACPKIT-RPC-007",
    "ACPKIT-RPC-008",
    "ACPKIT-EXIT-001",
    "ACPKIT-INFO-AGENT",
  ],
} as const satisfies CheckGroup<AgentRequirementId>;

/** ACPKIT-RPC-005's judgement of the answer to a line that is not JSON (undefined: none came). */
function parseErrorVerdict(answer: RecordedLine | undefined): ["pass" | "fail", string] {
  if (!answer) return ["fail", 'a line that is not JSON got no answer (JSON-RPC requires a -32700 error with "id": null)'];
  const value = answer.value as Json;
  const code = (value.error as Json).code;
  const problems: string[] = [];
  if (code !== -32700) problems.push(`its code is ${JSON.stringify(code)}, not -32700`);
  if (!("id" in value)) problems.push('it has no "id" member (JSON-RPC requires "id": null when the id could not be read)');
  if (problems.length === 0) return ["pass", "-32700 with id null"];
  return ["fail", `a line that is not JSON was answered, but ${problems.join(" and ")}: ${answer.text.slice(0, 200)}`];
}

/** Runs the group; returns what initialize answered (the other groups build on it). */
export async function protocolGroup(
  context: CheckContext,
  all: Results<AgentRequirementId>,
): Promise<{ init: Json; version: ProtocolVersion; initMs: number }> {
  const results = all.for(PROTOCOL_GROUP);
  const { agent, init, initMs } = await start(context);
  try {
    const answered = init.protocolVersion;
    if (!Number.isInteger(answered)) results.set("ACPKIT-INIT-001", "fail", `protocolVersion ${JSON.stringify(answered)} is not an integer`, evidence(agent));
    else
      results.pass(
        "ACPKIT-INIT-001",
        answered === context.protocol ? `answered ${answered}, as offered` : `answered ${answered} to an offer of ${context.protocol}`,
      );
    const version: ProtocolVersion = answered === 2 ? 2 : 1;

    const stringId = "ü-🙂-check";
    const bigId = 9007199254740991;
    const unknown1 = await agent.request(stringId, "acpkit/check-unknown-method", {}, context.timeoutMs);
    const unknown2 = await agent.request(bigId, "acpkit/check-unknown-method", {}, context.timeoutMs);
    if (!unknown1 || !unknown2)
      results.set("ACPKIT-RPC-001", "fail", "a request with a unicode or a large integer id got no answer under that id", evidence(agent));
    else results.pass("ACPKIT-RPC-001", "both ids came back exactly");
    const codes = [unknown1, unknown2].map((answer) => (isObject(answer?.error) ? answer.error.code : undefined));
    if (codes.every((code) => code === -32601)) results.pass("ACPKIT-RPC-004", "-32601 for an unknown method");
    else results.set("ACPKIT-RPC-004", "fail", `an unknown method was answered ${JSON.stringify(codes)}, not -32601`, evidence(agent));

    let from = agent.lines.length;
    if (agent.movesMessages) results.set("ACPKIT-RPC-005", "not_applicable", `${agent.messageChannel} cannot carry a line that is not JSON`);
    else {
      agent.writeLine('{"jsonrpc":"2.0","id":"parse-1","method":');
      // Any error response that is not under one of our ids answers the broken line; judge what came
      // (an answer without an id member is a wrong answer, not a missing one).
      const parse = await agent.waitFor(
        (value) => (value.id === null || !("id" in value)) && !("method" in value) && isObject(value.error),
        context.timeoutMs,
        from,
      );
      const [status, message] = parseErrorVerdict(parse);
      results.set("ACPKIT-RPC-005", status, message, evidence(agent));
    }

    from = agent.lines.length;
    agent.send({ jsonrpc: "2.0", id: "invalid-1", method: 5 });
    const invalid = await agent.waitFor((value) => (value.id === "invalid-1" || value.id === null) && isObject(value.error), context.timeoutMs, from);
    if (invalid && ((invalid.value as Json).error as Json).code === -32600) results.pass("ACPKIT-RPC-006", "-32600 for a method that is not a string");
    else results.set("ACPKIT-RPC-006", "fail", invalid ? `answered ${invalid.text.slice(0, 200)}` : "an invalid request got no -32600 answer", evidence(agent));

    // Notifications, then a request to sync on: nothing may answer the notifications.
    from = agent.lines.length;
    agent.send({ jsonrpc: "2.0", method: "_acpkit/check-notification", params: {} });
    agent.send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "acpkit-check-no-such-session" } });
    const sync = await agent.request("sync-1", "acpkit/check-unknown-method", {}, context.timeoutMs);
    const stray = agent.lines.slice(from).find((line) => isObject(line.value) && !("method" in line.value) && line.value.id !== "sync-1");
    if (stray) results.set("ACPKIT-RPC-003", "fail", `a notification was answered: ${stray.text.slice(0, 200)}`, evidence(agent));
    else if (sync) results.pass("ACPKIT-RPC-003", "two notifications, no answer");
    if (sync) results.pass("ACPKIT-RPC-007", "requests after the errors are still answered");
    else results.set("ACPKIT-RPC-007", "fail", "after the malformed lines the agent stopped answering", evidence(agent));

    const extension = await agent.request("ext-1", "_acpkit/check-extension", {}, context.timeoutMs);
    if (extension) results.pass("ACPKIT-RPC-008", isObject(extension.error) ? `answered error ${extension.error.code}` : "answered a result");
    else results.set("ACPKIT-RPC-008", "fail", "an extension request got no answer", evidence(agent));

    results.set(
      "ACPKIT-INFO-AGENT",
      "pass",
      `agentInfo ${JSON.stringify(init.agentInfo ?? null)}; capabilities ${JSON.stringify(init.agentCapabilities ?? init.capabilities ?? {})}; authMethods ${JSON.stringify(init.authMethods ?? [])}`,
    );
    const wire = all.for(WIRE_GROUP);
    checkWire(agent, wire);
    if (agent.kind !== "process")
      results.set(
        "ACPKIT-EXIT-001",
        "not_applicable",
        agent.kind === "websocket"
          ? "over WebSocket there is no stdin to close"
          : agent.kind === "http"
            ? "over HTTP there is no stdin to close"
            : "an in-process agent has no stdin to close",
      );
    else {
      const exit = await agent.closeStdin(5000);
      if (exit) results.pass("ACPKIT-EXIT-001", `exited (code ${exit.code}, signal ${exit.signal}) after stdin closed`);
      else results.set("ACPKIT-EXIT-001", "fail", "still running 5 s after its stdin closed", evidence(agent));
      // What it wrote last before exiting: judged only now that its output has ended.
      checkOutputEnd(agent, wire);
    }
    return { init, version, initMs };
  } finally {
    await agent.kill();
  }
}

/** Adds to ACPKIT-INFO-AGENT that the agent's first answer took longer than one answer may. */
export function noteSlowStart(all: Results<AgentRequirementId>, context: CheckContext, initMs: number): void {
  const results = all.for(PROTOCOL_GROUP);
  results.set(
    "ACPKIT-INFO-AGENT",
    "pass",
    `${results.message("ACPKIT-INFO-AGENT")}; slow to start: its first initialize took ${Math.round(initMs)} ms, more than --timeout ${context.timeoutMs} ms (the first answer may take --start-timeout ${context.startTimeoutMs} ms)`,
  );
}
