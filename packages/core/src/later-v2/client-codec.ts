// The client side of a later-v2 connection (docs/protocol.md §12): the client's runtime speaks
// the model (pinned-v2 messages); this codec maps what it sends into the later draft and what the
// agent sends into the model.
//
// The prompt turn: the model's `session/prompt` resolves when the turn ends, with its stop reason.
// The later agent answers with an insertion receipt ({messageId}, or {} from drafts before
// alpha.5) and ends the turn with `state_update` `idle`. So the receipt is kept from the runtime,
// and the idle that ends the turn is turned into the prompt's answer: `{stopReason}`, or for the
// stop reason `error` the JSON-RPC error it carries. The idle that ends the turn is the first one
// after the receipt, or after a `running`/`requires_action` seen since the prompt was sent (an
// idle that comes earlier is a snapshot of the state before the prompt). An idle that ends the
// turn before its receipt arrived is held until the receipt. Every state update also reaches the
// model as `_acpkit/state_update`, so the application sees running/requires_action and background
// work. Invariant: each prompt the runtime sent gets exactly one answer.
import type { RequestId } from "../jsonrpc.js";
import { errorResponse, successResponse } from "./messages.js";
import { ErrorCode, isJsonObject, isWellFormedMessage as isWellFormed } from "../index.js";
import { AGENT_METHODS_FROM_LATER, CLIENT_METHODS_TO_LATER, renamed } from "./method-names.js";
import { sessionResultFromLater, setConfigOptionToLater } from "./handshake.js";
import type { Inbound } from "../dialect-transport.js";
import type { LossyEvent } from "../lossy-code.js";
import { laterLossy, type LaterLossy } from "./lossy.js";
import { permissionRequestFromLater, sessionUpdateFromLater } from "./session-updates.js";

type Json = Record<string, unknown>;

export interface LaterV2ClientCodecOptions {
  onLossy?: (event: LossyEvent) => void;
}

interface PromptTurn {
  id: RequestId;
  sessionId: string;
  receipt: boolean;
  /** A `running` or `requires_action` was seen since the prompt was sent. */
  started: boolean;
  /** The answer an idle made before the receipt came. */
  held: Json | undefined;
}

/** How many boolean config option ids the client codec remembers. */
const MAX_BOOLEAN_OPTIONS = 1024;

const SESSION_RESULT_METHODS = new Set(["session/new", "session/resume", "session/load", "session/set_config_option"]);

export class LaterV2ClientCodec {
  readonly #lossy: LaterLossy;
  /** Requests the runtime sent that the agent has not answered: id → model method. */
  readonly #clientRequests = new Map<RequestId, string>();
  /** Open prompt turns by request id, and the one each session runs. */
  readonly #prompts = new Map<RequestId, PromptTurn>();
  readonly #turnOfSession = new Map<string, PromptTurn>();
  #permissionCount = 0;
  /**
   * The config option ids the agent announced as boolean (from session results and
   * config_option_update), so that the model's "true"/"false" value ids go out as booleans. At most
   * MAX_BOOLEAN_OPTIONS are remembered (an agent decides how many it announces).
   */
  readonly #booleanOptions = new Set<string>();

  constructor(options: LaterV2ClientCodecOptions = {}) {
    this.#lossy = laterLossy(options.onLossy);
  }

