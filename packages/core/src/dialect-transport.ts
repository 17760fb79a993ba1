// dialectTransport: the layer between a transport and a runtime's Connection that lets one runtime
// serve (or reach) every dialect. The runtime always speaks the model: v1 or pinned-v2 messages.
// Until an `initialize` succeeds this layer watches the handshake; when it shows the later v2 draft
// (an `initialize` with `info`, or a result with `info`), it loads `@acpkit/core/later-v2` and from
// then maps every message through that dialect's codec. For v1 and the pinned v2 it steps aside:
// messages pass as they are, with no parsing and no copies.
//
// Invariants: messages keep their order in both directions (incoming ones that arrive while the
// codec loads are held, with the transport paused when it can be, and delivered in order); a
// failed `initialize` leaves the dialect undecided, so the peer may try again with another.
import type { Dialect } from "./dialect.js";
import { dialectOfInitializeResult, isLaterV2InitializeParams, isWellFormedMessage } from "./dialect.js";
import { errorResponse, type RequestId } from "./jsonrpc.js";
import { ErrorCode } from "./errors.js";
import { isJsonObject } from "./json.js";
import type { LossyEvent } from "./lossy-code.js";
import type { JsonRpcMessage, Transport, TransportReceiver } from "./transport.js";
import { composedFlow, forwardingReceiver, wrapTransport } from "./wrap-transport.js";

/** A JSON object as the codecs handle it. */
export type Json = Record<string, unknown>;

/** What a codec made of one message from the peer: the model messages to hand to the runtime, in order, and answers it sends back to the peer itself. */
export interface Inbound {
  deliver: Json[];
  replies: Json[];
}

/** One side of a dialect's codec: maps each message between the wire and the model. */
export interface DialectCodec {
  /** One message from the peer: the model messages for the runtime, and answers to send back at once. */
  fromPeer(message: Json): Inbound;
  /** One message the runtime sends: the messages that go to the peer for it (none, one or more, in order). */
  toPeer(message: Json): Json[];
}

/**
 * The later-v2 codecs, as `@acpkit/core/later-v2` exports them. Core's main entry does not import
 * that entry (it imports the main entry); the runtimes hand `dialectTransport` a loader for it.
 */
export interface LaterV2Codecs {
  LaterV2AgentCodec: new (options: { versions: readonly number[]; onLossy?: (event: LossyEvent) => void }) => DialectCodec;
  LaterV2ClientCodec: new (options: { onLossy?: (event: LossyEvent) => void }) => DialectCodec;
  /** A later-draft `initialize` result in the model's (pinned) shape. */
  initializeResultFromLater(result: Json): Json;
}

/** How `dialectTransport` layers a connection: its side, the agent's versions, and where it reports and loads. */
export interface DialectTransportOptions {
  /** Which end of the connection this is. */
  side: "agent" | "client";
  /** Agent side: the protocol versions the agent serves (for the later draft's version rule). */
  versions?: readonly number[];
  /** Each lossy step of a later-v2 conversion. */
  onLossy?: (event: LossyEvent) => void;
  /** Called once the dialect is known (when `initialize` succeeded). */
  onDialect?: (dialect: Dialect) => void;
  /** Loads the later-v2 codecs when a handshake shows that dialect: `() => import("@acpkit/core/later-v2")`. */
  loadLaterV2: () => Promise<LaterV2Codecs>;
}

/** A transport that also says which dialect its connection settled on. */
export interface DialectTransport extends Transport {
  /** The dialect, once an `initialize` succeeded. */
  readonly dialect: Dialect | undefined;
  /**
   * Agent side, while an `initialize` is being answered: whether it is the later draft's (the
   * runtime reads it from its `initialize` handler, before `dialect` is settled by the answer).
   */
  readonly answeringLaterInitialize: boolean;
}

/**
 * The update tags whose messages the later-v2 client codec passes on unchanged: text chunks and
 * usage, the bulk of a stream; the codec needs none of them for its turn bookkeeping.
 */
const PASS_THROUGH_TAGS: ReadonlySet<string> = new Set(["agent_message_chunk", "agent_thought_chunk", "user_message_chunk", "usage_update"]);

