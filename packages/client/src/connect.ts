// connectAgent: the handshake. Initialize (offer the highest version, accept the answer, fall
// back to v1 once when a v2 offer is refused), load what the negotiated version needs, and hand
// the initialized connection to an ConnectedAgent (agent-connection.ts).
import type { ClientDiagnostic } from "./diagnostics.js";
import {
  AcpError,
  ErrorCode,
  Connection,
  defaultValidateOutgoing,
  describeTransportProblem,
  DiagnosticEmitter,
  dialectAwareRegistry,
  dialectTransport,
  isJsonObject,
  isProtocolVersion,
  isRpcError,
  loadProtocolVersion,
  schemaRegistry,
  type Transport,
} from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";
import { type ConnectedAgent, AgentConnectionImpl } from "./agent-connection.js";
import { type AgentDescription, initializeParams, readInitializeResult } from "./initialize.js";
import type { ConnectOptions } from "./types.js";
import { type BridgeModule, loadV1Bridge } from "./v1-wire.js";
import type * as ClientServices from "./client-services.js";

export { type AgentConnection, type ConnectedAgent, MAX_PARKED_UPDATES } from "./agent-connection.js";

/**
 * Connect to an agent over `transport`: sends `initialize` offering `options.protocolVersion`
 * (default 1) and resolves once the agent answered with a version this client speaks (1 or 2).
 * Any other answer closes the connection and rejects with AcpError "VersionUnsupported".
 */
export async function connectAgent(transport: Transport, options: ConnectOptions = {}): Promise<ConnectedAgent> {
  const transportProblem = describeTransportProblem(transport);
  if (transportProblem !== undefined) throw new TypeError(`connectAgent: ${transportProblem}`);
  const offer = options.protocolVersion ?? 1;
  if (offer !== 1 && offer !== 2)
    throw new AcpError("VersionUnsupported", `connectAgent: cannot offer protocol version ${JSON.stringify(offer)}; this client speaks 1 and 2`);
  const validateOutgoing = options.validateOutgoing ?? defaultValidateOutgoing();
  // Checking what we send needs all of a version's validators; checking what we receive only the client's part.
  const side = validateOutgoing ? undefined : "client";
  const diagnostics = new DiagnosticEmitter<ClientDiagnostic["code"]>();
  if (options.onDiagnostic) diagnostics.subscribe(options.onDiagnostic);
  // The runtime speaks the model (v1 or pinned-v2 messages); this layer maps a later-v2 agent to it.
  const wire = dialectTransport(transport, {
    side: "client",
    loadLaterV2: () => import("@acpkit/core/later-v2"),
    onLossy: (event) => diagnostics.emit({ code: `lossy_${event.code}`, message: event.detail, sessionId: event.sessionId, detail: event.update }),
  });
  const connection = new Connection(wire, {
    side: "client",
    // The later draft's shapes are right on a later-v2 connection (the codec sends them on).
    registry: dialectAwareRegistry(schemaRegistry, () => wire.dialect === "v2-later"),
    validateOutgoing,
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    ...(options.maxRunningRequests === undefined ? {} : { maxRunningRequests: options.maxRunningRequests }),
  });
  connection.onDiagnostic((diagnostic) => diagnostics.emit(diagnostic));
  let description: AgentDescription;
  let offered: ProtocolVersion = offer;
  const requestOptions = options.signal ? { signal: options.signal } : undefined;
  // The validators of the version we offer load while initialize is on its way (only the
  // negotiated version's are ever needed; see @acpkit/schema/lazy).
  void loadProtocolVersion(offer, side).catch(() => {});
  // Likewise the v1 bridge, which a v2 connection never needs (so a v2 client never loads it).
  if (offer === 1) void loadV1Bridge().catch(() => {});
  let bridge: BridgeModule | undefined;
  // The handlers of fs, terminals and elicitation are a chunk of their own, loaded only by an
  // application that gives some; it loads during initialize and is in place before the first
  // request the agent can send them (those need a session, and sessions start after connectAgent).
  const services = hasClientServices(options) ? import("./client-services.js") : undefined;
  void services?.catch(() => {});
  let servicesModule: typeof ClientServices | undefined;
  try {
    let result: unknown;
    let attempt: Offer = { version: offer, later: offer === 2 && options.v2Dialect === "later" };
    // At most one retry of each kind (version, dialect, v1) follows the first offer, whatever a
    // hostile agent answers: the loop ends after MAX_INITIALIZE_OFFERS.
    for (let offers = 1; ; offers++) {
      try {
        const answer = connection.request("initialize", initializeParams(attempt.version, options, attempt.later), requestOptions);
        // With initialize on its way, use the wait for the agent's answer to compile the first exchange.
        // Its own chunk: most applications never warm up, and need none of its code.
        if (options.warmUp === true && attempt.version === offer)
          void import("./warm-up.js").then((module) => module.warmUpOnce(offer, validateOutgoing, connectAgent)).catch(() => {});
        result = await answer;
        break;
      } catch (error) {
        // A failed initialize leaves the connection open (the later draft says so, and acpkit's
        // gate and the SDK's router agree), so the next offer goes on the same connection.
        const next = offers < MAX_INITIALIZE_OFFERS ? nextOffer(error, attempt, options, diagnostics) : undefined;
        if (next === undefined) throw error;
        attempt = next;
        offered = next.version;
        if (offered === 1) void loadV1Bridge().catch(() => {});
      }
    }
    const answered = isJsonObject(result) ? result.protocolVersion : undefined;
    if (isProtocolVersion(answered)) {
      const [, loadedBridge] = await Promise.all([loadProtocolVersion(answered, side), answered === 1 ? loadV1Bridge() : undefined]);
      bridge = loadedBridge;
    }
    description = readInitializeResult(result);
    connection.setVersion(description.protocolVersion);
    servicesModule = await services;
  } catch (error) {
    await connection.close(error instanceof Error ? error.message : "initialize failed");
    throw error;
  }
  return new AgentConnectionImpl(connection, description, offered, options, diagnostics, bridge, wire.dialect, servicesModule);
}

