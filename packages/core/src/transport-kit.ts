// Small pieces every transport needs, kept in one place so stdio, WebSocket and the in-memory pair
// behave the same way (and so a third-party transport can reuse them).

/**
 * What transport implementations share: one JSON encoder for every transport, a cheap UTF-8 size check, a deferred for drain waits, a request-target parser that never throws (for HTTP-based servers), and the high-water mark of unread output past which a transport stops reading, and the promise a send that was taken at once returns.
 *
 * @module
 */
// Re-exported from the main entry, which carries them (transport-helpers.ts): each entry is
// bundled on its own, and importing from the entry that owns the code keeps one copy of it, so
// `instanceof AcpError` holds whichever entry a transport imports (scripts/bundle-package.mjs).
export {
  AcpError,
  createDeferred,
  deliverMessage,
  encodeMessage,
  oversizedRequestId,
  OUTPUT_HIGH_WATER,
  parseRequestTarget,
  RequestIdScanner,
  SEND_ACCEPTED,
  utf8SizeOver,
  type Deferred,
} from "./index.js";
