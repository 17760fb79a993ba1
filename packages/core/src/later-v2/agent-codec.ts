// The agent side of a later-v2 connection (docs/protocol.md §12): the agent's runtime speaks the
// model (pinned-v2 messages); this codec maps each message the client sends into the model and
// each message the runtime sends out of it. It keeps what the mapping needs across messages: which
// method each open request was, and each prompt's turn.
//
// The prompt turn is where the two differ most. The runtime answers `session/prompt` when the turn
// has ended ({stopReason}); the later draft answers at once with an insertion receipt
// ({messageId}) and ends the turn with a `state_update` `idle`. So the codec holds the prompt's
// request id and answers it with the receipt when the turn shows it was accepted: at the runtime's
// first message for that session (an update or a permission request), or at the runtime's answer.
// An answer that is an error and comes before any receipt was a rejection (unknown session, bad
// content, busy) and goes out as the error it is; after a receipt it ends the turn as `idle` with
// the stop reason `error`. Invariant: each prompt gets exactly one response, and every accepted
// prompt exactly one `running` and one `idle`, in that order, after its receipt.
import type { RequestId } from "../jsonrpc.js";
import { errorResponse, sessionUpdate, successResponse } from "./messages.js";
import { AGENT_TERMINAL_UPDATE, ErrorCode, isJsonObject, isWellFormedMessage as isWellFormed, STATE_UPDATE } from "../index.js";
import { initializeParamsFromLater, initializeResultToLater, sessionParamsFromLater, sessionResultToLater, setConfigOptionFromLater } from "./handshake.js";
import type { Inbound } from "../dialect-transport.js";
import type { LossyEvent } from "../lossy-code.js";
import { laterLossy, type LaterLossy } from "./lossy.js";
import { permissionOutcomeFromLater, permissionRequestToLater, sessionUpdateToLater } from "./session-updates.js";
import { chooseLaterVersion } from "./negotiation.js";
import { AGENT_METHODS_TO_LATER, CLIENT_METHODS_FROM_LATER, renamed } from "./method-names.js";

type Json = Record<string, unknown>;

export interface LaterV2AgentCodecOptions {
  /** The protocol versions the agent serves. */
  versions: readonly number[];
  onLossy?: (event: LossyEvent) => void;
  /** Message ids for insertion receipts (default: random UUIDs). */
  newMessageId?: () => string;
}

interface PromptTurn {
  id: RequestId;
  sessionId: string;
  prompt: unknown;
  messageId: string | undefined;
}

/** Results the codec maps back (by the later method the client called). */
const SESSION_RESULT_METHODS = new Set(["session/new", "session/resume", "session/set_config_option"]);

export class LaterV2AgentCodec {
  readonly #versions: readonly number[];
  readonly #lossy: LaterLossy;
  readonly #newMessageId: () => string;
  /** Requests the client sent that the runtime has not answered yet: id → later method. */
  readonly #clientRequests = new Map<RequestId, string>();
  /** Requests the runtime sent to the client: id → method. */
  readonly #agentRequests = new Map<RequestId, string>();
  /** Open prompt turns by request id, and the one each session is running. */
  readonly #prompts = new Map<RequestId, PromptTurn>();
  readonly #turnOfSession = new Map<string, PromptTurn>();
  /** The background snapshot the runtime reported during a session's live turn, for that turn's `idle` (gone with the turn). */
  readonly #background = new Map<string, unknown[]>();
  /** Session ids of the resumes under way, for the state snapshot the draft wants before their answer. */
  readonly #resumedSession = new Map<RequestId, string>();
  /**
   * The title each open tool call was last given, by session and id: a permission request names
   * only the tool call's id when the call was announced before, and the later draft's request
   * needs a title of its own. Entries go when the call reaches a final status (bounded by the
   * agent's own open tool calls; the client cannot add any).
   */
  readonly #toolTitles = new Map<string, string>();
  /**
   * The tool calls (`t`) and agent terminals (`x`) that advertise `capabilities.cancel` now, by
   * session and id, from what the runtime sent: a cancel for anything else is refused here.
   * Entries go when the work ends (final status, exit status) or stops advertising it.
   */
  readonly #cancellable = new Set<string>();
  #canLoad = false;