/** How such a line starts when JSON.stringify wrote it (acpkit's agent does), up to the tag's closing quote. */
function passThroughPrefix(sessionId: string, tag: string): string {
  return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(sessionId)},"update":{"sessionUpdate":${JSON.stringify(tag)}`;
}

const BATCHES_REFUSED = "Invalid request: JSON-RPC batches are not supported by the later v2 draft";

/** Parse one incoming frame for inspection; undefined when it is not JSON (the Connection answers that). */
function parsed(message: string | object): unknown {
  if (typeof message !== "string") return message;
  try {
    return JSON.parse(message);
  } catch {
    return undefined;
  }
}

/**
 * `inner` with the dialect layer for `options.side`. Pass the result to the runtime's Connection;
 * read `dialect` once `initialize` succeeded.
 */
export function dialectTransport(inner: Transport, options: DialectTransportOptions): DialectTransport {
  let dialect: Dialect | undefined;
  let codec: DialectCodec | undefined;
  /** The `initialize` in flight: its id, and whether it is the later draft's (agent side) or not known yet (client side). */
  let initializeId: RequestId | undefined;
  let initializeIsLater = false;
  /** Incoming messages held while the codec loads. */
  let held: (string | object)[] | undefined;
  let outer: TransportReceiver;

  /**
   * Client side, later draft: how the last pass-through line the agent wrote began (session, tag).
   * A frame that starts the same way goes to the runtime as the raw text, not parsed here, so the
   * runtime's own fast path for chunk lines applies; the runtime still parses and validates it
   * (a frame that only starts like a chunk is judged there like any other). One compare of a
   * slice: startsWith and substring searches take V8's slow path on the sliced strings a reader
   * hands over.
   */
  let chunkPrefix: string | undefined;
  const decide = (chosen: Dialect): void => {
    dialect = chosen;
    options.onDialect?.(chosen);
  };

  const send = (message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> => {
    if (Array.isArray(message)) return inner.send(message);
    if (options.side === "agent" && dialect === undefined && initializeId !== undefined && message.id === initializeId && !("method" in message)) {
      return sendAgentInitializeAnswer(message);
    }
    if (options.side === "client" && dialect === undefined && message.method === "initialize") initializeId = message.id as RequestId;
    if (codec === undefined) return inner.send(message);
    let out: Json[];
    try {
      out = codec.toPeer(message as Json);
    } catch (error) {
      // The runtime's own message could not be mapped: it is not sent half-converted.
      return Promise.reject(error);
    }
    return sendAll(out);
  };

  const sendAll = (messages: Json[]): Promise<void> => {
    if (messages.length === 1) return inner.send(messages[0] as JsonRpcMessage);
    return Promise.all(messages.map((message) => inner.send(message as JsonRpcMessage))).then(() => undefined);
  };

  /** The agent answers an `initialize`: that answer settles the dialect (or, for an error, leaves it open). */
  const sendAgentInitializeAnswer = (message: JsonRpcMessage): Promise<void> => {
    initializeId = undefined;
    const later = initializeIsLater;
    initializeIsLater = false;
    const ok = isJsonObject(message.result);
    const version = ok ? (message.result as Json).protocolVersion : undefined;
    if (!later) {
      if (ok) decide(version === 1 ? "v1" : "v2-pinned");
      return inner.send(message);
    }
    const sending = sendAll(codec!.toPeer(message as Json));
    if (!ok) codec = undefined;
    else if (version === 1) {
      codec = undefined;
      decide("v1");
    } else decide("v2-later");
    return sending;
  };

  const deliver = (message: string | object): void => {
    if (codec === undefined) {
      if (dialect === undefined) sniff(message);
      else outer.onMessage(message);
      return;
    }
    const value = parsed(message);
    if (Array.isArray(value) && options.side === "agent") {
      void inner.send(errorResponse(null, ErrorCode.InvalidRequest, BATCHES_REFUSED) as JsonRpcMessage).catch(() => {});
      return;
    }
    if (!isJsonObject(value)) {
      outer.onMessage(message);
      return;
    }
    if (dialect === undefined && options.side === "agent" && value.method === "initialize") {
      // Another try at the handshake: it is judged afresh (it may be another dialect).
      codec = undefined;
      sniff(message);
      return;
    }
    throughCodec(value, message);
    if (options.side === "client" && typeof message === "string") learnPassThrough(message, value);
  };

  /** Remember how a pass-through line of this agent starts, when it is JSON.stringify's form. */
  const learnPassThrough = (frame: string, value: Json): void => {
    if (value.method !== "session/update" || "id" in value || !isJsonObject(value.params)) return;
    const { sessionId, update } = value.params;
    if (typeof sessionId !== "string" || !isJsonObject(update) || typeof update.sessionUpdate !== "string" || !PASS_THROUGH_TAGS.has(update.sessionUpdate))
      return;
    const prefix = passThroughPrefix(sessionId, update.sessionUpdate);
    if (frame.slice(0, prefix.length) === prefix) chunkPrefix = prefix;
  };

  /**
   * One parsed incoming message through the codec: its replies go back to the peer, its model
   * messages to the runtime. A malformed message, or one the codec cannot map (it throws: a value
   * nested too deep to copy, say), goes to the runtime as it came, which answers it as JSON-RPC says.
   */
  const throughCodec = (value: Json, raw: string | object = value): void => {
    if (!isWellFormedMessage(value)) {
      outer.onMessage(raw);
      return;
    }
    let inbound: Inbound;
    try {
      inbound = codec!.fromPeer(value);
    } catch {
      outer.onMessage(raw);
      return;
    }
    if (dialect === undefined && value.method === "initialize" && inbound.deliver.length === 0) {
      // The codec refused this initialize itself (-32022): nothing is settled.
      codec = undefined;
      initializeId = undefined;
      initializeIsLater = false;
    }
    for (const reply of inbound.replies) void inner.send(reply as JsonRpcMessage).catch(() => {});
    for (const model of inbound.deliver) outer.onMessage(model);
  };

  /** Before the dialect is known: look at the handshake, pass everything on. */
  const sniff = (message: string | object): void => {
    const value = parsed(message);
    if (!isJsonObject(value)) {
      outer.onMessage(message);
      return;
    }
    if (options.side === "agent" && value.method === "initialize" && "id" in value) {
      initializeId = value.id as RequestId;
      initializeIsLater = isLaterV2InitializeParams(value.params);
      if (initializeIsLater) {
        withCodec(message, () => new later!.LaterV2AgentCodec({ versions: options.versions ?? [1, 2], onLossy: options.onLossy }));
        return;
      }
    }
    if (options.side === "client" && initializeId !== undefined && value.id === initializeId && !("method" in value)) {
      const kind = isJsonObject(value.result) ? dialectOfInitializeResult(value.result) : undefined;
      if (kind === "v2-later") {
        initializeId = undefined;
        withCodec(
          undefined,
          () => new later!.LaterV2ClientCodec({ onLossy: options.onLossy }),
          () => {
            decide("v2-later");
            outer.onMessage({ ...value, result: later!.initializeResultFromLater(value.result as Json) });
          },
        );
        return;
      }
      if (kind !== undefined) {
        initializeId = undefined;
        decide(kind);
      }
    }
    outer.onMessage(message);
  };

  let later: LaterV2Codecs | undefined;
  let pauseForLoad: (paused: boolean) => void = () => {};
  /** Load the codecs (holding input meanwhile), make the codec, then run `first` or deliver `message`, then what was held. */
  const withCodec = (message: string | object | undefined, make: () => DialectCodec, first?: () => void): void => {
    const start = (): void => {
      codec = make();
      first?.();
      // The message that showed the dialect goes straight to the codec (`deliver` would judge it again).
      const value = message === undefined ? undefined : parsed(message);
      if (isJsonObject(value)) throughCodec(value, message!);
    };
    if (later !== undefined) {
      start();
      return;
    }
    held = [];
    pauseForLoad(true);
    void options.loadLaterV2().then(
      (module) => {
        later = module;
        const queue = held!;
        held = undefined;
        start();
        for (const next of queue) deliver(next);
        pauseForLoad(false);
      },
      (error: unknown) => {
        held = undefined;
        void inner.close(`the later v2 codec could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  };

  // Two reasons to stop reading compose: the caller pauses (its queue backs up) and the codec loads.
  const { flow, hold } = composedFlow(inner);
  pauseForLoad = hold;

  const wrapped = wrapTransport(inner, {
    ...(flow === undefined ? {} : { flow }),
    send: (message) => send(message),
    receiver: (receiver) => {
      outer = receiver;
      return forwardingReceiver(receiver, {
        onMessage: (message) => {
          if (held !== undefined) held.push(message);
          // The stream's bulk, first: a client's chunk lines go on as they are.
          else if (chunkPrefix !== undefined && typeof message === "string" && message.slice(0, chunkPrefix.length) === chunkPrefix) outer.onMessage(message);
          else deliver(message);
        },
      });
    },
  });
  Object.defineProperty(wrapped, "answeringLaterInitialize", { get: () => initializeIsLater, enumerable: true });
  return Object.defineProperty(wrapped, "dialect", { get: () => dialect, enumerable: true }) as DialectTransport;
}
