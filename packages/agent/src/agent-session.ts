// One session on an agent connection: its ids, its modes and config options, and what it is busy
// with (a turn, or a session/load replay). One turn at a time (O4).
import { ErrorCode, RpcError } from "@acpkit/core";
import type { AgentDiagnostic as Diagnostic } from "./diagnostics.js";
import type { v1, v2 } from "@acpkit/schema";
import { BackgroundWork } from "./background-work.js";
import { CancellableWork } from "./cancellable-work.js";
import { SessionSettings } from "./session-settings.js";
import type { AgentSideConnection, SessionWire } from "./session-wire.js";
import type { TurnImpl } from "./turn.js";
import type { AgentDefinition, ClientInfo, ConfigOption, ConfigValue, SessionSetup } from "./types.js";
import { SessionIds, type UpdateWriter, type WriterScope } from "./writer.js";

export class AgentSession implements WriterScope {
  readonly ids = new SessionIds();
  readonly work = new CancellableWork();
  /** Tool calls that outlive their turn, and the snapshot of them the later v2 draft reports. */
  readonly background: BackgroundWork = new BackgroundWork(this, () => this.busy !== undefined);
  readonly settings: SessionSettings;
  /** The running turn, or a session/load replay in progress. */
  busy: TurnImpl | UpdateWriter | undefined;
  constructor(
    readonly sessionId: string,
    readonly client: ClientInfo,
    readonly connection: AgentSideConnection,
    readonly wire: SessionWire,
    readonly report: (diagnostic: Diagnostic) => void,
    defaults: AgentDefinition,
  ) {
    // Pinned v2 has no modes: a v2 session never has any, so nothing can leak onto a v2 wire.
    this.settings = new SessionSettings(client.protocolVersion === 1 ? defaults.modes : undefined, defaults.configOptions);
  }

  /** Apply what a setup handler returned (fields it left out keep the defaults). */
  adopt(setup: SessionSetup | undefined): void {
    if (setup === undefined) return;
    if (setup.modes !== undefined && this.client.protocolVersion === 1) this.settings.modes = setup.modes ?? undefined;
    if (setup.configOptions !== undefined) this.settings.configOptions = setup.configOptions ?? [];
  }

  /** The `modes` / `configOptions` of a session/new, load or resume result, in this version's shape. */
  setupFields(): { modes?: v1.SessionModeState; configOptions?: ConfigOption[] } {
    const out: { modes?: v1.SessionModeState; configOptions?: ConfigOption[] } = {};
    const modes = this.settings.modes;
    if (modes !== undefined) out.modes = { currentModeId: modes.currentModeId, availableModes: modes.availableModes.map((mode) => ({ ...mode })) };
    if (this.settings.configOptions.length > 0) out.configOptions = [...this.settings.configOptions];
    return out;
  }

  /** O4: one turn at a time per session; a second prompt (or a load over a turn) gets -32600 with `reason: "turn_in_progress"`. */
  requireIdle(): void {
    if (this.busy) {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `Session ${this.sessionId} already has a prompt turn in progress; send the next prompt after the previous response`,
        { reason: "turn_in_progress" },
      );
    }
  }

  /**
   * The value of a session/set_config_option request: v1 sends booleans as `{type: "boolean", value}`;
   * pinned v2 has value ids only, so a boolean option there is set with "true" or "false".
   */
  configValueOf(params: v1.SetSessionConfigOptionRequest | v2.SetSessionConfigOptionRequest): ConfigValue {
    const value = params.value as ConfigValue;
    const option = this.settings.configOptions.find((candidate) => candidate.id === params.configId);
    if (option?.type === "boolean" && (value === "true" || value === "false")) return value === "true";
    return value;
  }
}
