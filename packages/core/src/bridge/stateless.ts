// Message-by-message conversions that need no session state (docs/protocol.md §7.1): initialize,
// capabilities, auth methods, MCP servers, prompts, permission options and stop reasons.
// Each takes `LossyOptions` (or a reporter) and reports what the target version cannot carry.
import type { Meta } from "../model.js";
// Through the main entry, not ../errors.js: one copy of the error classes across bundled entries.
import { AcpError, STOP_REASONS } from "../index.js";
import { contentBlocksToV1, tagOf } from "./content.js";
import { type LossyOptions, type LossyReporter, toReporter } from "./lossy.js";
import { V2_STOP_REASON_META_KEY } from "./model-names.js";
import type { v1, v2 } from "@acpkit/schema";

type Obj = Record<string, unknown>;

/** A v2 capability marker is present when it is an object (`{}` = supported; absent/`null` = not). */
function isMarker(value: unknown): value is { _meta?: Meta | null } {
  return typeof value === "object" && value !== null;
}

function withMeta<T extends object>(target: T, meta: Meta | null | undefined): T {
  if (meta !== undefined) (target as Obj)._meta = meta;
  return target;
}

// ── initialize params ──────────────────────────────────────────────────────────────────────

/** What a client offers a v1 agent that pinned v2 has no field for (docs/protocol.md §1.2, §4.10). */
export interface V1ClientCapabilityOptions {
  fs?: { readTextFile?: boolean; writeTextFile?: boolean };
  terminal?: boolean;
}

/**
 * v2 `initialize` params → v1: `capabilities` becomes `clientCapabilities` with fs and terminal
 * off unless `v1Capabilities` turns them on (a client offering fs to a v1 agent, §1.2).
 */
export function initializeParamsToV1(params: v2.InitializeRequest, v1Capabilities: V1ClientCapabilityOptions = {}): v1.InitializeRequest {
  const { capabilities, ...rest } = params;
  const clientCapabilities: v1.ClientCapabilities = {
    fs: { readTextFile: v1Capabilities.fs?.readTextFile === true, writeTextFile: v1Capabilities.fs?.writeTextFile === true },
    terminal: v1Capabilities.terminal === true,
  };
  withMeta(clientCapabilities, capabilities?._meta);
  return { ...rest, clientCapabilities } as v1.InitializeRequest;
}

/**
 * v1 `initialize` params → v2: `clientCapabilities` becomes `capabilities: {}` (custom
 * capabilities in its `_meta` are kept); fs/terminal have no v2 form and stay with the runtime.
 */
export function initializeParamsFromV1(params: v1.InitializeRequest): v2.InitializeRequest {
  const { clientCapabilities, ...rest } = params;
  return { ...rest, capabilities: withMeta({}, clientCapabilities?._meta) } as v2.InitializeRequest;
}

// ── agent capabilities ─────────────────────────────────────────────────────────────────────

const SESSION_MARKERS = ["list", "delete", "additionalDirectories", "resume", "close"] as const;
const PROMPT_CAPABILITIES = ["image", "audio", "embeddedContext"] as const;

/**
 * v2 agent capabilities → v1 booleans. An agent without `session` cannot serve v1 (v1's baseline
 * has sessions), so that throws `AcpError("Unsupported")`: answer such an agent's clients on v2 only.
 */
export function agentCapabilitiesToV1(capabilities: v2.AgentCapabilities | undefined, options?: LossyOptions | LossyReporter): v1.AgentCapabilities {
  const lossy = toReporter(options);
  const session = capabilities?.session;
  if (!isMarker(session)) {
    throw new AcpError("Unsupported", "an agent without capabilities.session cannot serve a v1 connection (v1 agents always have sessions)");
  }
  const out: v1.AgentCapabilities = {};
  if (isMarker(session.load)) out.loadSession = true;
  if (isMarker(session.prompt)) {
    const prompt: Obj = {};
    for (const name of PROMPT_CAPABILITIES) if (isMarker(session.prompt[name])) prompt[name] = true;
    out.promptCapabilities = withMeta(prompt, session.prompt._meta);
  }
  const mcp = isMarker(session.mcp) ? session.mcp : undefined;
  if (!isMarker(mcp?.stdio)) {
    lossy.report("mcp_server", "v1 agents always accept stdio MCP servers; the agent's missing stdio marker cannot be expressed", capabilities);
  }
  if (isMarker(mcp?.http) || mcp?._meta !== undefined) {
    const v1Mcp: Obj = {};
    if (isMarker(mcp?.http)) v1Mcp.http = true;
    out.mcpCapabilities = withMeta(v1Mcp, mcp?._meta);
  }
  const markers: Obj = {};
  let anyMarker = false;
  for (const name of SESSION_MARKERS) {
    const value = session[name];
    if (isMarker(value)) {
      markers[name] = value;
      anyMarker = true;
    }
  }
  if (anyMarker || session._meta !== undefined) out.sessionCapabilities = withMeta(markers, session._meta);
  if (capabilities?.auth !== undefined) out.auth = capabilities.auth as v1.AgentCapabilities["auth"];
  return withMeta(out, capabilities?._meta);
}

