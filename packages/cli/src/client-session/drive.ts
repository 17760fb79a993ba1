// Drives one agent through one session: connect, initialize, session/new, then one prompt turn
// per prompt, in order. Shared by `acpkit run` (any agent) and `acpkit demo` (the built-in one).
//
// Everything that goes wrong is collected as a failure message instead of thrown, so the command
// can still print the final state (`--json`) and pick the exit code: any failure → exit 1.
import { isAcpError, isRpcError, type CloseInfo, type Diagnostic } from "@acpkit/core";
import {
  connectAgent,
  sessionStateToJSON,
  type AgentConnection,
  type ClientSession,
  type PermissionOutcome,
  type PermissionRequest,
  type SessionStateJSON,
  type StopReason,
} from "@acpkit/client";
import type { ProtocolVersion } from "@acpkit/schema";
import type { CommandIO } from "../io.js";
import type { PermissionSource, TurnPrinter } from "../render/turn-printer.js";
import { describeTarget, openTarget, type AgentTarget } from "./agent-target.js";
import { confinedFileSystem, type FsMode } from "./confined-fs.js";
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

  let agent: AgentConnection;
  try {
    const transport = await openTarget(options.target);
    agent = await connectAgent(transport, {
      protocolVersion: options.protocol,
      clientInfo: { name: "acpkit-cli", version: "0.1.0" },
      requestPermission,
      ...(fs ? { fs } : {}),
      onDiagnostic,
    });
  } catch (error) {
    fail(`could not start a session with ${describeTarget(options.target)}: ${describeError(error)}`);
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
    session = await agent.newSession({ cwd: options.cwd });
    if (printer) session.onUpdate((update) => printer.update(update));
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
    fail(`session/new failed: ${describeError(error, unexpectedClose)}`);
  } finally {
    printer?.finish();
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

/** One sentence for an error: wire errors with their code, closed connections with why. */
function describeError(error: unknown, close?: CloseInfo): string {
  if (isRpcError(error)) return `the agent answered with error ${error.code}: ${error.message}`;
  if (isAcpError(error, "ConnectionClosed")) {
    const info = (error.data as CloseInfo | undefined) ?? close;
    return `the connection closed (${info?.reason ?? error.message})`;
  }
  if (isAcpError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
