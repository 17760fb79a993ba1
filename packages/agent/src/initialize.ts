// `initialize` for a dual-version agent (docs/protocol.md §1.2): choose the version from
// `protocolVersion` alone, then read the rest of the params with that version's shape, and
// answer with that version's capability layout (§1.3).
import { isJsonObject } from "@acpkit/core";
import type { ProtocolVersion, v1, v2 } from "@acpkit/schema";
import type { AgentAuthMethod, AgentDefinition, AgentFeatures, ClientInfo } from "./types.js";

type Json = Record<string, unknown>;

/**
 * What the client offered, read with the negotiated version's shape. v2 has no client fs; v1
 * fields on a v2 connection (and v2 fields on v1) are ignored, never rejected (§1.2 step 4).
 */
export function readClientInfo(version: ProtocolVersion, received: unknown): ClientInfo {
  // Read defensively: initialize params are only validated after the version is chosen.
  const params: Json = isJsonObject(received) ? received : {};
  const info = isJsonObject(params.clientInfo) ? (params.clientInfo as unknown as ClientInfo["info"]) : null;
  let canReadTextFile = false;
  let canWriteTextFile = false;
  if (version === 1 && isJsonObject(params.clientCapabilities) && isJsonObject(params.clientCapabilities.fs)) {
    canReadTextFile = params.clientCapabilities.fs.readTextFile === true;
    canWriteTextFile = params.clientCapabilities.fs.writeTextFile === true;
  }
  return { protocolVersion: version, info, canReadTextFile, canWriteTextFile };
}

function v1Capabilities(features: AgentFeatures, canLoad: boolean): v1.AgentCapabilities {
  return {
    loadSession: canLoad,
    promptCapabilities: {
      image: features.prompt?.image === true,
      audio: features.prompt?.audio === true,
      embeddedContext: features.prompt?.embeddedContext === true,
    },
    mcpCapabilities: { http: features.mcp?.http === true, sse: features.mcp?.sse === true },
  };
}

/** v2 capabilities are presence markers: `{}` = supported, omitted = not (§1.3). */
function v2Capabilities(features: AgentFeatures, canLoad: boolean): v2.AgentCapabilities {
  const prompt: v2.PromptCapabilities = {};
  if (features.prompt?.image) prompt.image = {};
  if (features.prompt?.audio) prompt.audio = {};
  if (features.prompt?.embeddedContext) prompt.embeddedContext = {};
  const mcp: v2.McpCapabilities = { stdio: {} };
  if (features.mcp?.http) mcp.http = {};
  const session: v2.SessionCapabilities = { prompt, mcp };
  if (canLoad) session.load = {};
  return { session, auth: {} };
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
  if (version === 1) return { protocolVersion: 1, agentCapabilities: v1Capabilities(features, canLoad), authMethods: v1AuthMethods(authMethods), ...info };
  return { protocolVersion: 2, capabilities: v2Capabilities(features, canLoad), authMethods: v2AuthMethods(authMethods), ...info };
}
