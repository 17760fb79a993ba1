// `initialize` for a dual-version agent (docs/protocol.md §1.2): choose the version from
// `protocolVersion` alone, then read the rest of the params with that version's shape, and
// answer with that version's capability layout (§1.3).
import { ErrorCode, isJsonObject, RpcError } from "@acpkit/core";
import type { ProtocolVersion, ValidationError, v1, v2 } from "@acpkit/schema";
import type { AgentAuthMethod, AgentDefinition, AgentFeatures, ClientInfo } from "./types.js";

type Json = Record<string, unknown>;

/**
 * What the client offered, read with the negotiated version's shape. v2 has no client fs; v1
 * fields on a v2 connection (and v2 fields on v1) are ignored, never rejected (§1.2 step 4).
 */
export function readClientInfo(version: ProtocolVersion, received: unknown, later = false): ClientInfo {
  // Read defensively: initialize params are only validated after the version is chosen.
  const params: Json = isJsonObject(received) ? received : {};
  const info = isJsonObject(params.clientInfo) ? (params.clientInfo as unknown as ClientInfo["info"]) : null;
  // Everything the client can serve or show is a v1 client capability; pinned v2 has none (§1.3).
  // The later draft has two of them, under `capabilities` (its codec keeps them there): elicitation
  // and terminal auth (docs/protocol.md A14).
  const laterCaps = later && isJsonObject(params.capabilities) ? params.capabilities : {};
  const caps = version === 1 && isJsonObject(params.clientCapabilities) ? params.clientCapabilities : {};
  const fs = isJsonObject(caps.fs) ? caps.fs : {};
  const elicitation = isJsonObject(caps.elicitation) ? caps.elicitation : isJsonObject(laterCaps.elicitation) ? laterCaps.elicitation : {};
  const auth = isJsonObject(caps.auth) ? caps.auth : isJsonObject(laterCaps.auth) ? laterCaps.auth : {};
  const session = isJsonObject(caps.session) ? caps.session : {};
  const configOptions = isJsonObject(session.configOptions) ? session.configOptions : {};
  return {
    protocolVersion: version,
    dialect: version === 1 ? "v1" : later ? "v2-later" : "v2-pinned",
    info,
    canReadTextFile: fs.readTextFile === true,
    canWriteTextFile: fs.writeTextFile === true,
    canUseTerminal: caps.terminal === true,
    canElicitForm: isJsonObject(elicitation.form),
    canElicitUrl: isJsonObject(elicitation.url),
    canRunTerminalAuth: auth.terminal === true || isJsonObject(auth.terminal),
    supportsNotices: isJsonObject(session.notices),
    supportsCompaction: isJsonObject(session.compaction),
    supportsBooleanConfigOptions: isJsonObject(configOptions.boolean),
  };
}

/** Which optional session methods the agent serves, from the handlers it defines. */
interface SessionMethods {
  list: boolean;
  resume: boolean;
  delete: boolean;
  logout: boolean;
}

function sessionMethodsOf(agent: AgentDefinition): SessionMethods {
  return {
    list: typeof agent.listSessions === "function",
    resume: typeof agent.resumeSession === "function",
    delete: typeof agent.deleteSession === "function",
    logout: typeof agent.logout === "function",
  };
}

function v1Capabilities(features: AgentFeatures, canLoad: boolean, methods: SessionMethods): v1.AgentCapabilities {
  // session/close is always served: the runtime can always cancel a turn and forget a session.
  const sessionCapabilities: v1.SessionCapabilities = { close: {} };
  if (methods.list) sessionCapabilities.list = {};
  if (methods.resume) sessionCapabilities.resume = {};
  if (methods.delete) sessionCapabilities.delete = {};
  const caps: v1.AgentCapabilities = {
    loadSession: canLoad,
    promptCapabilities: {
      image: features.prompt?.image === true,
      audio: features.prompt?.audio === true,
      embeddedContext: features.prompt?.embeddedContext === true,
    },
    mcpCapabilities: { http: features.mcp?.http === true, sse: features.mcp?.sse === true },
    sessionCapabilities,
  };
  if (methods.logout) caps.auth = { logout: {} };
  return caps;
}

/** v2 capabilities are presence markers: `{}` = supported, omitted = not (§1.3). */
function v2Capabilities(features: AgentFeatures, canLoad: boolean, methods: SessionMethods): v2.AgentCapabilities {
  const prompt: v2.PromptCapabilities = {};
  if (features.prompt?.image) prompt.image = {};
  if (features.prompt?.audio) prompt.audio = {};
  if (features.prompt?.embeddedContext) prompt.embeddedContext = {};
  const mcp: v2.McpCapabilities = { stdio: {} };
  if (features.mcp?.http) mcp.http = {};
  const session: v2.SessionCapabilities = { prompt, mcp, close: {} };
  if (canLoad) session.load = {};
  if (methods.list) session.list = {};
  if (methods.resume) session.resume = {};
  if (methods.delete) session.delete = {};
  return { session, auth: methods.logout ? { logout: {} } : {} };
}

function v1AuthMethods(methods: readonly AgentAuthMethod[]): v1.AuthMethod[] {
  return methods.map((method) =>
    method.description != null ? { id: method.id, name: method.name, description: method.description } : { id: method.id, name: method.name },
  );
}

function v2AuthMethods(methods: readonly AgentAuthMethod[]): v2.AuthMethod[] {
  return methods.map((method) => {
    const out: v2.AuthMethod = { type: "agent", id: method.id, name: method.name };
    if (method.description != null) out.description = method.description;
    return out;
  });
}

/** The `initialize` result in `version`'s shape. */
export function initializeResult(version: ProtocolVersion, agent: AgentDefinition): v1.InitializeResponse | v2.InitializeResponse {
  const features = agent.features ?? {};
  const canLoad = features.loadSession === true && typeof agent.loadSession === "function";
  const authMethods = agent.authMethods ?? [];
  const info = agent.info ? { agentInfo: agent.info } : {};
  const methods = sessionMethodsOf(agent);
  if (version === 1)
    return { protocolVersion: 1, agentCapabilities: v1Capabilities(features, canLoad, methods), authMethods: v1AuthMethods(authMethods), ...info };
  return { protocolVersion: 2, capabilities: v2Capabilities(features, canLoad, methods), authMethods: v2AuthMethods(authMethods), ...info };
}

/**
 * -32602 for initialize params that fail the negotiated version's schema, with the same `data`
 * as every other invalid request (`path`, `message`), and for a legacy shape the docs/protocol.md §9
 * pair `{legacyShape, expected}` (e.g. the later draft's `info` on pinned v2).
 */
export function invalidInitializeParams(errors: readonly ValidationError[]): RpcError {
  const first = errors[0] ?? { path: "", message: "is invalid" };
  const data: Record<string, unknown> = { path: first.path, message: first.message };
  let message = `Invalid initialize params at ${first.path || "/"}: ${first.message}`;
  if (first.legacyShape !== undefined) {
    data.legacyShape = first.legacyShape;
    data.expected = first.expected;
    message = `Invalid params for initialize: expected ${first.expected ?? "the current shape"}, got the legacy shape ${first.legacyShape}`;
  }
  if (errors.length > 1) data.errors = errors;
  return new RpcError(ErrorCode.InvalidParams, message, data);
}
