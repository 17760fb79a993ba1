// The later v2 draft's activity reports, applied to a state: `state_update` (foreground state and
// the background snapshot), `terminal_update` (an agent-owned terminal, patch semantics) and
// `terminal_output_chunk` (base64 bytes appended). They reach the model as `_acpkit/…` updates
// (docs/protocol.md A12). Bounded on every path the agent controls: at most
// MAX_STATE_AGENT_TERMINALS terminals and MAX_AGENT_TERMINAL_OUTPUT characters of output each.
import { isJsonObject } from "@acpkit/core";
import { MAX_AGENT_TERMINAL_OUTPUT, MAX_STATE_AGENT_TERMINALS, type SessionState } from "./session-state.js";
import type { ActivityJSON, AgentTerminalJSON, BackgroundWorkJSON } from "./state-json.js";
import { withColdFields, withDiagnostic } from "./state-copy.js";

type Json = Record<string, unknown>;

const NO_ACTIVITY: ActivityJSON = Object.freeze({ background: null, agentTerminals: Object.freeze([]) as unknown as AgentTerminalJSON[] });

/** A `state_update`: the state replaces the last one; `background` too, when reported (omitted or `null`: not reported). */
export function applyStateUpdate(state: SessionState, update: Json): SessionState {
  if (typeof update.state !== "string") return withDiagnostic(state, "invalid_update", "state_update: state must be a string", update);
  const previous = state.data.cold.activity ?? NO_ACTIVITY;
  const background = Array.isArray(update.background) ? (update.background.filter(isJsonObject) as BackgroundWorkJSON[]) : null;
  return withColdFields(state, { activity: Object.freeze({ ...previous, state: update.state, background }) });
}

/** A `terminal_update`: upsert by id; absent fields stay, `null` clears. */
export function applyAgentTerminalUpdate(state: SessionState, update: Json): SessionState {
  if (typeof update.terminalId !== "string") return withDiagnostic(state, "invalid_update", "terminal_update: terminalId must be a string", update);
  return withTerminal(state, update.terminalId, (terminal) => {
    const out: AgentTerminalJSON = { ...terminal };
    patch(out, "command", update.command, "string");
    patch(out, "cwd", update.cwd, "string");
    patch(out, "exitStatus", update.exitStatus, "object");
    patch(out, "capabilities", update.capabilities, "object");
    // `output` is an authoritative snapshot (base64) when given.
    if (typeof update.output === "string") Object.assign(out, bounded(decodeBase64Text(update.output), 0));
    else if (update.output === null) Object.assign(out, { output: "", outputDropped: 0 });
    return out;
  });
}

/** A `terminal_output_chunk`: its bytes appended to the terminal's output. */
export function applyAgentTerminalOutput(state: SessionState, update: Json): SessionState {
  if (typeof update.terminalId !== "string" || typeof update.data !== "string") {
    return withDiagnostic(state, "invalid_update", "terminal_output_chunk: terminalId and data must be strings", update);
  }
  const text = decodeBase64Text(update.data);
  return withTerminal(state, update.terminalId, (terminal) => ({ ...terminal, ...bounded(terminal.output + text, terminal.outputDropped) }));
}

function patch(target: AgentTerminalJSON, field: "command" | "cwd" | "exitStatus" | "capabilities", value: unknown, kind: "string" | "object"): void {
  if (value === undefined) return;
  if (value === null) delete target[field];
  else if (kind === "string" ? typeof value === "string" : isJsonObject(value)) (target as unknown as Json)[field] = value;
}

function bounded(output: string, dropped: number): { output: string; outputDropped: number } {
  if (output.length <= MAX_AGENT_TERMINAL_OUTPUT) return { output, outputDropped: dropped };
  const cut = output.length - MAX_AGENT_TERMINAL_OUTPUT;
  return { output: output.slice(cut), outputDropped: dropped + cut };
}

/** The terminal `terminalId` changed by `change` (created empty when new; the oldest ended terminal goes when over the bound). */
function withTerminal(state: SessionState, terminalId: string, change: (terminal: AgentTerminalJSON) => AgentTerminalJSON): SessionState {
  const previous = state.data.cold.activity ?? NO_ACTIVITY;
  const terminals = previous.agentTerminals;
  const index = terminals.findIndex((terminal) => terminal.terminalId === terminalId);
  const current: AgentTerminalJSON = index >= 0 ? terminals[index]! : { terminalId, output: "", outputDropped: 0 };
  const updated = Object.freeze(change(current));
  let list = index >= 0 ? terminals.map((terminal, i) => (i === index ? updated : terminal)) : [...terminals, updated];
  if (list.length > MAX_STATE_AGENT_TERMINALS) {
    const ended = list.findIndex((terminal) => terminal.exitStatus !== undefined);
    list = list.filter((_, i) => i !== (ended >= 0 ? ended : 0));
  }
  return withColdFields(state, { activity: Object.freeze({ ...previous, agentTerminals: list }) });
}

const utf8 = new TextDecoder();

/** Base64 bytes as text (UTF-8; invalid sequences become U+FFFD, bad base64 nothing). */
function decodeBase64Text(data: string): string {
  let binary: string;
  try {
    binary = atob(data);
  } catch {
    return "";
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return utf8.decode(bytes);
}
