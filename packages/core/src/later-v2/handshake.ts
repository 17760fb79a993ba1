// `initialize`, auth and session set-up between the model (pinned-v2 shapes) and the later v2 draft
// (docs/protocol.md §12, A1, A2 and A7). Stateless; each function maps one params or result object.
import { isJsonObject } from "../index.js";
import { configOptionsFromLater, configOptionsToLater, commandToLater } from "./session-updates.js";
import type { LaterLossy } from "./lossy.js";

type Json = Record<string, unknown>;

/** What a later-draft `info` stands in for when the model has none (the draft requires it; the SDK reads a missing one the same way). */
export const UNKNOWN_IMPLEMENTATION = Object.freeze({ name: "unknown", version: "unknown" });

/** The session methods the later draft makes baseline once `capabilities.session` is present. */
export const LATER_BASELINE_SESSION_METHODS = ["list", "resume", "close"] as const;

// ---- initialize ----

/** Later `initialize` params as the pinned params the model's runtime reads (`info` → `clientInfo`; the later client capabilities stay under `capabilities`). */
export function initializeParamsFromLater(params: Json, version: number): Json {
  const { info, ...rest } = params;
  return { ...rest, protocolVersion: version, clientInfo: info };
}

/**
 * The model's (pinned) `initialize` result in the later shape: `agentInfo` → `info`; the session
 * markers the later draft made baseline (`load`, `list`, `resume`, `close`) are dropped, and the
 * ones this agent does not actually serve are reported; `auth.logout` is dropped (a non-empty
 * `authMethods` obliges `auth/logout` instead); auth methods use `methodId`.
 */
export function initializeResultToLater(result: Json, lossy: LaterLossy): Json {
  const { agentInfo, capabilities, authMethods, ...rest } = result;
  const out: Json = { ...rest, info: isJsonObject(agentInfo) ? agentInfo : UNKNOWN_IMPLEMENTATION };
  if (isJsonObject(capabilities)) {
    const laterCapabilities: Json = { ...capabilities };
    if (isJsonObject(capabilities.session)) {
      const { load: _load, list, resume, close, ...session } = capabilities.session;
      const missing = LATER_BASELINE_SESSION_METHODS.filter((name) => !isJsonObject({ list, resume, close }[name]));
      if (missing.length > 0) {
        lossy.report(
          "baseline_method",
          `the later v2 draft makes session/${missing.join(", session/")} baseline; this agent does not serve ${missing.length === 1 ? "it" : "them"} and answers -32601`,
          capabilities.session,
        );
      }
      laterCapabilities.session = session;
    }
    if (isJsonObject(capabilities.auth)) {
      const { logout: _logout, ...auth } = capabilities.auth;
      laterCapabilities.auth = auth;
    }
    out.capabilities = laterCapabilities;
  }
  if (Array.isArray(authMethods)) out.authMethods = authMethods.map((method) => (isJsonObject(method) ? authMethodToLater(method) : method));
  return out;
}

/**
 * A later `initialize` result in the model's (pinned) shape: `info` → `agentInfo`; the baseline
 * session methods become the pinned markers, and `session/load` is offered (a pinned load is sent
 * as `session/resume` with `replayFrom: {type: "start"}`); `auth.logout` is set when auth methods
 * are listed (the draft then obliges `auth/logout`).
 */
export function initializeResultFromLater(result: Json): Json {
  const { info, capabilities, authMethods, ...rest } = result;
  const out: Json = { ...rest, agentInfo: isJsonObject(info) ? info : null };
  const caps: Json = isJsonObject(capabilities) ? { ...capabilities } : {};
  if (isJsonObject(caps.session)) caps.session = { ...caps.session, load: {}, list: {}, resume: {}, close: {} };
  const methods = Array.isArray(authMethods) ? authMethods.filter(isJsonObject).map(authMethodFromLater) : [];
  const auth: Json = isJsonObject(caps.auth) ? { ...caps.auth } : {};
  if (methods.length > 0) auth.logout = {};
  caps.auth = auth;
  out.capabilities = caps;
  out.authMethods = methods;
  return out;
}

function authMethodToLater(method: Json): Json {
  const { id, ...rest } = method;
  return { ...rest, methodId: id };
}

function authMethodFromLater(method: Json): Json {
  const { methodId, ...rest } = method;
  return { ...rest, id: methodId };
}

// ---- session set-up ----

/** Later `session/new` (or resume) params in the pinned shape: `mcpServers` defaults to `[]`, stdio servers' `args`/`env` to `[]`. */
export function sessionParamsFromLater(params: Json): Json {
  const servers = Array.isArray(params.mcpServers) ? params.mcpServers : [];
  return {
    ...params,
    mcpServers: servers.map((server) => {
      if (!isJsonObject(server) || server.type !== "stdio") return server;
      return { ...server, args: Array.isArray(server.args) ? server.args : [], env: Array.isArray(server.env) ? server.env : [] };
    }),
  };
}

/** A model `session/new` / `session/resume` / `session/load` result in the later shape (config options renamed; commands tagged). */
export function sessionResultToLater(result: Json): Json {
  const out: Json = { ...result };
  if ("configOptions" in out) {
    if (out.configOptions === null) delete out.configOptions;
    else out.configOptions = configOptionsToLater(out.configOptions);
  }
  if (Array.isArray(out.availableCommands)) out.availableCommands = out.availableCommands.map((c) => (isJsonObject(c) ? commandToLater(c) : c));
  // Modes are a v1 idea the later draft does not have.
  delete out.modes;
  return out;
}

/** A later session set-up result in the model's shape. */
export function sessionResultFromLater(result: Json): Json {
  const out: Json = { ...result };
  if ("configOptions" in out) out.configOptions = configOptionsFromLater(out.configOptions);
  // The model learns commands from `available_commands_update`; the result's copy is not part of the pinned result.
  delete out.availableCommands;
  return out;
}

/** Later `session/set_config_option` params (`type: "id" | "boolean"`) in the pinned shape (`value` alone). */
export function setConfigOptionFromLater(params: Json): Json {
  const { type: _type, ...rest } = params;
  return rest;
}

/**
 * Model `session/set_config_option` params in the later shape: the value's type names the variant.
 * The model's pinned-v2 form carries a boolean as the value id "true"/"false"; for an option the
 * agent announced as boolean (`booleanOption`), that becomes `{type: "boolean", value}`.
 */
export function setConfigOptionToLater(params: Json, booleanOption = false): Json {
  if (booleanOption && (params.value === "true" || params.value === "false")) return { ...params, type: "boolean", value: params.value === "true" };
  return { ...params, type: typeof params.value === "boolean" ? "boolean" : "id" };
}