/** Whether the application serves the agent anything besides permissions (files, terminals, elicitation). */
function hasClientServices(options: ConnectOptions): boolean {
  return options.fs !== undefined || options.terminal !== undefined || options.elicitation !== undefined;
}

/** The first offer and one retry of each kind. */
const MAX_INITIALIZE_OFFERS = 4;

/** One `initialize` offer: the version, and for v2 whether it is the later draft's shape. */
interface Offer {
  version: ProtocolVersion;
  later: boolean;
}

/**
 * What to offer after `attempt` was refused with `error`, or undefined to give up. In order:
 * a -32022 names the versions the agent has (the later draft's rule); a pinned v2 offer refused
 * with another JSON-RPC error is offered again in the later draft's shape (SDK 2.4 agents answer
 * the pinned shape -32602); a later v2 offer refused falls back to v1 (`fallbackToV1`).
 */
function nextOffer(error: unknown, attempt: Offer, options: ConnectOptions, diagnostics: DiagnosticEmitter<ClientDiagnostic["code"]>): Offer | undefined {
  if (!isRpcError(error)) return undefined;
  const retry = versionToRetry(error, attempt.version);
  if (retry !== undefined) {
    diagnostics.emit({
      code: "version_retry",
      message: `The agent has no protocol version at or below ${attempt.version} (-32022); retrying with ${retry}`,
      detail: error,
    });
    // Only a later-draft agent answers -32022, so a v2 retry speaks its shape.
    return { version: retry, later: retry === 2 };
  }
  if (attempt.version !== 2) return undefined;
  if (!attempt.later && (options.v2Dialect ?? "auto") === "auto") {
    diagnostics.emit({
      code: "dialect_retry",
      message: `The agent refused the pinned v2 initialize (${error.code}: ${error.message}); retrying with the later v2 draft's`,
      detail: error,
    });
    return { version: 2, later: true };
  }
  if (options.fallbackToV1 === false) return undefined;
  diagnostics.emit({
    code: "v2_fallback",
    message: `The agent refused the v2 initialize (${error.code}: ${error.message}); retrying with protocol v1`,
    detail: error,
  });
  return { version: 1, later: false };
}

/**
 * The version to offer after a -32022 (`data.supported` lists the agent's versions): the highest of
 * them this client speaks, if it is not the one just offered. Undefined for any other error.
 */
function versionToRetry(error: unknown, offered: ProtocolVersion): ProtocolVersion | undefined {
  if (!isRpcError(error) || error.code !== ErrorCode.UnsupportedProtocolVersion) return undefined;
  const supported = isJsonObject(error.data) && Array.isArray(error.data.supported) ? error.data.supported : [];
  const spoken = supported.filter((version): version is ProtocolVersion => isProtocolVersion(version) && version !== offered);
  return spoken.length === 0 ? undefined : (Math.max(...spoken) as ProtocolVersion);
}
