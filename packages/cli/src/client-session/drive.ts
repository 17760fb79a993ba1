// Drives one agent through one session: connect, initialize, session/new, then one prompt turn
// per prompt, in order. Shared by `acpkit run` (any agent) and `acpkit demo` (the built-in one).
//
// Everything that goes wrong is collected as a failure message instead of thrown, so the command
// can still print the final state (`--json`) and pick the exit code: any failure → exit 1.
import { ErrorCode, isAcpError, isRpcError, type CloseInfo, type Diagnostic } from "@acpkit/core";
import {
  connectAgent,
  sessionStateToJSON,
  type AgentConnection,
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
import { isProtocolViolation } from "./violations.js";

export interface DriveOptions {
  target: AgentTarget;
  /** The highest protocol version to offer. */
  protocol: ProtocolVersion;
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
}

export interface DriveResult {
  /** The version the agent answered (undefined when initialize failed). */
  protocolVersion?: ProtocolVersion;
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
}

/** How many failures `driveAgent` keeps and prints; more are only counted (DriveResult.failuresNotKept). */
export const MAX_KEPT_FAILURES = 100;

/** Run every prompt of `options.prompts` as one turn of one new session; never throws for agent failures (see DriveResult.failures). */
export async function driveAgent(options: DriveOptions): Promise<DriveResult> {
  const { io, printer, name } = options;
  const result: DriveResult = { stopReasons: [], failures: [] };
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
  const onDiagnostic = (diagnostic: Diagnostic) => {
    if (isProtocolViolation(diagnostic))
      fail(`the agent broke the protocol (${diagnostic.code}): ${diagnostic.message}${diagnostic.path ? ` at ${diagnostic.path}` : ""}`);
    else io.stderr.write(io.err.dim(`${name}: ${diagnostic.code}: ${diagnostic.message}`) + "\n");
  };

  let terminalHost: (TerminalHost & { closeAll(): Promise<void> }) | undefined;
  if (options.terminal === "allow") terminalHost = printedTerminals(createNodeTerminalHost(), printer);
  const elicitation = elicitationHandlers(options.elicit ?? "decline", (question, answer) => printer?.elicitation(question, String(answer.action)));

  let agent: AgentConnection;
  try {
    const transport = await openTarget(options.target);
    agent = await connectAgent(transport, {
      protocolVersion: options.protocol,
      clientInfo: { name: "acpkit-cli", version: "0.1.0" },
      requestPermission,
      ...(fs ? { fs } : {}),
      ...(terminalHost ? { terminal: terminalHost } : {}),
      elicitation,
      onDiagnostic,
    });
  } catch (error) {
    fail(`could not start a session with ${describeTarget(options.target)}: ${describeError(error)}`);
    await terminalHost?.closeAll();
    return result;
  }
  result.protocolVersion = agent.protocolVersion;
  if (agent.agentInfo) result.agentName = `${agent.agentInfo.name} ${agent.agentInfo.version}`;
  printer?.note(`${result.agentName ?? "agent"} · protocol v${agent.protocolVersion} negotiated (offered v${options.protocol})`);

  // Notice an agent that goes away on its own, also while we wait for the next prompt.
  let closingOnPurpose = false;
  let unexpectedClose: CloseInfo | undefined;
  const gone = new AbortController();
  void agent.closed.then((info) => {
    if (closingOnPurpose) return;
    unexpectedClose = info;
    gone.abort();
  });

  try {
    if (options.auth !== undefined) {
      const known = agent.authMethods.some((method) => method.id === options.auth);
      if (!known) {
        result.authRequired = [...agent.authMethods];
        throw new Error(`--auth ${options.auth}: the agent offers no such method (${describeAuthMethods(agent.authMethods)})`);
      }
      await agent.authenticate(options.auth);
      printer?.note(`authenticated with ${options.auth}`);
    }
    try {
      session = await openSession(agent, options, printer);
    } catch (error) {
      if (isRpcError(error) && error.code === ErrorCode.AuthRequired && options.auth === undefined) {
        result.authRequired = [...agent.authMethods];
        throw new Error(`Authentication required. ${authHelp(agent.authMethods)}`);
      }
      throw error;
    }
    if (options.mode !== undefined) {
      await session.setMode(options.mode);
      printer?.note(`mode → ${options.mode}`);
    }
    for (const [configId, raw] of options.config ?? []) {
      const option = session.state.configOptions.find((candidate) => candidate.id === configId);
      const value = option?.type === "boolean" && (raw === "true" || raw === "false") ? raw === "true" : raw;
      await session.setConfigOption(configId, value);
      printer?.note(`config ${configId} = ${raw}`);
    }
    for (let turnNumber = 1; ; turnNumber++) {
      const text = await options.prompts.next(gone.signal);
      if (text === undefined) break;
      printer?.prompt(text);
      const turn = session.prompt(text);
      const timer =
        options.cancelAfterMs === undefined
          ? undefined
          : setTimeout(() => {
              printer?.note(`✕ cancel sent after ${options.cancelAfterMs} ms`);
              void turn.cancel();
            }, options.cancelAfterMs);
      try {
        const outcome = await turn;
        result.stopReasons.push(outcome.stopReason);
        printer?.stop(outcome.stopReason);
      } catch (error) {
        const message = `turn ${turnNumber} failed: ${describeError(error, unexpectedClose)}`;
        printer?.failed(message);
        fail(message);
        break;
      } finally {
        if (timer !== undefined) clearTimeout(timer);
      }
    }
  } catch (error) {
    const step = options.load !== undefined ? "session/load" : options.resume !== undefined ? "session/resume" : "session/new";
    fail(error instanceof Error && !isRpcError(error) && !isAcpError(error) ? error.message : `${step} failed: ${describeError(error, unexpectedClose)}`);
  } finally {
    printer?.finish();
    await terminalHost?.closeAll();
    if (unexpectedClose !== undefined && result.failures.length === 0) {
      fail(`the agent closed the connection: ${unexpectedClose.reason}`);
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
async function openSession(agent: AgentConnection, options: DriveOptions, printer: TurnPrinter | undefined): Promise<ClientSession> {
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

/** The agent's authentication methods, one per line, for the "Authentication required" message. */
function authHelp(methods: readonly AuthMethod[]): string {
  if (methods.length === 0) return "The agent lists no authentication methods.";
  return `Run again with --auth METHOD_ID, one of:\n${methods.map((method) => `  ${method.id}  ${method.name}${method.description ? ` — ${method.description}` : ""}`).join("\n")}`;
}

function describeAuthMethods(methods: readonly AuthMethod[]): string {
  return methods.length === 0 ? "it lists none" : `it lists ${methods.map((method) => method.id).join(", ")}`;
}

/** A terminal host that also tells the printer when a command starts and ends. */
function printedTerminals(host: TerminalHost & { closeAll(): Promise<void> }, printer: TurnPrinter | undefined): TerminalHost & { closeAll(): Promise<void> } {
  if (printer === undefined) return host;
  const commands = new Map<string, string>();
  return {
    async create(request, context) {
      const created = await host.create(request, context);
      const line = [request.command, ...request.args].join(" ");
      commands.set(created.terminalId, line);
      printer.terminalStarted(created.terminalId, line);
      return created;
    },
    output: (terminalId) => host.output(terminalId),
    async waitForExit(terminalId) {
      const status = await host.waitForExit(terminalId);
      const output = await host.output(terminalId);
      printer.terminalExited(commands.get(terminalId) ?? terminalId, status, output.output);
      return status;
    },
    kill: (terminalId) => host.kill(terminalId),
    release: (terminalId) => host.release(terminalId),
    closeAll: () => host.closeAll(),
  };
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
