// Importing a transcript: its messages go into the wire view exactly as recorded, and the turn view
// is rebuilt from them with the client's own reducer (the SessionState a live client would have
// built), without an agent. v1 updates go through the same v1 → model conversion the client uses;
// a transcript of the later v2 draft goes through the client's later-v2 codec, as a live client's
// messages do (its turns end with the idle state update, not the prompt's answer).
import {
  applySessionSetup,
  applyUpdate,
  beginTurn,
  createSessionState,
  markTurnCancelled,
  recordPermission,
  recordModeChange,
  recordPermissionOutcome,
  recordTurnEnd,
  type SessionState,
} from "@acpkit/client";
import { dialectOfInitializeResult, isLaterV2InitializeParams } from "@acpkit/core";
import { ClientSideV1Bridge, toolCallPatchFromV1 } from "@acpkit/core/bridge";
import { LaterV2ClientCodec } from "@acpkit/core/later-v2";
import { isJsonObject as isObject, parseTranscriptLine, type ProtocolVersion, type v1, type v2 } from "@acpkit/schema";
import { TimelineOrder } from "./timeline-order.js";
import type { WireLog } from "./wire-log.js";

/** A session rebuilt from a transcript. */
export interface ReplayedSession {
  sessionId: string;
  state: SessionState;
  /** The order its timeline items appeared in the record. */
  order: TimelineOrder;
}

/** What an import produced. */
export interface ReplayResult {
  sessions: ReplayedSession[];
  protocolVersion: ProtocolVersion;
  /** The transcript speaks the later v2 draft (its initialize carries `info`). */
  later: boolean;
  /** Lines that were neither a message nor blank. */
  unreadable: number;
}

type Json = Record<string, unknown>;

interface Pending {
  method: string;
  params: Json;
}

/** Requests remembered while waiting for their answers. */
const MAX_OPEN_REQUESTS = 10_000;

/** Longest transcript the page imports (bytes of text): beyond it the browser tab would struggle. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/**
 * Rebuilds sessions from messages as they come: fed a whole imported transcript, or the tap's
 * traffic live. It plays the client's part from the record, never sends anything.
 */
export class SessionReplayer {
  protocolVersion: ProtocolVersion = 1;
  readonly #sessions = new Map<string, { state: SessionState; bridge: ClientSideV1Bridge | undefined; order: TimelineOrder }>();
  readonly #pending = new Map<string, Pending>();

  /** The sessions seen so far, in order of first appearance. */
  sessions(): ReplayedSession[] {
    return [...this.#sessions].map(([sessionId, entry]) => ({ sessionId, state: entry.state, order: entry.order }));
  }

  /** The later v2 draft's codec, while the record shows that draft (an `initialize` with `info`). */
  #later: LaterV2ClientCodec | undefined;

  /** Whether the record speaks the later v2 draft. */
  get later(): boolean {
    return this.#later !== undefined;
  }

  /** Feed one parsed line (a message or a batch) sent in `direction`. */
  add(value: unknown, direction: "client_to_agent" | "agent_to_client"): void {
    for (const message of Array.isArray(value) ? value : [value]) if (isObject(message)) this.#take(message, direction);
    for (const entry of this.#sessions.values()) entry.order.stamp(entry.state);
  }

  /**
   * One message of the record, through the later draft's codec when the record speaks it: the
   * client's messages go to it as a live client's would (so it knows the open prompts), the
   * agent's come out of it as the model messages a live client's runtime would get.
   */
  #take(message: Json, direction: "client_to_agent" | "agent_to_client"): void {
    this.#followDialect(message);
    const codec = this.#later;
    if (codec === undefined) return this.#apply(message, direction);
    if (direction === "client_to_agent") {
      codec.toPeer(message);
      return this.#apply(message, direction);
    }
    for (const delivered of codec.fromPeer(message).deliver) this.#apply(delivered, direction);
  }

  /** The dialect, from the initialize exchange: `info` in the request starts the later draft's codec, the answer settles it. */
  #followDialect(message: Json): void {
    if (message.method === "initialize" && message.params !== undefined && isLaterV2InitializeParams(message.params)) {
      this.#later ??= new LaterV2ClientCodec();
      return;
    }
    if (this.#later === undefined || "method" in message || !isObject(message.result)) return;
    const dialect = dialectOfInitializeResult(message.result);
    if (dialect !== undefined && dialect !== "v2-later") this.#later = undefined;
  }

  #session(sessionId: string) {
    let entry = this.#sessions.get(sessionId);
    if (entry === undefined) {
      const version = this.protocolVersion;
      entry = {
        state: createSessionState(sessionId, version),
        bridge: version === 1 ? new ClientSideV1Bridge({ sessionId }) : undefined,
        order: new TimelineOrder(),
      };
      this.#sessions.set(sessionId, entry);
    }
    return entry;
  }

