// @acpkit/core/transport-kit: small pieces every transport needs, kept in one place so stdio,
// WebSocket and the in-memory pair behave the same way, and so a third-party transport can reuse
// them. The code is carried by the main entry (transport-kit-code.ts); this entry hands out that
// one copy, so `instanceof AcpError` and the shared constants hold whichever entry a transport
// imports (scripts/bundle-package.mjs).

/**
 * What transport implementations share: one JSON encoder for every transport, a cheap UTF-8 size check, a deferred for drain waits, a request-target parser that never throws (for HTTP-based servers), the high-water mark of unread output past which a transport stops reading, the promise a send that was taken at once returns, the id scanner for oversized requests, and the helpers that wrap a transport without losing its optional parts.
 *
 * @module
 */
import { __transportKit as kit } from "./index.js";
import type * as code from "./transport-kit-code.js";

export { AcpError } from "./index.js";

/** Serializes a message for the wire (a streamed text update from its strings); throws AcpError "InvalidMessage" for what JSON cannot carry. */
export const encodeMessage: typeof code.encodeMessage = kit.encodeMessage;
/** Hands one incoming message to the receiver, reporting a receiver that throws as a transport error instead of breaking the transport. */
export const deliverMessage: typeof code.deliverMessage = kit.deliverMessage;
/** Whether a string's UTF-8 encoding is over a byte limit, without encoding it when the answer is clear from its length. */
export const utf8SizeOver: typeof code.utf8SizeOver = kit.utf8SizeOver;
/** A promise with its resolve and reject, for drain waits. */
export const createDeferred: typeof code.createDeferred = kit.createDeferred;
/** The parts of an HTTP request target (path and query), or undefined for one that cannot be read; never throws. */
export const parseRequestTarget: typeof code.parseRequestTarget = kit.parseRequestTarget;
/** How much unread output a transport buffers before it stops reading its peer. */
export const OUTPUT_HIGH_WATER: typeof code.OUTPUT_HIGH_WATER = kit.OUTPUT_HIGH_WATER;
/** The resolved promise a send that was taken at once returns (one object, no allocation per send). */
export const SEND_ACCEPTED: typeof code.SEND_ACCEPTED = kit.SEND_ACCEPTED;
/** The request id of an oversized message, read from its first bytes, so its sender can be answered. */
export const oversizedRequestId: typeof code.oversizedRequestId = kit.oversizedRequestId;
/** Finds the request id of a line that is being discarded for its size, chunk by chunk. */
export const RequestIdScanner: typeof code.RequestIdScanner = kit.RequestIdScanner;
/** A RequestIdScanner instance. */
export type RequestIdScanner = code.RequestIdScanner;
/** A promise with its resolve and reject (createDeferred). */
export type Deferred = code.Deferred;
/** Wraps a transport: sends, the receiver and flow control changed as given, everything else (pause/resume when present) passed through. */
export const wrapTransport: typeof code.wrapTransport = kit.wrapTransport;
/** What wrapTransport changes. */
export type TransportWrapping = code.TransportWrapping;
/** A receiver with its own message and error handling that forwards onInputEnd and onOutputCongestion exactly when the outer receiver has them. */
export const forwardingReceiver: typeof code.forwardingReceiver = kit.forwardingReceiver;
/** Pause and resume that compose a caller's reason to stop reading with a wrapper's own. */
export const composedFlow: typeof code.composedFlow = kit.composedFlow;
