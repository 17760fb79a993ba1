// The terminals a session's agent created through the client (v1 terminal/*): which ids belong to
// the session, their last known output in the session's state, and stopping them when the turn is
// cancelled (kill) or the session ends (release).
import type { ClientDiagnostic as Diagnostic } from "./diagnostics.js";
import type { TerminalJSON } from "./state/session-state.js";
import type { TerminalHost } from "./types.js";

/** A terminal this session's agent created. */
interface TerminalEntry {
  record: TerminalJSON;
  released: boolean;
}

/** What a terminal/create asks for (v1 params). */
export interface TerminalCreateParams {
  command: string;
  args?: string[];
  env?: { name: string; value: string }[];
  cwd?: string | null;
  outputByteLimit?: number | null;
}

export class SessionTerminals {
  /** The terminals this session's agent created, by id. */
  readonly #terminals = new Map<string, TerminalEntry>();

  constructor(
    private readonly sessionId: string,
    /** The session's working directory: the host confines terminals to it. */
    private readonly cwd: string,
    /** The host that runs them, when the client advertised terminals. */
    private readonly host: TerminalHost | undefined,
    /** Records a terminal's latest state in the session's state. */
    private readonly record: (terminal: TerminalJSON) => void,
    private readonly report: (diagnostic: Diagnostic) => void,
  ) {}

  /** `terminal/create` for this session. */
  async create(host: TerminalHost, params: TerminalCreateParams): Promise<{ terminalId: string }> {
    const args = params.args ?? [];
    const created = await host.create(
      { command: params.command, args, env: params.env ?? [], cwd: params.cwd ?? null, outputByteLimit: params.outputByteLimit ?? null },
      { sessionId: this.sessionId, sessionCwd: this.cwd },
    );
    const record: TerminalJSON = { terminalId: created.terminalId, command: params.command, args: [...args], output: "", truncated: false, exitStatus: null };
    this.#terminals.set(created.terminalId, { record, released: false });
    this.record(record);
    return { terminalId: created.terminalId };
  }

  /** Whether `terminalId` is one of this session's live terminals. */
  owns(terminalId: string): boolean {
    const entry = this.#terminals.get(terminalId);
    return entry !== undefined && !entry.released;
  }

  /** Record what the host says about a terminal (after output, wait_for_exit, kill, release). */
  async snapshot(host: TerminalHost, terminalId: string): Promise<{ output: string; truncated: boolean; exitStatus: TerminalJSON["exitStatus"] }> {
    const output = await host.output(terminalId);
    const entry = this.#terminals.get(terminalId);
    if (entry !== undefined) {
      entry.record = { ...entry.record, output: output.output, truncated: output.truncated, exitStatus: output.exitStatus };
      this.record(entry.record);
    }
    return output;
  }

  /** `terminal/release`: the id is invalid afterwards. */
  async release(host: TerminalHost, terminalId: string): Promise<void> {
    const entry = this.#terminals.get(terminalId);
    if (entry === undefined || entry.released) return;
    try {
      await this.snapshot(host, terminalId);
    } catch {
      // The last output is a nicety; releasing is what matters.
    }
    entry.released = true;
    await host.release(terminalId);
  }

  /** A cancelled turn's commands stop; their output stays readable until the agent releases them. */
  killAll(): void {
    const host = this.host;
    if (host === undefined) return;
    for (const [terminalId, entry] of this.#terminals) {
      if (entry.released || entry.record.exitStatus !== null) continue;
      Promise.resolve()
        .then(() => host.kill(terminalId))
        .catch((error: unknown) => this.reportFailure("kill", terminalId, error));
    }
  }

  /** The session ended (closed, deleted, or its connection gone): release every terminal it holds. */
  releaseAll(): void {
    const host = this.host;
    if (host === undefined) return;
    for (const [terminalId, entry] of this.#terminals) {
      if (entry.released) continue;
      entry.released = true;
      Promise.resolve()
        .then(() => host.release(terminalId))
        .catch((error: unknown) => this.reportFailure("release", terminalId, error));
    }
  }

  private reportFailure(action: string, terminalId: string, error: unknown): void {
    this.report({
      code: "terminal_failed",
      message: `Could not ${action} terminal ${terminalId} of session ${this.sessionId}: ${error instanceof Error ? error.message : String(error)}`,
      sessionId: this.sessionId,
      detail: error,
    });
  }
}