  #apply(message: Json, direction: "client_to_agent" | "agent_to_client"): void {
    const pending = this.#pending;
    const session = (sessionId: string) => this.#session(sessionId);
    const params = isObject(message.params) ? message.params : {};
    if (typeof message.method === "string") {
      const key = `${direction}:${String(message.id)}`;
      if ("id" in message) {
        pending.set(key, { method: message.method, params });
        // A peer that never answers must not grow this without end (tap mode runs for hours).
        if (pending.size > MAX_OPEN_REQUESTS) pending.delete(pending.keys().next().value!);
      }
      if (message.method === "initialize" && (params.protocolVersion === 1 || params.protocolVersion === 2)) this.protocolVersion = params.protocolVersion;
      if (typeof params.sessionId !== "string") return;
      const target = session(params.sessionId);
      switch (message.method) {
        case "session/update":
          if (isObject(params.update)) {
            const updates = target.bridge ? target.bridge.fromV1(params.update as unknown as v1.SessionUpdate) : [params.update as unknown as v2.SessionUpdate];
            for (const update of updates) target.state = applyUpdate(target.state, update);
          }
          break;
        case "session/prompt":
          target.bridge?.promptStarted();
          target.state = beginTurn(target.state, Array.isArray(params.prompt) ? (params.prompt as v2.ContentBlock[]) : []);
          break;
        case "session/cancel":
          target.state = markTurnCancelled(target.state);
          break;
        case "session/load":
          target.bridge?.loadStarted();
          break;
        case "session/request_permission":
          if (isObject(params.toolCall) && Array.isArray(params.options)) {
            const toolCall = (target.bridge ? toolCallPatchFromV1(params.toolCall as { toolCallId: string }) : params.toolCall) as unknown as v2.ToolCallUpdate;
            target.state = recordPermission(target.state, { toolCall, options: params.options as v2.PermissionOption[] });
          }
          break;
      }
      return;
    }
    const askedBy = direction === "client_to_agent" ? "agent_to_client" : "client_to_agent";
    const key = `${askedBy}:${String(message.id)}`;
    const request = pending.get(key);
    pending.delete(key);
    if (request === undefined || !isObject(message.result)) return;
    const result = message.result;
    if (request.method === "initialize" && (result.protocolVersion === 1 || result.protocolVersion === 2)) this.protocolVersion = result.protocolVersion;
    const sessionId =
      typeof result.sessionId === "string" ? result.sessionId : typeof request.params.sessionId === "string" ? request.params.sessionId : undefined;
    if (sessionId === undefined) return;
    switch (request.method) {
      case "session/new":
      case "session/load":
      case "session/resume": {
        const target = session(sessionId);
        target.state = applySessionSetup(target.state, result as never);
        break;
      }
      case "session/prompt": {
        const target = session(sessionId);
        target.bridge?.promptEnded();
        if (typeof result.stopReason === "string") target.state = recordTurnEnd(target.state, result.stopReason as v2.StopReason);
        break;
      }
      case "session/set_mode":
        if (typeof request.params.modeId === "string") session(sessionId).state = recordModeChange(session(sessionId).state, request.params.modeId);
        break;
      case "session/set_config_option":
        if (Array.isArray(result.configOptions)) session(sessionId).state = applySessionSetup(session(sessionId).state, result as never);
        break;
      case "session/request_permission": {
        const target = session(sessionId);
        const toolCall = request.params.toolCall;
        if (isObject(toolCall) && typeof toolCall.toolCallId === "string" && isObject(result.outcome))
          target.state = recordPermissionOutcome(target.state, toolCall.toolCallId, result.outcome as unknown as v2.RequestPermissionOutcome);
        break;
      }
    }
  }
}

/** Import a transcript: its messages into `wire` (cleared first) and its sessions rebuilt. */
export function replayTranscript(text: string, wire: WireLog): ReplayResult {
  wire.clear();
  const replayer = new SessionReplayer();
  let unreadable = 0;
  for (const raw of text.split("\n")) {
    const { sender, json } = parseTranscriptLine(raw);
    if (json === "") continue;
    const direction = sender ?? "client_to_agent";
    wire.message(direction, json, json.length);
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      unreadable++;
      continue;
    }
    replayer.add(value, direction);
  }
  return { sessions: replayer.sessions(), protocolVersion: replayer.protocolVersion, later: replayer.later, unreadable };
}

/** The wire view's note after an import: what was read, and in which version and dialect. */
export function importNote(result: ReplayResult, messages: number): string {
  const draft = result.later ? " (the later v2 draft)" : "";
  return `imported ${messages} messages, ${result.sessions.length} session(s), protocol v${result.protocolVersion}${draft}`;
}
