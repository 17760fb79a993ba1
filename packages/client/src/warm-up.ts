// The warm-up: while a freshly spawned agent starts (tens of milliseconds, during which this
// process only waits), run the client's first exchange once against a scripted agent in this
// process. V8 compiles each function the first time it runs, and the first exchange (initialize,
// session/new, one turn of the common updates) runs several hundred of them across the client,
// core, the validators and the v1 bridge. Compiled while the agent starts, they are ready when the
// real answers arrive, so the first turn is not slowed by compiling (docs/performance.md).
//
// It happens once per process and protocol version, never touches the real connection, and is
// delivered a reply per macrotask, so real input that arrives meanwhile is handled in between.
import type { CloseInfo, JsonRpcMessage, Transport, TransportReceiver } from "@acpkit/core";
import type { ClientDiagnostic as Diagnostic } from "./diagnostics.js";
import type { ProtocolVersion } from "@acpkit/schema";
import type { ConnectOptions } from "./types.js";

type Json = Record<string, unknown>;

/** What the warm-up uses of a connection (an ConnectedAgent has it): one session, one turn, close. */
interface WarmUpConnection {
  newSession(options: { cwd: string }): Promise<{
    prompt(text: string): AsyncIterable<unknown> & PromiseLike<{ stopReason: string }>;
    readonly state: { toJSON(): unknown };
  }>;
  close(): Promise<void>;
}

/** How the warm-up connects: connectAgent, passed in so that connect.ts and this module do not
 *  import each other, at run time or in types (tests pass a counting or failing stand-in). */
type Connect = (transport: Transport, options: ConnectOptions) => Promise<WarmUpConnection>;

/** The scripted agent's id for the one session it opens. */
const SESSION_ID = "acpkit-warm-up";

const INITIALIZE_RESULT: Record<ProtocolVersion, Json> = {
  1: {
    protocolVersion: 1,
    agentCapabilities: {
      loadSession: false,
      promptCapabilities: { image: false, audio: false, embeddedContext: true },
      mcpCapabilities: { http: false, sse: false },
    },
    authMethods: [],
    agentInfo: { name: "acpkit-warm-up", version: "0.0.0" },
  },
  2: {
    protocolVersion: 2,
    capabilities: { session: { prompt: { embeddedContext: {} }, mcp: { stdio: {} } } },
    authMethods: [],
    agentInfo: { name: "acpkit-warm-up", version: "0.0.0" },
  },
};

const text = (value: string): Json => ({ type: "text", text: value });

