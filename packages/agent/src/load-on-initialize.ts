// Loads a protocol version's validators (and, for v1, the v1 bridge) when a client's `initialize`
// asks for it, and holds the incoming messages (in order) until they are loaded.
//
// @acpkit/schema loads each version's validators on demand, and compiling a version's validators
// is a startup cost that grows with the schema. An agent that speaks v1 and v2 serves one of them
// per connection, so it loads only the version `initialize` negotiates. Everything behind that
// `initialize` waits in arrival order until the load finished, so the connection sees exactly the
// sequence it would have seen with everything preloaded. An agent that does not check what it sends
// loads only the part of the version's validators for what an agent receives.
//
// The load has two steps. `initialize` itself needs only the validators, so it is delivered (and
// answered) as soon as they are loaded; the v1 bridge, which only the session methods use, loads
// next, while the client reads that answer, and what came after `initialize` waits for it.
import {
  isJsonObject,
  isProtocolVersionLoaded,
  loadProtocolVersion,
  negotiateVersion,
  requestedVersionOf,
  type AcpError,
  type Transport,
  type TransportReceiver,
} from "@acpkit/core";
import { composedFlow, forwardingReceiver, wrapTransport } from "@acpkit/core/transport-kit";
import type { ProtocolVersion, ReceivingSide } from "@acpkit/schema/lazy";
import { isV1BridgeLoaded, loadV1Bridge } from "./v1-bridge.js";

type Held = { message: string | object } | { error: AcpError };

/** What must be loaded for a version: `beforeInitialize` before its initialize is delivered, `afterInitialize` before anything later. */
interface VersionLoad {
  beforeInitialize(): Promise<unknown>;
  afterInitialize(): Promise<unknown>;
}

/**
 * `transport`, wrapped so that an incoming `initialize` is delivered only once the validators of the
 * version it negotiates (against `versions`) are loaded, and what follows it once that version's
 * bridge is loaded too. `negotiated()` says when the connection has its version: from then on (and
 * with nothing left to load) messages pass straight through without being looked at. With `side`,
 * only that side's part of the version's validators is loaded (`loadProtocolVersion(version, side)`).
 */
export function loadOnInitialize(transport: Transport, versions: readonly ProtocolVersion[], negotiated: () => boolean, side?: ReceivingSide): Transport {
  // A v1 connection also needs the v1 bridge (v1-bridge.ts).
  const loaded = (version: ProtocolVersion): boolean => isProtocolVersionLoaded(version, side) && (version !== 1 || isV1BridgeLoaded());
  const loadOf = (version: ProtocolVersion): VersionLoad => ({
    beforeInitialize: () => loadProtocolVersion(version, side),
    afterInitialize: () => (version === 1 ? loadV1Bridge() : Promise.resolve()),
  });
  const allLoaded = (): boolean => versions.every(loaded);
  if (allLoaded()) return transport;
  // Two reasons to stop reading compose: the Connection above pauses (its queue backs up) and the
  // load below pauses; input flows only when neither holds it.
  const { flow, hold } = composedFlow(transport);
  return wrapTransport(transport, {
    receiver: (outer) => holdingReceiver(transport, outer, versions, loaded, loadOf, () => negotiated() || allLoaded(), hold),
    ...(flow === undefined ? {} : { flow }),
  });
}

function holdingReceiver(
  transport: Transport,
  receiver: TransportReceiver,
  versions: readonly ProtocolVersion[],
  loaded: (version: ProtocolVersion) => boolean,
  loadOf: (version: ProtocolVersion) => VersionLoad,
  done: () => boolean,
  pauseForLoad: (paused: boolean) => void,
): TransportReceiver {
  let held: Held[] = [];
  let loading = false;
  // The peer's input ended while messages were held: tell the receiver once they are delivered.
  let inputEnded = false;

  const endInput = (): void => {
    if (receiver.onInputEnd !== undefined) receiver.onInputEnd();
    else void transport.close("peer closed the stream");
  };

  const deliver = (item: Held): void => {
    if ("message" in item) receiver.onMessage(item.message);
    else receiver.onTransportError(item.error);
  };

  const take = (item: Held): void => {
    if (loading) {
      held.push(item);
      return;
    }
    const version = "message" in item && !done() ? versionToLoad(item.message, versions, loaded) : undefined;
    if (version === undefined) {
      deliver(item);
      return;
    }
    loading = true;
    // Stop reading while the validators compile; what arrives until then waits in `held`.
    pauseForLoad(true);
    const steps = loadOf(version);
    steps
      .beforeInitialize()
      .then(() => {
        deliver(item);
        return steps.afterInitialize();
      })
      .then(release, (error: unknown) => {
        held = [];
        void transport.close(
          `protocol v${version} support (validators, bridge) could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
  };

  const release = (): void => {
    loading = false;
    const items = held;
    held = [];
    for (const item of items) take(item); // a later initialize may need another load: take() holds again
    if (loading) return;
    pauseForLoad(false);
    if (inputEnded) {
      inputEnded = false;
      endInput();
    }
  };

  // Once the version is known and nothing is held, every message goes straight through: this runs
  // per incoming message for the life of the connection, so that path allocates nothing.
  // Output congestion reaches the Connection as it is (forwardingReceiver passes it on when the
  // Connection has the hook); input end is ours, see below.
  const holding = forwardingReceiver(receiver, {
    onMessage: (message) => {
      if (!loading && done()) receiver.onMessage(message);
      else take({ message });
    },
    onTransportError: (error) => {
      if (!loading) receiver.onTransportError(error);
      else held.push({ error });
    },
  });
  // Always present, so a half-closing transport (stdioServer) waits for the held messages too.
  holding.onInputEnd = () => {
    if (loading) inputEnded = true;
    else endInput();
  };
  return holding;
}

/**
 * The version whose validators `message` needs before it can be answered: the one an `initialize`
 * request negotiates, when it is not loaded yet. Anything else (other methods, batches, text that
 * is not JSON) needs none before initialization and passes at once.
 */
function versionToLoad(
  message: string | object,
  versions: readonly ProtocolVersion[],
  loaded: (version: ProtocolVersion) => boolean,
): ProtocolVersion | undefined {
  let value: unknown = message;
  if (typeof message === "string") {
    if (!message.includes('"initialize"')) return undefined;
    try {
      value = JSON.parse(message);
    } catch {
      return undefined;
    }
  }
  if (!isJsonObject(value) || value.method !== "initialize") return undefined;
  const result = negotiateVersion(requestedVersionOf(value.params), versions);
  if (!result.ok || loaded(result.version)) return undefined;
  return result.version;
}