  constructor(options: LaterV2AgentCodecOptions) {
    this.#versions = options.versions;
    this.#lossy = laterLossy(options.onLossy);
    this.#newMessageId = options.newMessageId ?? (() => globalThis.crypto.randomUUID());
  }

  /** One message from the client. */
  fromPeer(message: Json): Inbound {
    // Only well-formed messages are mapped; anything else goes to the runtime as it came, which
    // answers it as JSON-RPC says (the codec never answers or fixes up a malformed message).
    if (!isWellFormed(message)) return { deliver: [message], replies: [] };
    const method = message.method;
    if (typeof method !== "string") return this.#responseFromPeer(message);
    if (!("id" in message)) return { deliver: [message], replies: [] };
    const id = message.id;
    if (id === null) {
      return { deliver: [], replies: [errorResponse(null, ErrorCode.InvalidRequest, "Invalid request: the later v2 draft does not allow a null request id")] };
    }
    const requestId = id as RequestId;
    const params = isJsonObject(message.params) ? message.params : {};
    switch (method) {
      case "initialize":
        return this.#initialize(requestId, message, params);
      case "session/resume":
        return this.#resume(requestId, message, params);
      case "tool_call/cancel":
      case "terminal/cancel":
        return this.#cancelWork(requestId, message, method, params);
      default:
        break;
    }
    this.#clientRequests.set(requestId, method);
    let deliver: Json = renamed(message, method, CLIENT_METHODS_FROM_LATER);
    if (method === "session/new") deliver = { ...message, params: sessionParamsFromLater(params) };
    else if (method === "session/set_config_option") deliver = { ...message, params: setConfigOptionFromLater(params) };
    else if (method === "session/prompt" && typeof params.sessionId === "string") {
      const turn: PromptTurn = { id: requestId, sessionId: params.sessionId, prompt: params.prompt, messageId: undefined };
      this.#prompts.set(requestId, turn);
      // A second prompt while one runs is refused by the runtime; it must not take over the running turn.
      if (!this.#turnOfSession.has(turn.sessionId)) this.#turnOfSession.set(turn.sessionId, turn);
    }
    return { deliver: [deliver], replies: [] };
  }

  /**
   * `tool_call/cancel` / `terminal/cancel`: only for work that advertises `capabilities.cancel` now
   * (the draft's -32602 otherwise, A10); then the model's `_acpkit/…` request, which the runtime serves.
   */
  #cancelWork(id: RequestId, message: Json, method: string, params: Json): Inbound {
    const toolCall = method === "tool_call/cancel";
    const workId = toolCall ? params.toolCallId : params.terminalId;
    if (!this.#cancellable.has(`${String(params.sessionId)}\u0000${toolCall ? "t" : "x"}\u0000${String(workId)}`)) {
      const what = toolCall ? `tool call ${JSON.stringify(workId)}` : `terminal ${JSON.stringify(workId)}`;
      return {
        deliver: [],
        replies: [
          errorResponse(id, ErrorCode.InvalidParams, `Invalid params: ${what} is not cancellable (unknown, finished, or no capabilities.cancel)`, {
            path: toolCall ? "/toolCallId" : "/terminalId",
          }),
        ],
      };
    }
    this.#clientRequests.set(id, method);
    return { deliver: [renamed(message, method, CLIENT_METHODS_FROM_LATER)], replies: [] };
  }

  #initialize(id: RequestId, message: Json, params: Json): Inbound {
    const chosen = chooseLaterVersion(params.protocolVersion, this.#versions);
    if (!chosen.ok) return { deliver: [], replies: [errorResponse(id, chosen.code, chosen.message, chosen.data)] };
    this.#clientRequests.set(id, "initialize");
    return { deliver: [{ ...message, params: initializeParamsFromLater(params, chosen.version) }], replies: [] };
  }