/** The updates of the scripted turn: the kinds nearly every turn carries, in each version's shape. */
const TURN_UPDATES: Record<ProtocolVersion, Json[]> = {
  1: [
    { sessionUpdate: "plan", entries: [{ content: "Read the file", priority: "high", status: "in_progress" }] },
    { sessionUpdate: "agent_thought_chunk", content: text("Reading first.") },
    { sessionUpdate: "agent_message_chunk", content: text("Reading ") },
    { sessionUpdate: "agent_message_chunk", content: text("the file.") },
    { sessionUpdate: "tool_call", toolCallId: "t1", title: "Read a file", kind: "read", status: "in_progress", locations: [{ path: "/w/a.txt" }] },
    { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", content: [{ type: "content", content: text("1 line") }] },
  ],
  2: [
    { sessionUpdate: "plan_update", plan: { type: "items", id: "p1", entries: [{ content: "Read the file", priority: "high", status: "in_progress" }] } },
    { sessionUpdate: "agent_thought_chunk", messageId: "m0", content: text("Reading first.") },
    { sessionUpdate: "agent_message_chunk", messageId: "m1", content: text("Reading ") },
    { sessionUpdate: "agent_message_chunk", messageId: "m1", content: text("the file.") },
    { sessionUpdate: "tool_call_update", toolCallId: "t1", title: "Read a file", kind: "read", status: "in_progress" },
    { sessionUpdate: "tool_call_content_chunk", toolCallId: "t1", content: { type: "content", content: text("1 line") } },
    { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" },
    { sessionUpdate: "agent_message", messageId: "m2", content: [text("Done.")] },
  ],
};

/** What one warm-up did: for tests, which check that the script ran clean. */
export interface WarmUpReport {
  /** Updates the client's turn yielded. */
  updates: number;
  /** Diagnostics the client raised: any at all means the script no longer matches the client. */
  diagnostics: Diagnostic[];
  stopReason: string;
  /** The session's state after the turn (its contract JSON). */
  state: unknown;
}

/**
 * A Transport whose other end is the scripted agent: it answers initialize, session/new and
 * session/prompt (after the turn's updates), and delivers its messages as text, like a stream.
 */
class ScriptedAgentTransport implements Transport {
  private receiver: TransportReceiver | undefined;
  private isClosed = false;
  private closeWith!: (info: CloseInfo) => void;
  readonly closed = new Promise<CloseInfo>((resolve) => (this.closeWith = resolve));

  constructor(private readonly version: ProtocolVersion) {}

  start(receiver: TransportReceiver): void {
    this.receiver = receiver;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    for (const one of Array.isArray(message) ? message : [message]) this.answer(one);
    return Promise.resolve();
  }

  close(reason = "warm-up done"): Promise<void> {
    this.isClosed = true;
    this.closeWith({ reason });
    return Promise.resolve();
  }

  private answer(request: JsonRpcMessage): void {
    if (request.id === undefined || typeof request.method !== "string") return;
    const reply = (result: Json): Json => ({ jsonrpc: "2.0", id: request.id, result });
    switch (request.method) {
      case "initialize":
        return this.deliver([reply(INITIALIZE_RESULT[this.version])]);
      case "session/new":
        return this.deliver([reply({ sessionId: SESSION_ID })]);
      case "session/prompt":
        return this.deliver([
          ...TURN_UPDATES[this.version].map((update) => ({ jsonrpc: "2.0", method: "session/update", params: { sessionId: SESSION_ID, update } })),
          reply({ stopReason: "end_turn" }),
        ]);
      default:
        this.deliver([{ jsonrpc: "2.0", id: request.id, error: { code: -32601, message: `${request.method} is not scripted` } }]);
    }
  }

  /** One reply's messages arrive together, in a later macrotask (as one read of a stream would). */
  private deliver(messages: Json[]): void {
    const lines = messages.map((message) => JSON.stringify(message));
    setTimeout(() => {
      for (const line of lines) if (!this.isClosed) this.receiver?.onMessage(line);
    }, 0);
  }
}

/** Connect, open a session, run one turn the way the README does, close. */
export async function runWarmUp(version: ProtocolVersion, validateOutgoing: boolean, connect: Connect): Promise<WarmUpReport> {
  const diagnostics: Diagnostic[] = [];
  const agent = await connect(new ScriptedAgentTransport(version), {
    protocolVersion: version,
    validateOutgoing,
    warmUp: false,
    requestTimeoutMs: null,
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
  });
  try {
    const session = await agent.newSession({ cwd: "/" });
    const turn = session.prompt("Read the file.");
    let updates = 0;
    for await (const _ of turn) updates++;
    const { stopReason } = await turn;
    return { updates, diagnostics, stopReason, state: session.state.toJSON() };
  } finally {
    await agent.close();
  }
}

const warmedUp = new Set<string>();
const keyOf = (version: ProtocolVersion, validateOutgoing: boolean): string => `${version}/${validateOutgoing}`;

/** Whether this process started the warm-up for `version` (with outgoing checks on or off). */
export function isWarmedUp(version: ProtocolVersion, validateOutgoing: boolean): boolean {
  return warmedUp.has(keyOf(version, validateOutgoing));
}

/**
 * Start the warm-up for `version` unless this process already ran it (then undefined). Never
 * rejects: connectAgent does not wait for it, and a failure costs only the head start.
 */
export function warmUpOnce(version: ProtocolVersion, validateOutgoing: boolean, connect: Connect): Promise<WarmUpReport | undefined> | undefined {
  const key = keyOf(version, validateOutgoing);
  if (warmedUp.has(key)) return undefined;
  warmedUp.add(key);
  return runWarmUp(version, validateOutgoing, connect).catch(() => undefined);
}
