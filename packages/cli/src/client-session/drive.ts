// Drives one agent through one session: connect, initialize, session/new, then one prompt turn
// per prompt, in order. Shared by `acpkit run` (any agent) and `acpkit demo` (the built-in one).
//
// Everything that goes wrong is collected as a failure message instead of thrown, so the command
// can still print the final state (`--json`) and pick the exit code: any failure → exit 1.
import type { ClientDiagnostic } from "@acpkit/client";
import { ErrorCode, isAcpError, isRpcError, type CloseInfo, type Diagnostic, type Dialect } from "@acpkit/core";
import {
  connectAgent,
  sessionStateToJSON,
  type ConnectedAgent,
  type AuthMethod,
  type ClientSession,
  type PermissionOutcome,
  type PermissionRequest,
  type SessionStateJSON,
  type StopReason,
  type TerminalHost,
} from "@acpkit/client";
import { createNodeTerminalHost } from "@acpkit/client/node";
import type { ProtocolVersion } from "@acpkit/schema";
import type { CommandIO } from "../io.js";
import type { PermissionSource, TurnPrinter } from "../render/turn-printer.js";
import { describeTarget, openTarget, type AgentTarget } from "./agent-target.js";
import { confinedFileSystem, type FsMode } from "./confined-fs.js";
import { elicitationHandlers, type ElicitPolicy } from "./elicitation-policy.js";
import type { LineSource } from "./line-source.js";
import { askOnTerminal, automaticOutcome, type PermissionPolicy } from "./permission-policy.js";
import type { PromptSource } from "./prompt-source.js";
import { printedTerminals } from "./printed-terminals.js";
import { isProtocolViolation } from "./violations.js";
import { authHelp, listedMethodIds, terminalLogin } from "./auth-methods.js";

export interface DriveOptions {
  target: AgentTarget;
  /** The highest protocol version to offer. */
  protocol: ProtocolVersion;
  /** With protocol 2: which v2 dialect to offer (default auto: the pinned shape, then the later draft's). */
  dialect?: "auto" | "pinned" | "later";
  /** Absolute working directory: the session's cwd and the root of the served file system. */
  cwd: string;
  fs: FsMode;
  permission: PermissionPolicy;
  /** Send `session/cancel` this long after each prompt. */
  cancelAfterMs?: number;
  prompts: PromptSource;
  /** Where `--permission ask` reads answers. Required for "ask". */
  answers?: LineSource;
  /** Human output; absent with `--json`. */
  printer?: TurnPrinter;
  io: CommandIO;
  /** Prefix of stderr messages, e.g. "acpkit run". */
  name: string;
  /** Authenticate with this method before the session. */
  auth?: string;
  /** Switch to this mode once the session exists. */
  mode?: string;
  /** Set these config options (id, value) once the session exists, in order. */
  config?: readonly (readonly [string, string])[];
  /** "allow" advertises terminals and runs the agent's commands confined to `cwd`. Default deny. */
  terminal?: "allow" | "deny";
  /** How elicitations are answered (default decline). */
  elicit?: ElicitPolicy;
  /** Load (replay) this session instead of creating one. */
  load?: string;
  /** Resume this session (no replay) instead of creating one. */
  resume?: string;
  /** Print the vendor (`_…`) notifications and requests acpkit ignores. Default: ignore them quietly. */
  showExtensions?: boolean;
  /** A protocol violation that is only warned about (a turn that ends otherwise than `cancelled` after a cancel) fails the run. */
  strict?: boolean;
}

/** The step of the run that failed, with the agent's own error when it answered one. */
export interface FailedStep {
  /** "initialize", "authenticate", "session/new", "session/load", "session/resume", "session/set_mode", "session/set_config_option", "session/prompt". */
  step: string;
  /** The agent's JSON-RPC error, as it sent it (absent when the failure was not an error answer). */
  error?: { code: number; message: string; data?: unknown };
}

export interface DriveResult {
  /** The version the agent answered (undefined when initialize failed). */
  protocolVersion?: ProtocolVersion;
  /** The wire dialect it answered in (`v1`, `v2-pinned`, `v2-later`). */
  dialect?: Dialect;
  agentName?: string;
  /** The session's final state (undefined when no session was created). */
  state?: SessionStateJSON;
  stopReasons: StopReason[];
  /** Why the run failed; empty when every turn ended and the agent kept to the protocol. */
  failures: string[];
  /** Failures beyond MAX_KEPT_FAILURES: counted, not kept. */
  failuresNotKept?: number;
  /** Set when the agent required authentication that was not given (the methods it offers). */
  authRequired?: AuthMethod[];
  /** The step that ended the run early, when one did. */
  failedStep?: FailedStep;
  /** Protocol violations reported as warnings (they fail the run only with `strict`). */
  warnings: string[];
  /** The agent's authentication methods (empty until initialize answered). */
  authMethods: AuthMethod[];
}