  /** One message the runtime sends, as the message that goes to the agent. */
  toPeer(message: Json): Json[] {
    const method = message.method;
    if (typeof method !== "string" || !("id" in message)) return [message];
    const id = message.id as RequestId;
    this.#clientRequests.set(id, method);
    const params = isJsonObject(message.params) ? message.params : {};
    if (Object.hasOwn(CLIENT_METHODS_TO_LATER, method)) return [renamed(message, method, CLIENT_METHODS_TO_LATER)];
    if (method === "session/load") {
      const { mcpServers, ...rest } = params;
      return [
        {
          ...message,
          method: "session/resume",
          params: { ...rest, ...(Array.isArray(mcpServers) && mcpServers.length > 0 ? { mcpServers } : {}), replayFrom: { type: "start" } },
        },
      ];
    }
    if (method === "session/set_config_option")
      return [{ ...message, params: setConfigOptionToLater(params, this.#booleanOptions.has(String(params.configId))) }];
    if (method === "session/prompt" && typeof params.sessionId === "string") {
      const turn: PromptTurn = { id, sessionId: params.sessionId, receipt: false, started: false, held: undefined };
      this.#prompts.set(id, turn);
      this.#turnOfSession.set(turn.sessionId, turn);
    }
    return [message];
  }

  /** One message from the agent, as what the runtime gets (a malformed one as it came: the runtime answers it). */
  fromPeer(message: Json): Inbound {
    if (!isWellFormed(message)) return { deliver: [message], replies: [] };
    const method = message.method;
    if (typeof method !== "string") return this.#responseFromPeer(message);
    const params = isJsonObject(message.params) ? message.params : {};
    if ("id" in message) {
      if (method !== "session/request_permission") return { deliver: [renamed(message, method, AGENT_METHODS_FROM_LATER)], replies: [] };
      const synthetic = `acpkit-permission-${++this.#permissionCount}`;
      return { deliver: [{ ...message, params: permissionRequestFromLater(params, synthetic, this.#lossy) }], replies: [] };
    }
    if (method !== "session/update" || !isJsonObject(params.update) || typeof params.sessionId !== "string")
      return { deliver: [renamed(message, method, AGENT_METHODS_FROM_LATER)], replies: [] };
    if (params.update.sessionUpdate === "config_option_update") this.#noteConfigOptions(params.update.configOptions);
    const update = sessionUpdateFromLater(params.update, this.#lossy);
    const deliver: Json[] = [update === params.update ? message : { ...message, params: { ...params, update } }];
    if (params.update.sessionUpdate === "state_update") {
      const answer = this.#stateChanged(params.sessionId, params.update);
      if (answer !== undefined) deliver.push(answer);
    }
    return { deliver, replies: [] };
  }

  /** The prompt answer a state update makes, if it ends the session's turn. */
  #stateChanged(sessionId: string, update: Json): Json | undefined {
    const turn = this.#turnOfSession.get(sessionId);
    if (turn === undefined) return undefined;
    if (update.state !== "idle") {
      turn.started = true;
      return undefined;
    }
    if (!turn.receipt && !turn.started) return undefined;
    const answer = this.#answerOf(turn, update);
    if (!turn.receipt) {
      turn.held = answer;
      return undefined;
    }
    this.#endTurn(turn);
    return answer;
  }

  #answerOf(turn: PromptTurn, idle: Json): Json {
    const stopReason = idle.stopReason;
    if (stopReason === "error") {
      const error = isJsonObject(idle.error) ? idle.error : undefined;
      const code = typeof error?.code === "number" ? error.code : ErrorCode.InternalError;
      const message = typeof error?.message === "string" ? error.message : "The agent ended the turn with an error";
      return errorResponse(turn.id, code, message, error?.data);
    }
    if (typeof stopReason === "string") {
      const result: Json = { stopReason };
      if (idle._meta !== undefined && idle._meta !== null) result._meta = idle._meta;
      return successResponse(turn.id, result);
    }
    this.#lossy.report("stop_reason", "the agent ended the turn without a stop reason; answered end_turn", idle, turn.sessionId);
    return successResponse(turn.id, { stopReason: "end_turn" });
  }

  #endTurn(turn: PromptTurn): void {
    this.#prompts.delete(turn.id);
    if (this.#turnOfSession.get(turn.sessionId) === turn) this.#turnOfSession.delete(turn.sessionId);
  }

  #responseFromPeer(message: Json): Inbound {
    const id = message.id as RequestId;
    const method = this.#clientRequests.get(id);
    if (method === undefined) return { deliver: [message], replies: [] };
    this.#clientRequests.delete(id);
    if (method === "session/prompt") {
      const turn = this.#prompts.get(id);
      if (turn === undefined) return { deliver: [message], replies: [] };
      if (!isJsonObject(message.result)) {
        // Refused: the prompt was never inserted, and its error is the answer.
        this.#endTurn(turn);
        return { deliver: [message], replies: [] };
      }
      turn.receipt = true;
      if (turn.held === undefined) return { deliver: [], replies: [] };
      this.#endTurn(turn);
      return { deliver: [turn.held], replies: [] };
    }
    if (SESSION_RESULT_METHODS.has(method) && isJsonObject(message.result)) {
      this.#noteConfigOptions(message.result.configOptions);
      return { deliver: [{ ...message, result: sessionResultFromLater(message.result) }], replies: [] };
    }
    return { deliver: [message], replies: [] };
  }

  #noteConfigOptions(options: unknown): void {
    if (!Array.isArray(options)) return;
    for (const option of options) {
      if (!isJsonObject(option) || typeof option.configId !== "string") continue;
      if (option.type !== "boolean") this.#booleanOptions.delete(option.configId);
      else if (this.#booleanOptions.size < MAX_BOOLEAN_OPTIONS) this.#booleanOptions.add(option.configId);
    }
  }
}