/** v1 agent capabilities → v2 markers under `session` (stdio always, SSE reported and dropped). */
export function agentCapabilitiesFromV1(capabilities: v1.AgentCapabilities | undefined, options?: LossyOptions | LossyReporter): v2.AgentCapabilities {
  const lossy = toReporter(options);
  const caps = capabilities ?? {};
  const session: Obj = {};
  if (caps.loadSession === true) session.load = {};
  const prompt = caps.promptCapabilities;
  if (prompt !== undefined) {
    const v2Prompt: Obj = {};
    for (const name of PROMPT_CAPABILITIES) if (prompt[name] === true) v2Prompt[name] = {};
    if (Object.keys(v2Prompt).length > 0 || prompt._meta !== undefined) session.prompt = withMeta(v2Prompt, prompt._meta);
  }
  const mcp: Obj = { stdio: {} };
  if (caps.mcpCapabilities?.http === true) mcp.http = {};
  if (caps.mcpCapabilities?.sse === true) {
    lossy.report("mcp_server", "pinned v2 has no SSE MCP servers; the agent's sse capability was left out", capabilities);
  }
  session.mcp = withMeta(mcp, caps.mcpCapabilities?._meta);
  const markers = caps.sessionCapabilities;
  if (markers !== undefined) {
    for (const name of SESSION_MARKERS) if (isMarker(markers[name])) session[name] = markers[name];
    withMeta(session, markers._meta);
  }
  const out: v2.AgentCapabilities = { session: session as v2.SessionCapabilities };
  if (caps.auth !== undefined) out.auth = caps.auth as v2.AgentCapabilities["auth"];
  return withMeta(out, caps._meta);
}

// ── auth methods ───────────────────────────────────────────────────────────────────────────

/** v2 auth methods → v1: `agent` loses its tag, `terminal` (which came from v1) stays, others are dropped and reported. */
export function authMethodsToV1(methods: readonly v2.AuthMethod[], options?: LossyOptions | LossyReporter): v1.AuthMethod[] {
  const lossy = toReporter(options);
  const out: v1.AuthMethod[] = [];
  for (const method of methods) {
    if (method.type === "agent") {
      const { type: _type, ...untagged } = method;
      out.push(untagged as v1.AuthMethodAgent);
    } else if (tagOf(method.type) === "terminal") {
      out.push(method as unknown as v1.AuthMethodTerminal);
    } else {
      lossy.report(
        "auth_method",
        `auth method ${JSON.stringify(method.id)} of type ${JSON.stringify(tagOf(method.type))} does not exist in v1; it was left out`,
        method,
      );
    }
  }
  return out;
}

/** v1 auth methods → v2: the untagged agent method gets `type: "agent"`; `terminal` is kept as a v2 fallback value. */
export function authMethodsFromV1(methods: readonly v1.AuthMethod[]): v2.AuthMethod[] {
  return methods.map((method) =>
    "type" in method && method.type !== undefined ? (method as unknown as v2.AuthMethod) : ({ type: "agent", ...method } as v2.AuthMethodAgent),
  );
}

// ── initialize result ──────────────────────────────────────────────────────────────────────

/** v2 `initialize` result → v1 (capabilities and auth methods converted, the rest kept). */
export function initializeResultToV1(result: v2.InitializeResponse, options?: LossyOptions | LossyReporter): v1.InitializeResponse {
  const lossy = toReporter(options);
  const { capabilities, authMethods, ...rest } = result;
  const out: v1.InitializeResponse = { ...rest, agentCapabilities: agentCapabilitiesToV1(capabilities, lossy) };
  if (authMethods !== undefined) out.authMethods = authMethodsToV1(authMethods, lossy);
  return out;
}

/** v1 `initialize` result → v2 (capabilities and auth methods converted, the rest kept). */
export function initializeResultFromV1(result: v1.InitializeResponse, options?: LossyOptions | LossyReporter): v2.InitializeResponse {
  const lossy = toReporter(options);
  const { agentCapabilities, authMethods, ...rest } = result;
  const out: v2.InitializeResponse = { ...rest, capabilities: agentCapabilitiesFromV1(agentCapabilities, lossy) };
  if (authMethods !== undefined) out.authMethods = authMethodsFromV1(authMethods);
  return out;
}

// ── MCP servers (session/new, session/load) ────────────────────────────────────────────────

