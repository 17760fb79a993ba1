// A session's modes and config options as the runtime keeps them: seeded from the agent's
// defaults or the setup result, changed by session/set_mode and session/set_config_option (after
// checking the id and value exist) and by the turn API. Pure bookkeeping; sending is elsewhere.
import { AcpError, ErrorCode, RpcError } from "@acpkit/core";
import type { ConfigOption, ConfigValue, SessionModes } from "./types.js";

/** The value ids a select option offers (flat or grouped). */
function selectValues(option: ConfigOption): string[] {
  const options = (option as { options?: unknown }).options;
  if (!Array.isArray(options)) return [];
  const values: string[] = [];
  for (const entry of options as { value?: unknown; options?: { value?: unknown }[] }[]) {
    if (typeof entry.value === "string") values.push(entry.value);
    else if (Array.isArray(entry.options)) for (const inner of entry.options) if (typeof inner.value === "string") values.push(inner.value);
  }
  return values;
}

/** Why `value` cannot be set on `option`, or undefined when it can. */
function valueProblem(option: ConfigOption, value: ConfigValue): string | undefined {
  if (option.type === "boolean") return typeof value === "boolean" ? undefined : `config option "${option.id}" is boolean; got ${JSON.stringify(value)}`;
  if (option.type === "select") {
    if (typeof value !== "string") return `config option "${option.id}" is a select; its value must be one of its value ids`;
    const values = selectValues(option);
    return values.includes(value) ? undefined : `"${value}" is not a value of config option "${option.id}" (values: ${values.map((v) => `"${v}"`).join(", ")})`;
  }
  const other = option as { id: string; type: unknown };
  return `config option "${other.id}" has type "${String(other.type)}", which this runtime cannot set`;
}

export class SessionSettings {
  modes: SessionModes | undefined;
  configOptions: readonly ConfigOption[];

  constructor(modes: SessionModes | null | undefined, configOptions: readonly ConfigOption[] | null | undefined) {
    this.modes = modes ?? undefined;
    this.configOptions = configOptions ?? [];
  }

  /** Checks `modeId` for a client request: -32602 at `/modeId` when the session has no such mode. */
  checkModeRequest(modeId: string): void {
    const problem = this.modeProblem(modeId);
    if (problem !== undefined) throw new RpcError(ErrorCode.InvalidParams, `Invalid params for session/set_mode: ${problem}`, { path: "/modeId" });
  }

  /** Checks `modeId` for an agent call: AcpError "InvalidArgument". */
  checkModeCall(modeId: string): void {
    const problem = this.modeProblem(modeId);
    if (problem !== undefined) throw new AcpError("InvalidArgument", `setMode: ${problem}`);
  }

  setMode(modeId: string): void {
    if (this.modes) this.modes = { ...this.modes, currentModeId: modeId };
  }

  /**
   * The options with `configId` set to `value`; -32602 (client request) naming `/configId` or
   * `/value` when the option or value does not exist.
   */
  withValueForRequest(configId: string, value: ConfigValue): ConfigOption[] {
    const index = this.configOptions.findIndex((option) => option.id === configId);
    if (index < 0)
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params for session/set_config_option: the session has no config option "${configId}"`, {
        path: "/configId",
      });
    const problem = valueProblem(this.configOptions[index]!, value);
    if (problem !== undefined) throw new RpcError(ErrorCode.InvalidParams, `Invalid params for session/set_config_option: ${problem}`, { path: "/value" });
    return this.replaced(index, value);
  }

  /** The same for an agent call: AcpError "InvalidArgument". */
  withValueForCall(configId: string, value: ConfigValue): ConfigOption[] {
    const index = this.configOptions.findIndex((option) => option.id === configId);
    if (index < 0) throw new AcpError("InvalidArgument", `setConfigValue: the session has no config option "${configId}"`);
    const problem = valueProblem(this.configOptions[index]!, value);
    if (problem !== undefined) throw new AcpError("InvalidArgument", `setConfigValue: ${problem}`);
    return this.replaced(index, value);
  }

  private replaced(index: number, value: ConfigValue): ConfigOption[] {
    const options = [...this.configOptions];
    options[index] = { ...options[index]!, currentValue: value } as ConfigOption;
    return options;
  }

  private modeProblem(modeId: string): string | undefined {
    if (!this.modes) return "the session has no modes";
    const ids = this.modes.availableModes.map((mode) => mode.id);
    return ids.includes(modeId) ? undefined : `the session has no mode "${modeId}" (modes: ${ids.map((id) => `"${id}"`).join(", ")})`;
  }
}
