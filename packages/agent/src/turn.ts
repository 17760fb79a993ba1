// One prompt turn: the update writer plus what only a live turn has: the prompt, the abort
// signal that session/cancel trips, permission requests and (v1) client file access.
import { AcpError, checkAbsolutePathArgument, ELICITATION_COMPLETE_METHOD, ELICITATION_CREATE_METHOD, ErrorCode, isRpcError } from "@acpkit/core";
import type { v1 } from "@acpkit/schema";
import type { PermissionParams } from "./session-wire.js";
import { TerminalHandleImpl } from "./terminal-handle.js";
import { checkToolCallPaths } from "./tool-call-paths.js";
import type {
  ContentBlock,
  ElicitationResult,
  FormElicitation,
  Meta,
  PermissionOutcome,
  AgentPermissionRequest,
  TerminalHandle,
  TerminalRequest,
  AgentTurn,
  UrlElicitation,
} from "./types.js";
import { UpdateWriter, type WriterScope } from "./writer.js";

const CANCELLED: PermissionOutcome = Object.freeze({ outcome: "cancelled" }) as PermissionOutcome;
const ELICITATION_CANCELLED: ElicitationResult = Object.freeze({ action: "cancel" }) as ElicitationResult;
let elicitationCounter = 0;

export class TurnImpl extends UpdateWriter implements AgentTurn {
  // Made when `signal` is first read (an AbortController is costly on the per-prompt path); an
  // abort that came earlier makes it start out aborted.
  private controller: AbortController | undefined;
  private abortReason: AcpError | undefined;
  private cancelledByClient = false;
  /** Resolvers of permission requests still waiting for the client's answer (made on the first). */
  private pendingPermissions: Set<() => void> | undefined;

  constructor(
    scope: WriterScope,
    readonly prompt: readonly ContentBlock[],
    readonly promptMeta: Meta | null | undefined,
  ) {
    super(scope, false);
  }