/** v2 MCP servers → v1: stdio loses its tag, http stays, other transports are dropped and reported. */
export function mcpServersToV1(servers: readonly v2.McpServer[], options?: LossyOptions | LossyReporter): v1.McpServer[] {
  const lossy = toReporter(options);
  const out: v1.McpServer[] = [];
  for (const server of servers) {
    if (server.type === "stdio") {
      const { type: _type, ...untagged } = server;
      out.push(untagged as v1.McpServerStdio);
    } else if (server.type === "http") {
      out.push(server as v1.McpServerHttp);
    } else {
      lossy.report(
        "mcp_server",
        `MCP server ${JSON.stringify(server.name)} uses transport ${JSON.stringify(tagOf(server.type))}, which v1 does not have; it was left out`,
        server,
      );
    }
  }
  return out;
}

/** v1 MCP servers → v2: stdio gets `type: "stdio"`, http stays, SSE (gone in pinned v2) is dropped and reported. */
export function mcpServersFromV1(servers: readonly v1.McpServer[], options?: LossyOptions | LossyReporter): v2.McpServer[] {
  const lossy = toReporter(options);
  const out: v2.McpServer[] = [];
  for (const server of servers) {
    const type = (server as { type?: unknown }).type;
    if (type === undefined) out.push({ ...(server as v1.McpServerStdio), type: "stdio" } as v2.McpServerStdio);
    else if (type === "http") out.push(server as v2.McpServerHttp);
    else lossy.report("mcp_server", `MCP server ${JSON.stringify(server.name)} uses SSE, which pinned v2 does not have; it was left out`, server);
  }
  return out;
}

/** `session/new` / `session/load` params with their `mcpServers` converted to v1. */
export function sessionSetupParamsToV1<P extends { mcpServers?: v2.McpServer[] }>(
  params: P,
  options?: LossyOptions | LossyReporter,
): Omit<P, "mcpServers"> & { mcpServers?: v1.McpServer[] } {
  if (params.mcpServers === undefined) return params as Omit<P, "mcpServers">;
  return { ...params, mcpServers: mcpServersToV1(params.mcpServers, options) };
}

/** `session/new` / `session/load` params with their `mcpServers` converted to v2. */
export function sessionSetupParamsFromV1<P extends { mcpServers?: v1.McpServer[] }>(
  params: P,
  options?: LossyOptions | LossyReporter,
): Omit<P, "mcpServers"> & { mcpServers?: v2.McpServer[] } {
  if (params.mcpServers === undefined) return params as Omit<P, "mcpServers">;
  return { ...params, mcpServers: mcpServersFromV1(params.mcpServers, options) };
}

// ── prompts, permission options, stop reasons ──────────────────────────────────────────────

/** v2 `session/prompt` params → v1: unknown blocks and custom annotation roles are dropped and reported. */
export function promptToV1(params: v2.PromptRequest, options?: LossyOptions | LossyReporter): v1.PromptRequest {
  const lossy = toReporter(options, params.sessionId);
  return { ...params, prompt: contentBlocksToV1(params.prompt, lossy, params) };
}

const V1_PERMISSION_KINDS: ReadonlySet<string> = new Set(["allow_once", "allow_always", "reject_once", "reject_always"]);

/** v2 permission options → v1: an option of custom kind is dropped and reported, never relabelled as allow/reject. */
export function permissionOptionsToV1(
  permissionOptions: readonly v2.PermissionOption[],
  options?: LossyOptions | LossyReporter,
  update?: unknown,
): v1.PermissionOption[] {
  const lossy = toReporter(options);
  const out: v1.PermissionOption[] = [];
  for (const option of permissionOptions) {
    if (V1_PERMISSION_KINDS.has(option.kind)) out.push(option as v1.PermissionOption);
    else
      lossy.report(
        "permission_option",
        `permission option ${JSON.stringify(option.optionId)} has kind ${JSON.stringify(option.kind)}, which v1 does not have; it was left out`,
        update ?? option,
      );
  }
  return out;
}

const V1_STOP_REASONS: ReadonlySet<string> = new Set(STOP_REASONS[1]);

/**
 * A v2 stop reason as a v1 `session/prompt` result (docs/protocol.md B5): the five v1 values pass;
 * anything else becomes `end_turn` with `_meta["acpkit/v2StopReason"]` and is reported.
 */
export function stopReasonToV1(stopReason: v2.StopReason, meta?: Meta | null, options?: LossyOptions | LossyReporter): v1.PromptResponse {
  if (V1_STOP_REASONS.has(stopReason)) {
    return meta === undefined ? { stopReason: stopReason as v1.StopReason } : { stopReason: stopReason as v1.StopReason, _meta: meta };
  }
  const response: v1.PromptResponse = { stopReason: "end_turn", _meta: { ...(meta ?? {}), [V2_STOP_REASON_META_KEY]: stopReason } };
  toReporter(options).report(
    "stop_reason",
    `stop reason ${JSON.stringify(stopReason)} does not exist in v1; sent "end_turn" with _meta["${V2_STOP_REASON_META_KEY}"]`,
    { stopReason, _meta: meta },
  );
  return response;
}