  /** `session/resume`: with `replayFrom: {type: "start"}` it is the model's `session/load`; another cursor is refused (the draft forbids resuming without the replay asked for). */
  #resume(id: RequestId, message: Json, params: Json): Inbound {
    const { replayFrom, ...rest } = params;
    const pinned = sessionParamsFromLater(rest);
    this.#clientRequests.set(id, "session/resume");
    if (typeof params.sessionId === "string") this.#resumedSession.set(id, params.sessionId);
    if (replayFrom === undefined || replayFrom === null) return { deliver: [{ ...message, params: pinned }], replies: [] };
    const cursor = isJsonObject(replayFrom) ? replayFrom.type : undefined;
    let refusal: string | undefined;
    if (cursor !== "start") refusal = `replay cursor ${JSON.stringify(cursor)} is not supported (only {"type":"start"})`;
    else if (!this.#canLoad) refusal = "this agent cannot replay a session's history (replayFrom start)";
    if (refusal !== undefined) {
      this.#clientRequests.delete(id);
      this.#resumedSession.delete(id);
      return { deliver: [], replies: [errorResponse(id, ErrorCode.InvalidParams, `Invalid params: ${refusal}`, { path: "/replayFrom" })] };
    }
    return { deliver: [{ ...message, method: "session/load", params: pinned }], replies: [] };
  }

  #responseFromPeer(message: Json): Inbound {
    const id = message.id as RequestId;
    const method = this.#agentRequests.get(id);
    if (method === undefined) return { deliver: [message], replies: [] };
    this.#agentRequests.delete(id);
    if (method === "session/request_permission" && isJsonObject(message.result)) {
      return { deliver: [{ ...message, result: permissionOutcomeFromLater(message.result, this.#lossy) }], replies: [] };
    }
    return { deliver: [message], replies: [] };
  }

  /** One message the runtime sends, as the messages that go to the client (none, one, or a receipt and state updates around it). */
  toPeer(message: Json): Json[] {
    const method = message.method;
    if (typeof method !== "string") return this.#responseToPeer(message);
    if ("id" in message) {
      this.#agentRequests.set(message.id as RequestId, method);
      const params = isJsonObject(message.params) ? message.params : undefined;
      if (method !== "session/request_permission" || params === undefined) return [renamed(message, method, AGENT_METHODS_TO_LATER)];
      const out = this.#receiptIfDue(params.sessionId);
      const toolCall = isJsonObject(params.toolCall) ? params.toolCall : undefined;
      const known = toolCall === undefined ? undefined : this.#toolTitles.get(`${String(params.sessionId)}\u0000${String(toolCall.toolCallId)}`);
      out.push({ ...message, params: permissionRequestToLater(params, known) });
      return out;
    }
    if (method !== "session/update") return [renamed(message, method, AGENT_METHODS_TO_LATER)];
    const params = message.params as { sessionId: string; update: Json };
    const out = this.#receiptIfDue(params.sessionId);
    const tag = params.update.sessionUpdate;
    // During a turn the model's state report is kept for the turn's `idle` (one `running` and one
    // `idle` per prompt): its background snapshot goes out there.
    if (tag === STATE_UPDATE && this.#turnOfSession.has(params.sessionId)) {
      if (Array.isArray(params.update.background)) this.#background.set(params.sessionId, params.update.background);
      return out;
    }
    if (tag === "tool_call_update") this.#noteToolCall(params.sessionId, params.update);
    else if (tag === AGENT_TERMINAL_UPDATE) this.#noteTerminal(params.sessionId, params.update);
    const update = sessionUpdateToLater(params.update, this.#lossy);
    if (update === params.update) out.push(message);
    else if (update !== undefined) out.push(sessionUpdate(params.sessionId, update));
    return out;
  }

  #noteToolCall(sessionId: string, update: Json): void {
    const key = `${sessionId}\u0000${String(update.toolCallId)}`;
    const final = update.status === "completed" || update.status === "failed" || update.status === "cancelled";
    if (final) this.#toolTitles.delete(key);
    else if (typeof update.title === "string") this.#toolTitles.set(key, update.title);
    this.#noteCancel(`${sessionId}\u0000t\u0000${String(update.toolCallId)}`, update.capabilities, final);
  }

  #noteTerminal(sessionId: string, update: Json): void {
    const ended = update.exitStatus !== undefined && update.exitStatus !== null;
    this.#noteCancel(`${sessionId}\u0000x\u0000${String(update.terminalId)}`, update.capabilities, ended);
  }

  #noteCancel(key: string, capabilities: unknown, ended: boolean): void {
    if (ended || capabilities === null || (isJsonObject(capabilities) && capabilities.cancel == null)) this.#cancellable.delete(key);
    else if (isJsonObject(capabilities) && isJsonObject(capabilities.cancel)) this.#cancellable.add(key);
  }

  /** The receipt and `running` for the session's accepted prompt, once, before the first message of its turn. */
  #receiptIfDue(sessionId: unknown): Json[] {
    const turn = typeof sessionId === "string" ? this.#turnOfSession.get(sessionId) : undefined;
    if (turn === undefined || turn.messageId !== undefined) return [];
    return this.#receipt(turn);
  }

