// The steps every group of agent checks starts with: connect, initialize (and authenticate when
// asked), open a session. An authentication demand (-32000) at any step blocks the checks it
// gates: they are not_tested with the reason, never failed and never passed.
import { isJsonObject as isObject } from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";
import type { RawConnection } from "./raw-connection.js";
import { AgentUnavailable, type CheckContext, connectTo, describeAgentTarget } from "./target.js";

export type Json = Record<string, unknown>;

const CLIENT_INFO = { name: "acpkit-check", version: "0.1.0" };

export function initializeParams(version: ProtocolVersion, offered: number = version, later = false): Json {
  if (later) return { protocolVersion: offered, info: CLIENT_INFO, capabilities: {} };
  return version === 1
    ? { protocolVersion: offered, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false }, clientInfo: CLIENT_INFO }
    : { protocolVersion: offered, capabilities: {}, clientInfo: CLIENT_INFO };
}

/** The permission question is the client's baseline duty: the checker answers it "cancelled". */
function clientDuties(agent: RawConnection): void {
  agent.answerRequest = (method) => (method === "session/request_permission" ? { outcome: { outcome: "cancelled" } } : undefined);
}

/** A fresh connection with the client's duties in place (not yet initialized). */
export async function connect(context: CheckContext): Promise<RawConnection> {
  const agent = await connectTo(context);
  clientDuties(agent);
  return agent;
}

/** Connect, initialize (and authenticate with `context.auth`); throws AgentUnavailable when the agent cannot be reached or initialized. */
export async function start(context: CheckContext): Promise<{ agent: RawConnection; init: Json; initMs: number }> {
  const agent = await connect(context);
  const error = await agent.spawnError;
  if (error) {
    const what = describeAgentTarget(context.target);
    throw new AgentUnavailable("url" in context.target ? `could not connect to ${what}: ${error.message}` : `could not start ${what}: ${error.message}`);
  }
  const limit = context.startTimeoutMs;
  const began = performance.now();
  let answer = await agent.request("init-1", "initialize", initializeParams(context.protocol, context.protocol, context.later === true), limit);
  // A v2 offer in the pinned shape that the agent refuses is offered again in the later draft's
  // (an agent built on @agentclientprotocol/sdk 2.4 answers the pinned shape -32602), on the same
  // connection: the later draft keeps a connection open after a failed initialize (A2, A11).
  if (context.protocol === 2 && context.later === undefined && isObject(answer?.error)) {
    answer = await agent.request("init-2", "initialize", initializeParams(2, 2, true), limit);
    if (isObject(answer?.result)) context.later = true;
  }
  if (context.later === undefined) context.later = isObject(answer?.result) && answer.result.protocolVersion === 2 && isObject(answer.result.info);
  const initMs = performance.now() - began;
  if (!answer || !isObject(answer.result)) {
    await agent.kill();
    const why = answer
      ? `answered ${JSON.stringify(answer.error ?? answer)}`
      : agent.goneReason !== undefined
        ? `the connection closed before an answer: ${agent.goneReason}`
        : `no answer within ${limit} ms (an agent that is slow to start may need a longer --start-timeout)`;
    throw new AgentUnavailable(`initialize failed: ${why}${agent.stderr ? `\nagent stderr:\n${agent.stderr.slice(-2000)}` : ""}`);
  }
  if (context.auth !== undefined) await agent.request("auth-1", context.later ? "auth/login" : "authenticate", { methodId: context.auth }, context.timeoutMs);
  return { agent, init: answer.result, initMs };
}

/** Why `session/new` gave no session: `auth` when the agent demanded a login (the checks it gates are then blocked, not failed). */
export class SessionRefused {
  constructor(
    readonly message: string,
    readonly auth: boolean,
  ) {}
}

/** The not_tested reason for checks an authentication demand (-32000) kept from running, at any step. */
export function authBlock(step: string, error: Json, context: CheckContext): string {
  const hint = context.auth === undefined ? "run again with --auth METHOD_ID if the agent lists one" : `--auth ${context.auth} did not satisfy it`;
  return `blocked by authentication: ${step} answered -32000 ${JSON.stringify(String(error.message ?? ""))} (${hint})`;
}

/** Sessions of the agent need `session/new`; an agent that demands authentication blocks them. */
export async function newSession(agent: RawConnection, context: CheckContext, id: string): Promise<Json | SessionRefused> {
  const answer = await agent.request(id, "session/new", { cwd: context.cwd, mcpServers: [] }, context.timeoutMs);
  if (!answer) return new SessionRefused("session/new got no answer", false);
  if (isObject(answer.error)) {
    if (answer.error.code === -32000) return new SessionRefused(authBlock("session/new", answer.error, context), true);
    return new SessionRefused(`session/new failed with ${answer.error.code}: ${String(answer.error.message)}`, false);
  }
  return isObject(answer.result) ? answer.result : new SessionRefused("session/new answered no object", false);
}

/** The last wire lines of a connection, the evidence a failure carries. */
export function evidence(agent: RawConnection): string[] {
  return agent.transcript.slice(-12);
}
