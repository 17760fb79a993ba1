// The client half of version negotiation (docs/protocol.md §1.2): offer the highest version with that
// version's fields only, then read the answer with the answered version's schema.
import { AcpError, isJsonObject, isProtocolVersion, schemaRegistry } from "@acpkit/core";
import type { ProtocolVersion, ValidationResult, v1, v2 } from "@acpkit/schema";
import type { AgentCapabilities, AuthMethod, ConnectOptions, Implementation } from "./types.js";

type Json = Record<string, unknown>;

const DEFAULT_CLIENT_INFO: Implementation = { name: "acpkit-client", version: "0.1.0" };

/**
 * `initialize` params for the offered version; never v1's fields in a v2 offer or the reverse
 * (§3.2). A `later` v2 offer is the later draft's: it names the client `info`, which that draft
 * requires and which tells an acpkit agent to answer in it; it keeps `clientInfo` too, which the
 * later draft ignores (docs/protocol.md A1, A11).
 */
export function initializeParams(offer: ProtocolVersion, options: ConnectOptions, later = false): v1.InitializeRequest | v2.InitializeRequest {
  const clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
  const elicitation: v1.ElicitationCapabilities = {};
  if (typeof options.elicitation?.form === "function") elicitation.form = {};
  if (typeof options.elicitation?.url === "function") elicitation.url = {};
  const elicits = elicitation.form !== undefined || elicitation.url !== undefined;
  if (offer === 2) {
    if (!later) return { protocolVersion: 2, capabilities: {}, clientInfo };
    // The later draft's client capabilities: elicitation, in the same shape as v1's (A14).
    return { protocolVersion: 2, capabilities: elicits ? { elicitation } : {}, clientInfo, info: clientInfo } as v2.InitializeRequest;
  }
  const capabilities: v1.ClientCapabilities = {
    fs: { readTextFile: typeof options.fs?.readTextFile === "function", writeTextFile: typeof options.fs?.writeTextFile === "function" },
    terminal: options.terminal !== undefined,
  };
  if (elicits) capabilities.elicitation = elicitation;
  const features = options.sessionFeatures ?? {};
  const session: v1.ClientSessionCapabilities = {};
  if (features.notices !== false) session.notices = {};
  if (features.compaction !== false) session.compaction = {};
  if (features.booleanConfigOptions !== false) session.configOptions = { boolean: {} };
  if (Object.keys(session).length > 0) capabilities.session = session;
  return { protocolVersion: 1, clientCapabilities: capabilities, clientInfo };
}

export interface AgentDescription {
  protocolVersion: ProtocolVersion;
  agentCapabilities: AgentCapabilities;
  agentInfo: Implementation | null;
  authMethods: AuthMethod[];
}

/** Read the agent's answer; throws AcpError("VersionUnsupported" | "ProtocolViolation"). */
export function readInitializeResult(result: unknown): AgentDescription {
  const answered = isJsonObject(result) ? result.protocolVersion : undefined;
  if (!isProtocolVersion(answered)) {
    throw new AcpError("VersionUnsupported", `The agent answered protocol version ${JSON.stringify(answered)}; this client speaks 1 and 2`, {
      data: { protocolVersion: answered },
    });
  }
  const version = answered;
  const checked: ValidationResult = schemaRegistry.getMethod(version, "initialize")!.validateResult!(result);
  if (!checked.valid) {
    const first = checked.errors[0]!;
    throw new AcpError("ProtocolViolation", `The agent's initialize result is not valid v${version} at ${first.path || "/"}: ${first.message}`, {
      data: checked.errors,
    });
  }
  const body = result as Json;
  return {
    protocolVersion: version,
    agentCapabilities: version === 1 ? readV1Capabilities(body.agentCapabilities) : readV2Capabilities(body.capabilities),
    agentInfo: isJsonObject(body.agentInfo) ? (body.agentInfo as unknown as Implementation) : null,
    authMethods: readAuthMethods(body.authMethods),
  };
}

function readV1Capabilities(raw: unknown): AgentCapabilities {
  const caps = isJsonObject(raw) ? raw : {};
  const prompt = isJsonObject(caps.promptCapabilities) ? caps.promptCapabilities : {};
  const mcp = isJsonObject(caps.mcpCapabilities) ? caps.mcpCapabilities : {};
  return {
    sessions: true,
    loadSession: caps.loadSession === true,
    prompt: { image: prompt.image === true, audio: prompt.audio === true, embeddedContext: prompt.embeddedContext === true },
    // stdio MCP servers are a v1 baseline every agent supports.
    mcp: { stdio: true, http: mcp.http === true, sse: mcp.sse === true },
    session: sessionMethods(caps.sessionCapabilities),
    logout: isJsonObject(caps.auth) && isJsonObject(caps.auth.logout),
    raw: caps,
  };
}

/** The optional session methods: present (non-null) markers in both versions. */
function sessionMethods(raw: unknown): AgentCapabilities["session"] {
  const markers = isJsonObject(raw) ? raw : {};
  return {
    list: isJsonObject(markers.list),
    resume: isJsonObject(markers.resume),
    close: isJsonObject(markers.close),
    delete: isJsonObject(markers.delete),
    additionalDirectories: isJsonObject(markers.additionalDirectories),
  };
}

/** v2 markers: present object = supported; absent or null = not (§1.3). */
function readV2Capabilities(raw: unknown): AgentCapabilities {
  const caps = isJsonObject(raw) ? raw : {};
  const session = isJsonObject(caps.session) ? caps.session : {};
  const prompt = isJsonObject(session.prompt) ? session.prompt : {};
  const mcp = isJsonObject(session.mcp) ? session.mcp : {};
  return {
    sessions: isJsonObject(caps.session),
    loadSession: isJsonObject(session.load),
    prompt: { image: isJsonObject(prompt.image), audio: isJsonObject(prompt.audio), embeddedContext: isJsonObject(prompt.embeddedContext) },
    mcp: { stdio: isJsonObject(mcp.stdio), http: isJsonObject(mcp.http), sse: false },
    session: sessionMethods(caps.session),
    logout: isJsonObject(caps.auth) && isJsonObject(caps.auth.logout),
    raw: caps,
  };
}

/** Auth methods in the model shape: v1's untagged agent methods get `type: "agent"`. */
function readAuthMethods(raw: unknown): AuthMethod[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isJsonObject).map((method) => ({ ...method, type: typeof method.type === "string" ? method.type : "agent" }) as AuthMethod);
}
