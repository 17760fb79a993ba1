// The code of @acpkit/core/transport-kit: what transport implementations share. The main entry
// carries it (as its hidden `__transportKit` export) so that the kit's own entry, a separate file,
// hands out that one copy (scripts/bundle-package.mjs: code two entries share exists once).
export {
  createDeferred,
  deliverMessage,
  encodeMessage,
  OUTPUT_HIGH_WATER,
  parseRequestTarget,
  SEND_ACCEPTED,
  utf8SizeOver,
  type Deferred,
} from "./transport-helpers.js";
export { oversizedRequestId, RequestIdScanner } from "./request-id-scanner.js";
export { composedFlow, forwardingReceiver, wrapTransport, type TransportWrapping } from "./wrap-transport.js";