  protected override turnSignal(): AbortSignal {
    return this.signal;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortReason !== undefined) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }
  get cancelled(): boolean {
    return this.cancelledByClient;
  }
  get open(): boolean {
    return this.isOpen;
  }

  /**
   * session/cancel (or $/cancel_request on the prompt): abort the handler's work and resolve every
   * pending permission request as cancelled (docs/protocol.md C5, C8). Ignored once the response is due (C10).
   */
  cancel(reason: string): void {
    if (this.cancelledByClient || !this.isOpen) return;
    this.cancelledByClient = true;
    this.abort(new AcpError("Cancelled", reason));
    if (this.pendingPermissions !== undefined) for (const resolveCancelled of [...this.pendingPermissions]) resolveCancelled();
  }

  /** The connection went away: abort the handler, but this is not a client cancel. */
  abortForClose(reason: string): void {
    this.abort(new AcpError("ConnectionClosed", reason));
  }

  /** The first abort wins, as with AbortController. */
  private abort(reason: AcpError): void {
    if (this.abortReason !== undefined) return;
    this.abortReason = reason;
    this.controller?.abort(reason);
  }

  requestPermission(request: AgentPermissionRequest): Promise<PermissionOutcome> {
    return this.askPermission(request);
  }

  protected override askPermission(request: AgentPermissionRequest): Promise<PermissionOutcome> {
    if (!this.isOpen) {
      this.scope.report({
        code: "turn_closed",
        message: `Permission request after the turn of session ${this.sessionId} ended; answered "cancelled" without asking`,
        sessionId: this.sessionId,
      });
      return Promise.resolve(CANCELLED);
    }
    if (this.cancelledByClient) return Promise.resolve(CANCELLED);
    this.releaseHeld();
    let params: PermissionParams;
    try {
      checkToolCallPaths(request.toolCall.toolCallId, request.toolCall);
      params = this.scope.wire.permissionParams(request, this.tracker);
    } catch (error) {
      // A relative path (E4), or the strict v1 bridge cannot express the request: fail the caller, not the process.
      return Promise.reject(error);
    }
    return new Promise<PermissionOutcome>((resolve, reject) => {
      let settled = false;
      const resolveCancelled = () => settle(CANCELLED);
      const settle = (outcome: PermissionOutcome) => {
        if (settled) return;
        settled = true;
        this.pendingPermissions!.delete(resolveCancelled);
        resolve(outcome);
      };
      (this.pendingPermissions ??= new Set()).add(resolveCancelled);
      this.scope.connection.request("session/request_permission", params).then(
        (result) => settle(result.outcome),
        (error: unknown) => {
          // After a cancel any answer counts as "not approved"; -32800 is the cascade answer (C8).
          if (this.cancelledByClient || (isRpcError(error) && error.code === ErrorCode.RequestCancelled)) return settle(CANCELLED);
          if (settled) return;
          settled = true;
          this.pendingPermissions!.delete(resolveCancelled);
          reject(error);
        },
      );
    });
  }

  async readTextFile(request: { path: string; line?: number | null; limit?: number | null }): Promise<string> {
    this.requireClientFs("fs/read_text_file", this.client.canReadTextFile, "readTextFile");
    // E4: absolute paths and 1-based lines; a client would refuse anything else with -32602.
    checkAbsolutePathArgument("readTextFile", "/path", request.path);
    if (request.line === 0) throw new AcpError("InvalidArgument", "readTextFile: line must be 1 or more (lines are 1-based)", { data: { path: "/line" } });
    const params: v1.ReadTextFileRequest = { sessionId: this.sessionId, path: request.path };
    if (request.line != null) params.line = request.line;
    if (request.limit != null) params.limit = request.limit;
    this.releaseHeld();
    const result = await this.scope.connection.request("fs/read_text_file", params, { signal: this.signal });
    return result.content;
  }

  async writeTextFile(request: { path: string; content: string }): Promise<void> {
    this.requireClientFs("fs/write_text_file", this.client.canWriteTextFile, "writeTextFile");
    checkAbsolutePathArgument("writeTextFile", "/path", request.path);
    this.releaseHeld();
    await this.scope.connection.request(
      "fs/write_text_file",
      { sessionId: this.sessionId, path: request.path, content: request.content },
      { signal: this.signal },
    );
  }

  async createTerminal(request: TerminalRequest): Promise<TerminalHandle> {
    this.requireClientFeature("terminal/create", this.client.canUseTerminal, "clientCapabilities.terminal");
    const params: v1.CreateTerminalRequest = { sessionId: this.sessionId, command: request.command };
    if (request.args !== undefined) params.args = [...request.args];
    if (request.env !== undefined) params.env = request.env.map((variable) => ({ name: variable.name, value: variable.value }));
    if (request.cwd != null) {
      checkAbsolutePathArgument("createTerminal", "/cwd", request.cwd);
      params.cwd = request.cwd;
    }
    if (request.outputByteLimit != null) params.outputByteLimit = request.outputByteLimit;
    this.releaseHeld();
    const result = await this.scope.connection.request("terminal/create", params, { signal: this.signal });
    return new TerminalHandleImpl(this.scope.connection, this.sessionId, result.terminalId);
  }

  elicit(request: FormElicitation): Promise<ElicitationResult> {
    this.requireElicitation(this.client.canElicitForm, "form");
    const params: v1.CreateElicitationForm = { mode: "form", message: request.message, requestedSchema: request.requestedSchema, sessionId: this.sessionId };
    if (request.toolCallId != null) params.toolCallId = request.toolCallId;
    return this.askElicitation(params);
  }

  async elicitUrl(request: UrlElicitation): Promise<ElicitationResult & { elicitationId: string }> {
    this.requireElicitation(this.client.canElicitUrl, "url");
    const elicitationId = request.elicitationId ?? `elicitation_${++elicitationCounter}`;
    const params: v1.CreateElicitationUrl = { mode: "url", message: request.message, url: request.url, elicitationId, sessionId: this.sessionId };
    if (request.toolCallId != null) params.toolCallId = request.toolCallId;
    const result = await this.askElicitation(params);
    return { ...result, elicitationId };
  }

  async completeElicitation(elicitationId: string): Promise<void> {
    // A URL flow may finish after the turn that started it, so only the dialect is checked.
    if (this.client.dialect === "v2-pinned") throw new AcpError("Unsupported", "elicitation/complete does not exist in the pinned protocol v2");
    if (this.client.dialect === "v1") await this.scope.connection.notify("elicitation/complete", { elicitationId });
    else await this.scope.connection.notify(ELICITATION_COMPLETE_METHOD, { elicitationId });
  }

  /** An elicitation is a question like a permission request: a cancelled turn answers it `cancel` without waiting. */
  private askElicitation(params: v1.CreateElicitationRequest): Promise<ElicitationResult> {
    if (this.cancelledByClient) return Promise.resolve(ELICITATION_CANCELLED);
    this.releaseHeld();
    return new Promise<ElicitationResult>((resolve, reject) => {
      let settled = false;
      const resolveCancelled = () => finish(() => resolve(ELICITATION_CANCELLED));
      const finish = (action: () => void) => {
        if (settled) return;
        settled = true;
        this.pendingPermissions!.delete(resolveCancelled);
        action();
      };
      (this.pendingPermissions ??= new Set()).add(resolveCancelled);
      // The later v2 draft's elicitation/create travels in the model as the extension method its codec maps.
      const asked: Promise<ElicitationResult> =
        this.client.dialect === "v1"
          ? this.scope.connection.request("elicitation/create", params)
          : (this.scope.connection.request(ELICITATION_CREATE_METHOD, params) as Promise<ElicitationResult>);
      asked.then(
        (result) => finish(() => resolve(result)),
        (error: unknown) => finish(() => (this.cancelledByClient ? resolve(ELICITATION_CANCELLED) : reject(error))),
      );
    });
  }

  private requireClientFeature(method: string, advertised: boolean, capability: string): void {
    this.requireV1Only(method);
    if (!advertised) throw new AcpError("Unsupported", `${method}: the client did not advertise ${capability}, so the agent must not call it`);
  }

  /** Elicitation exists in v1 and in the later v2 draft (not in the pinned v2), once the client advertised the mode. */
  private requireElicitation(advertised: boolean, mode: "form" | "url"): void {
    const method = "elicitation/create";
    this.requireOpen(method);
    if (this.client.dialect === "v2-pinned") throw new AcpError("Unsupported", `${method} does not exist in the pinned protocol v2`);
    const capability = `${this.client.dialect === "v1" ? "clientCapabilities" : "capabilities"}.elicitation.${mode}`;
    if (!advertised) throw new AcpError("Unsupported", `${method}: the client did not advertise ${capability}, so the agent must not call it`);
  }

  private requireOpen(method: string): void {
    if (!this.isOpen) throw new AcpError("ProtocolViolation", `${method}: the turn of session ${this.sessionId} already ended`);
  }

  private requireV1Only(method: string): void {
    this.requireOpen(method);
    if (this.client.protocolVersion !== 1) throw new AcpError("Unsupported", `${method} does not exist in protocol v${this.client.protocolVersion}`);
  }

  private requireClientFs(method: string, advertised: boolean, capability: string): void {
    if (!this.isOpen) throw new AcpError("ProtocolViolation", `${method}: the turn of session ${this.sessionId} already ended`);
    if (this.client.protocolVersion !== 1) {
      throw new AcpError("Unsupported", `${method} does not exist in protocol v${this.client.protocolVersion}; read files agent-side or through an MCP server`);
    }
    if (!advertised) {
      throw new AcpError("Unsupported", `${method}: the client did not advertise clientCapabilities.fs.${capability}, so the agent must not call it`);
    }
  }
}