  #receipt(turn: PromptTurn): Json[] {
    const messageId = this.#newMessageId();
    turn.messageId = messageId;
    return [
      successResponse(turn.id, { messageId }),
      // The draft requires the agent to echo the inserted user message during the live session.
      sessionUpdate(turn.sessionId, { sessionUpdate: "user_message", messageId, content: Array.isArray(turn.prompt) ? turn.prompt : [] }),
      sessionUpdate(turn.sessionId, { sessionUpdate: "state_update", state: "running" }),
    ];
  }

  #responseToPeer(message: Json): Json[] {
    const id = message.id as RequestId;
    const method = this.#clientRequests.get(id);
    if (method === undefined) return [message];
    this.#clientRequests.delete(id);
    if (method === "session/prompt") return this.#promptAnswered(id, message);
    if (!isJsonObject(message.result)) {
      this.#resumedSession.delete(id);
      return [message];
    }
    if (method === "initialize") {
      const capabilities = isJsonObject(message.result.capabilities) ? message.result.capabilities : {};
      this.#canLoad = isJsonObject(capabilities.session) && isJsonObject(capabilities.session.load);
      if (message.result.protocolVersion === 1) return [message];
      return [{ ...message, result: initializeResultToLater(message.result, this.#lossy) }];
    }
    if (SESSION_RESULT_METHODS.has(method)) {
      const result = { ...message, result: sessionResultToLater(message.result) };
      // The draft: a resume sends the session's current state after any replay and before its answer.
      if (method !== "session/resume") return [result];
      const sessionId = this.#resumedSession.get(id);
      this.#resumedSession.delete(id);
      return sessionId === undefined ? [result] : [sessionUpdate(sessionId, { sessionUpdate: "state_update", state: "idle" }), result];
    }
    return [message];
  }

  #promptAnswered(id: RequestId, message: Json): Json[] {
    const turn = this.#prompts.get(id);
    this.#prompts.delete(id);
    if (turn === undefined) return [message];
    if (this.#turnOfSession.get(turn.sessionId) === turn) this.#turnOfSession.delete(turn.sessionId);
    const error = isJsonObject(message.error) ? message.error : undefined;
    // Refused before anything of the turn went out: the prompt was never inserted.
    if (error !== undefined && turn.messageId === undefined) return [message];
    const out = turn.messageId === undefined ? this.#receipt(turn) : [];
    const idle: Json = { sessionUpdate: "state_update", state: "idle" };
    const background = this.#background.get(turn.sessionId);
    this.#background.delete(turn.sessionId);
    if (error !== undefined) {
      idle.stopReason = "error";
      idle.error = error;
    } else if (isJsonObject(message.result)) {
      idle.stopReason = message.result.stopReason;
      if (message.result._meta !== undefined) idle._meta = message.result._meta;
    }
    if (background !== undefined) idle.background = background;
    out.push(sessionUpdate(turn.sessionId, idle));
    return out;
  }
}