/** How many failures `driveAgent` keeps and prints; more are only counted (DriveResult.failuresNotKept). */
export const MAX_KEPT_FAILURES = 100;

/** Run every prompt of `options.prompts` as one turn of one new session; never throws for agent failures (see DriveResult.failures). */
export async function driveAgent(options: DriveOptions): Promise<DriveResult> {
  const { io, printer, name } = options;
  const result: DriveResult = { stopReasons: [], failures: [], warnings: [], authMethods: [] };
  // A misbehaving agent can report a violation per message: keep the first MAX_KEPT_FAILURES (they
  // decide the exit code and are printed), count the rest, so memory stays bounded.
  let notKept = 0;
  const fail = (message: string) => {
    if (result.failures.length < MAX_KEPT_FAILURES) {
      result.failures.push(message);
      io.stderr.write(io.err.red(`${name}: ${message}`) + "\n");
    } else if (notKept++ === 0) {
      io.stderr.write(io.err.red(`${name}: more protocol violations follow; only their number is reported from here on`) + "\n");
    }
  };

  const fs = await confinedFileSystem(options.cwd, options.fs, {
    read: (path, bytes) => printer?.fileRead(path, bytes),
    write: (path, bytes) => printer?.fileWrite(path, bytes),
    refused: (_method, _path, message) => io.stderr.write(io.err.yellow(`${name}: refused ${message}`) + "\n"),
  });

  let session: ClientSession | undefined;
  const toolTitle = (request: PermissionRequest): string => {
    const id = request.toolCall.toolCallId;
    return request.toolCall.title ?? session?.state.toolCall(id)?.title ?? id;
  };
  const requestPermission = async (request: PermissionRequest, context: { signal: AbortSignal }): Promise<PermissionOutcome> => {
    let outcome: PermissionOutcome;
    let source: PermissionSource;
    if (options.permission === "ask") {
      outcome = await askOnTerminal(request, toolTitle(request), options.answers!, io.stderr, io.err, context.signal);
      source = context.signal.aborted ? "turn cancelled" : "you";
    } else {
      outcome = automaticOutcome(options.permission, request.options);
      source = "auto";
    }
    printer?.permission({ ...request.toolCall, title: toolTitle(request) }, request.options, outcome, source);
    return outcome;
  };
  const warn = (message: string) => {
    if (options.strict) return fail(message);
    if (result.warnings.length < MAX_KEPT_FAILURES) result.warnings.push(message);
    io.stderr.write(io.err.yellow(`${name}: warning: ${message}`) + "\n");
  };
  // Set when connectAgent retried with a v1 offer after the v2 one was refused: that retry
  // already carried the v1 client capabilities.
  let retriedWithV1 = false;
  const onDiagnostic = (diagnostic: ClientDiagnostic) => {
    if (diagnostic.code === "v2_fallback") retriedWithV1 = true;
    // A vendor's own messages (`_auth/status_update`, …) are valid in every version and ignored by
    // design; saying so on every run is noise unless asked for.
    if (isExtensionMessage(diagnostic) && !options.showExtensions) return;
    if (isProtocolViolation(diagnostic))
      fail(`the agent broke the protocol (${diagnostic.code}): ${diagnostic.message}${diagnostic.path ? ` at ${diagnostic.path}` : ""}`);
    else io.stderr.write(io.err.dim(`${name}: ${diagnostic.code}: ${diagnostic.message}`) + "\n");
  };

  let terminalHost: (TerminalHost & { closeAll(): Promise<void> }) | undefined;
  if (options.terminal === "allow") terminalHost = printedTerminals(createNodeTerminalHost(), printer);
  const elicitation = elicitationHandlers(options.elicit ?? "decline", (question, answer) => printer?.elicitation(question, String(answer.action)));

  const connect = async (protocolVersion: ProtocolVersion): Promise<ConnectedAgent> =>
    connectAgent(await openTarget(options.target), {
      protocolVersion,
      ...(options.dialect === undefined ? {} : { v2Dialect: options.dialect }),
      clientInfo: { name: "acpkit-cli", version: "0.1.0" },
      // A process that runs one session: the first turn's latency is what the user feels.
      warmUp: true,
      requestPermission,
      ...(fs ? { fs } : {}),
      ...(terminalHost ? { terminal: terminalHost } : {}),
      elicitation,
      onDiagnostic,
    });
  let agent: ConnectedAgent;
  try {
    agent = await connect(options.protocol);
    // An agent that answered 1 to our v2 offer read a request with no v1 clientCapabilities, so it
    // believes we serve no files and no terminals. Fields of both versions in one request are not
    // allowed (docs/protocol.md §1.2, X2): start it again and offer v1 with v1 fields.
    if (options.protocol === 2 && agent.protocolVersion === 1 && !retriedWithV1 && (fs !== undefined || terminalHost !== undefined)) {
      io.stderr.write(
        io.err.dim(`${name}: the agent answered protocol v1 to a v2 offer; reconnecting with a v1 offer so it sees the client's fs/terminal capabilities`) +
          "\n",
      );
      await agent.close("reconnecting with a v1 offer");
      agent = await connect(1);
    }
  } catch (error) {
    result.failedStep = failedStep("initialize", error);
    fail(`could not start a session with ${describeTarget(options.target)}: ${describeError(error)}`);
    await terminalHost?.closeAll();
    return result;
  }
  result.protocolVersion = agent.protocolVersion;
  result.authMethods = [...agent.authMethods];
  if (agent.agentInfo) result.agentName = `${agent.agentInfo.name} ${agent.agentInfo.version}`;
  result.dialect = agent.dialect;
  printer?.note(`${result.agentName ?? "agent"} · protocol v${agent.protocolVersion} negotiated (offered v${options.protocol}) · dialect ${agent.dialect}`);

  // Notice an agent that goes away on its own, also while we wait for the next prompt.
  let closingOnPurpose = false;
  let unexpectedClose: CloseInfo | undefined;
  const gone = new AbortController();
  void agent.closed.then((info) => {
    if (closingOnPurpose) return;
    unexpectedClose = info;
    gone.abort();
  });

  // The step in progress, so a failure names itself (a refused --auth is not "session/new failed").
  let step = "authenticate";
  const needsLogin = (error: unknown): boolean => isRpcError(error) && error.code === ErrorCode.AuthRequired;
  /** The agent demands a login (-32000): keep its own words and data, list what it offers, exit 3. */
  const loginRequired = (error: unknown, what: string): Error => {
    result.authRequired = [...agent.authMethods];
    const said = isRpcError(error) ? ` The agent said: ${JSON.stringify(error.message)}${dataSuffix(error.data)}.` : "";
    return new Error(`${what} failed: authentication required.${said}\n${authHelp(agent.authMethods, options.target)}`, { cause: error });
  };
  try {
    if (options.auth !== undefined) {
      const method = agent.authMethods.find((candidate) => candidate.id === options.auth);
      if (method === undefined) {
        result.authRequired = [...agent.authMethods];
        throw new Error(`--auth ${options.auth}: the agent offers no such method (${listedMethodIds(agent.authMethods)})`);
      }
      const login = terminalLogin(method, options.target);
      if (login !== undefined) {
        result.authRequired = [...agent.authMethods];
        throw new Error(`--auth ${options.auth} is a terminal login, which authenticate cannot do: run ${login} in a terminal, then run again without --auth`);
      }
      try {
        await agent.authenticate(options.auth);
      } catch (error) {
        // The method exists but the agent refused it: a login problem, exit 3 like a missing one.
        if (isRpcError(error)) result.authRequired = [...agent.authMethods];
        throw error;
      }
      printer?.note(`authenticated with ${options.auth}`);
    }
    step = options.load !== undefined ? "session/load" : options.resume !== undefined ? "session/resume" : "session/new";
    try {
      session = await openSession(agent, options, printer);
    } catch (error) {
      if (needsLogin(error)) throw loginRequired(error, step);
      throw error;
    }
    if (options.mode !== undefined) {
      step = "session/set_mode";
      await session.setMode(options.mode);
      printer?.note(`mode → ${options.mode}`);
    }
    for (const [configId, raw] of options.config ?? []) {
      step = `session/set_config_option ${configId}`;
      const option = session.state.configOptions.find((candidate) => candidate.id === configId);
      const value = option?.type === "boolean" && (raw === "true" || raw === "false") ? raw === "true" : raw;
      await session.setConfigOption(configId, value);
      printer?.note(`config ${configId} = ${raw}`);
    }
    step = "session/prompt";
    for (let turnNumber = 1; ; turnNumber++) {
      const text = await options.prompts.next(gone.signal);
      if (text === undefined) break;
      printer?.prompt(text);
      const turn = session.prompt(text);
      let cancelSent = false;
      const timer =
        options.cancelAfterMs === undefined
          ? undefined
          : setTimeout(() => {
              printer?.note(`✕ cancel sent after ${options.cancelAfterMs} ms`);
              cancelSent = true;
              void turn.cancel();
            }, options.cancelAfterMs);
      try {
        const outcome = await turn;
        result.stopReasons.push(outcome.stopReason);
        printer?.stop(outcome.stopReason);
        if (cancelSent && outcome.stopReason !== "cancelled")
          warn(
            `the agent broke the protocol (docs/protocol.md C7): turn ${turnNumber} ended with stopReason ${JSON.stringify(outcome.stopReason)} after session/cancel was sent; a cancelled turn must end with "cancelled"`,
          );
      } catch (error) {
        if (needsLogin(error)) throw loginRequired(error, `turn ${turnNumber} (session/prompt)`);
        const message = `turn ${turnNumber} failed: ${describeError(error, unexpectedClose)}`;
        result.failedStep = failedStep("session/prompt", error);
        printer?.failed(message);
        fail(message);
        break;
      } finally {
        if (timer !== undefined) clearTimeout(timer);
      }
    }
  } catch (error) {
    const cause = error instanceof Error ? ((error as Error & { cause?: unknown }).cause ?? error) : error;
    result.failedStep ??= failedStep(step.split(" ")[0]!, cause);
    fail(error instanceof Error && !isRpcError(error) && !isAcpError(error) ? error.message : `${step} failed: ${describeError(error, unexpectedClose)}`);
  } finally {
    printer?.finish();
    await terminalHost?.closeAll();
    if (unexpectedClose !== undefined && result.failures.length === 0) {
      // Every prompt of a fixed list had its turn: the agent (or a server shutting down) closing
      // the connection afterwards took nothing the user asked for, whichever came first.
      if (session !== undefined && options.prompts.remaining?.() === 0)
        printer?.note(`the agent closed the connection after the last turn: ${unexpectedClose.reason}`);
      else fail(`the agent closed the connection: ${unexpectedClose.reason}`);
    }
    closingOnPurpose = true;
    await agent.close("the client is done");
  }
  if (session) result.state = sessionStateToJSON(session.state);
  if (notKept > 0) {
    result.failuresNotKept = notKept;
    io.stderr.write(io.err.red(`${name}: ${notKept} more protocol violations were not printed`) + "\n");
  }
  return result;
}

/** The session the run works in: a new one, or the one `--load` / `--resume` names. */
async function openSession(agent: ConnectedAgent, options: DriveOptions, printer: TurnPrinter | undefined): Promise<ClientSession> {
  const subscribe = (session: ClientSession) => {
    if (printer) session.onUpdate((update) => printer.update(update));
    return session;
  };
  if (options.load !== undefined) {
    // The replay arrived before session/load answered; it is in the state, so print it from there.
    const session = await agent.loadSession({ sessionId: options.load, cwd: options.cwd });
    printer?.note(`loaded session ${options.load}`);
    printer?.history(session.state.messages);
    return subscribe(session);
  }
  if (options.resume !== undefined) {
    const session = subscribe(await agent.resumeSession({ sessionId: options.resume, cwd: options.cwd }));
    printer?.note(`resumed session ${options.resume}`);
    return session;
  }
  return subscribe(await agent.newSession({ cwd: options.cwd }));
}

/** The failed step, with the agent's error when it answered one (kept for `--json`). */
function failedStep(step: string, error: unknown): FailedStep {
  if (!isRpcError(error)) return { step };
  return { step, error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) } };
}

/** A vendor's own notification or request (`_…`), valid in every protocol version and ignored by acpkit. */
function isExtensionMessage(diagnostic: Diagnostic): boolean {
  return (diagnostic.code === "unknown_notification" || diagnostic.code === "unknown_method") && (diagnostic.method ?? "").startsWith("_");
}

/** An error's `data` as a short one-line JSON suffix (often the only useful text an agent sends). */
function dataSuffix(data: unknown): string {
  if (data === undefined || data === null) return "";
  let text: string;
  try {
    text = typeof data === "string" ? data : JSON.stringify(data);
  } catch {
    return "";
  }
  if (text === undefined || text === "{}") return "";
  return ` (data: ${text.length > 500 ? `${text.slice(0, 499)}…` : text})`;
}

/** One sentence for an error: wire errors with their code and data, closed connections with why. */
function describeError(error: unknown, close?: CloseInfo): string {
  if (isRpcError(error)) return `the agent answered with error ${error.code}: ${error.message}${dataSuffix(error.data)}`;
  if (isAcpError(error, "ConnectionClosed")) {
    const info = (error.data as CloseInfo | undefined) ?? close;
    return `the connection closed (${info?.reason ?? error.message})`;
  }
  if (isAcpError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
