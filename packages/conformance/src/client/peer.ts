// The scripted agent that `checkClient` puts behind the client under test: a raw agent with no
// acpkit runtime that plays one scenario and logs every line both ways, with the time. Where the
// lines travel is the channel's business: stdio and a log file for a client command
// (peer-stdio.ts, the hidden `acpkit __check-peer`), an in-process transport and an array for a
// client in the same process (check-client.ts). The checker judges the log once the client is
// done and the log is marked complete.
//
// Why the log has a budget: the client under test may be broken and write without end. Logging
// every line made the log grow by gigabytes within the run's time limit, the checker could then
// not read it as one string, and judged an empty log: "the client never sent initialize" for a
// client that had sent thousands. Lines are still read and answered past the budget, but only the
// first LOG_BUDGET_CHARS of text are logged, then a note says so; a line longer than acpkit's
// transports accept by default (DEFAULT_MAX_MESSAGE_SIZE, 64 MiB) is not held at all (a note again).
// Past the budget the lines the checks judge by are still logged, up to EVIDENCE_PAST_BUDGET of
// them: without them a client that answered after a flood was judged as never having answered.

/** How many characters of message text one scenario's log holds: 64 Mi. */
export const LOG_BUDGET_CHARS = 64 * 1024 * 1024;

/**
 * Past LOG_BUDGET_CHARS, how many more lines are logged because the checks judge by them: what is
 * not a JSON-RPC message, every answer, the client's requests the checks look for by method
 * (JUDGED_METHODS), a message whose params are invalid for the negotiated version, and this
 * agent's own requests.
 */
export const EVIDENCE_PAST_BUDGET = 256;

/** The client messages the checks look for by method. */
const JUDGED_METHODS = new Set(["initialize", "session/new", "session/prompt", "session/cancel"]);

type ParamsCheck = (version: 1 | 2, method: string, params: unknown) => boolean;

/** The scenarios checkClient runs the client through, one run each, in this order. */
export const CLIENT_SCENARIOS = ["basic", "lower-version", "cancel", "slow", "agent-exit"] as const;
/** One of CLIENT_SCENARIOS. */
export type ClientScenario = (typeof CLIENT_SCENARIOS)[number];

/** One logged line: `in` = written by the client, `out` = written by this agent, `note` = what the log itself could not hold. */
export interface PeerLogEntry {
  t: number;
  /** `tail`: the client's output ended inside a line (the bytes after its last newline). */
  dir: "in" | "out" | "note" | "tail";
  text: string;
}

type Json = Record<string, unknown>;

/** Ids of the requests this agent sends, so the checker can find the answers. */
export const PEER_IDS = {
  unknownMethod: "check-unknown-method",
  fsRead: "check-fs-read",
  terminal: "check-terminal",
  permission: "check-permission",
  permissionAfterCancel: "check-permission-after-cancel",
  permissionPending: "check-permission-pending",
} as const;

export const PERMISSION_OPTIONS = [
  { optionId: "check-allow", name: "Allow", kind: "allow_once" },
  { optionId: "check-reject", name: "Reject", kind: "reject_once" },
];

/** Where the checking agent's lines go, and where its log is kept. */
export interface PeerChannel {
  /** Send one message (its JSON text) to the client. */
  write(text: string): void;
  /** Keep one log entry. */
  log(entry: PeerLogEntry): void;
  /** The log now holds every line the client wrote (its input ended, or the agent is leaving). */
  logDone(): void;
  /** Go away for good, as an agent that exits mid-turn does (the agent-exit scenario). */
  leave(): void;
}

/** The checking agent's side of one scenario: feed it the client's lines, and tell it when they end. */
export interface ClientPeer {
  /** One line (one message's text) the client wrote. */
  line(text: string): void;
  /** Log what the channel itself saw: a `note`, or a `tail` (the client's output ended inside a line). */
  note(dir: "note" | "tail", text: string): void;
  /** The client's output ended: the log is complete. */
  end(): void;
}

export interface PeerOptions {
  /** How long the slow scenario's prompt takes (ms). */
  slowMs: number;
  /** The highest version the checking agent speaks. */
  maxProtocol: 1 | 2;
}

export function createClientPeer(scenario: ClientScenario, channel: PeerChannel, options: PeerOptions): ClientPeer {
  const { slowMs, maxProtocol } = options;
  const started = Date.now();
  let budget = LOG_BUDGET_CHARS;
  let evidenceLeft = EVIDENCE_PAST_BUDGET;
  // Loaded once the budget is spent (a run that stays within it never pays for the validators);
  // until then every message with a method counts as evidence.
  let validParams: ParamsCheck | undefined;
  const write = (dir: PeerLogEntry["dir"], text: string) => channel.log({ t: Date.now() - started, dir, text });
  const markLogDone = () => channel.logDone();
  /** Log a line; past the budget only when `isEvidence()` says the checks judge by it. */
  const log = (dir: PeerLogEntry["dir"], text: string, isEvidence: () => boolean) => {
    if (budget >= 0) {
      budget -= text.length;
      if (budget >= 0) {
        write(dir, text);
        return;
      }
      write(
        "note",
        `the log is full (${LOG_BUDGET_CHARS} characters of messages): later lines were read and answered, and only those the checks judge by were recorded (at most ${EVIDENCE_PAST_BUDGET})`,
      );
      // Should the validators fail to load, every message with a method stays evidence.
      loadParamsCheck().then(
        (check) => (validParams = check),
        () => {},
      );
    }
    if (evidenceLeft === 0 || !isEvidence()) return;
    write(dir, text);
    if (--evidenceLeft === 0) write("note", `${EVIDENCE_PAST_BUDGET} lines were recorded past the full log; later ones were not`);
  };
  /** Whether the checks judge by this line of the client (see EVIDENCE_PAST_BUDGET). */
  const judgedBy = (message: unknown): boolean => {
    if (typeof message !== "object" || message === null || Array.isArray(message) || (message as Json).jsonrpc !== "2.0") return true;
    const { method, params } = message as Json;
    if (typeof method !== "string") return true; // an answer
    if (JUDGED_METHODS.has(method)) return true;
    if (method.startsWith("_")) return false; // an extension: no check judges its params
    return validParams === undefined || !validParams(version === 2 ? 2 : 1, method, params ?? undefined);
  };
  const send = (message: Json) => {
    const text = JSON.stringify(message);
    log("out", text, () => typeof message.method === "string" && "id" in message); // its own requests
    channel.write(text);
  };
  let version = 1;
  // A client that sends `info` in initialize speaks the later v2 draft (docs/protocol.md §12): the
  // turn is a receipt, then updates, then a `state_update` `idle` with the stop reason, and a
  // permission request names its subject.
  let later = false;
  let prompts = 0;
  let clientCaps: Json = {};
  let sessionId = "check-session-1";
  let cancelled = false;
  const waiting = new Map<string, (message: Json) => void>();
  const request = (id: string, method: string, params: Json) =>
    new Promise<Json>((resolve) => {
      waiting.set(id, resolve);
      send({ jsonrpc: "2.0", id, method, params });
    });
  const update = (u: Json) => send({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: u } });
  const chunk = (text: string) =>
    version === 1
      ? { sessionUpdate: "agent_message_chunk", content: { type: "text", text } }
      : { sessionUpdate: "agent_message_chunk", messageId: "check-m1", content: { type: "text", text } };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** A permission question about tool call `toolCallId`, in the dialect spoken. */
  const permission = (toolCallId: string): Json =>
    later
      ? { sessionId, title: "May the check go on?", subject: { type: "tool_call", toolCall: { toolCallId, title: "Check" } }, options: PERMISSION_OPTIONS }
      : { sessionId, toolCall: { toolCallId }, options: PERMISSION_OPTIONS };
  /** The end of the turn: the prompt's answer, or in the later draft its `idle` state. */
  const finish = (id: unknown, stopReason: string) =>
    later ? update({ sessionUpdate: "state_update", state: "idle", stopReason }) : send({ jsonrpc: "2.0", id, result: { stopReason } });

  async function prompt(id: unknown, blocks: unknown): Promise<void> {
    if (later) {
      // The insertion receipt at once, the echo of the prompt, and the turn running.
      const messageId = `check-user-${++prompts}`;
      send({ jsonrpc: "2.0", id, result: { messageId } });
      update({ sessionUpdate: "user_message", messageId, content: Array.isArray(blocks) ? blocks : [] });
      update({ sessionUpdate: "state_update", state: "running" });
    }
    switch (scenario) {
      case "basic":
      case "lower-version": {
        update(chunk("Checking your client. "));
        // An update kind no version defines: the client must survive it.
        update({ sessionUpdate: "_acpkit/check-unknown-update", anything: true });
        await request(PEER_IDS.unknownMethod, "acpkit/check-unknown", {});
        if (version === 1) {
          await request(PEER_IDS.fsRead, "fs/read_text_file", { sessionId, path: "/acpkit-check/nonexistent.txt" });
          await request(PEER_IDS.terminal, "terminal/create", { sessionId, command: "true" });
        }
        await request(PEER_IDS.permission, "session/request_permission", permission("check-tool"));
        update(chunk("Done."));
        finish(id, "end_turn");
        return;
      }
      case "cancel": {
        update(chunk("Working until you cancel… "));
        // A question the client may still be holding when it cancels: then it must answer "cancelled".
        void request(PEER_IDS.permissionPending, "session/request_permission", permission("check-tool-pending"));
        // Up to 5 s for the client's cancel; a client that never cancels gets the cancel checks skipped.
        for (let i = 0; i < 100 && !cancelled; i++) await sleep(50);
        if (!cancelled) {
          finish(id, "end_turn");
          return;
        }
        // After the cancel: more updates (the client must take them) and a permission question
        // (it must be answered cancelled), then the cancelled response.
        update(chunk("still finishing up"));
        await request(PEER_IDS.permissionAfterCancel, "session/request_permission", permission("check-tool-2"));
        finish(id, "cancelled");
        return;
      }
      case "slow":
        await sleep(slowMs);
        update(chunk("Sorry for the wait."));
        finish(id, "end_turn");
        return;
      case "agent-exit":
        update(chunk("Going away now."));
        await sleep(100);
        markLogDone();
        channel.leave();
        return;
    }
  }

  const handleLine = (text: string): void => {
    if (text.trim() === "") return;
    let message: Json;
    try {
      message = JSON.parse(text) as Json;
    } catch {
      log("in", text, () => true);
      return;
    }
    log("in", text, () => judgedBy(message));
    if (typeof message !== "object" || message === null || Array.isArray(message)) return;
    if (message.method === undefined) {
      const resolve = waiting.get(String(message.id));
      waiting.delete(String(message.id));
      resolve?.(message);
      return;
    }
    const params = (message.params ?? {}) as Json;
    switch (message.method) {
      case "initialize": {
        const offered = params.protocolVersion;
        version = scenario === "lower-version" || maxProtocol === 1 ? 1 : offered === 2 ? 2 : 1;
        later = version === 2 && typeof params.info === "object" && params.info !== null;
        clientCaps = (version === 1 ? params.clientCapabilities : params.capabilities) as Json;
        void clientCaps;
        const agentInfo = { name: "acpkit-check-agent", version: "0.1.0" };
        const result = later
          ? { protocolVersion: 2, info: agentInfo, capabilities: { session: {} }, authMethods: [] }
          : version === 1
            ? {
                protocolVersion: 1,
                agentCapabilities: { loadSession: false, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
                authMethods: [],
                agentInfo,
              }
            : { protocolVersion: 2, capabilities: { session: { prompt: {} } }, authMethods: [], agentInfo };
        send({ jsonrpc: "2.0", id: message.id, result });
        return;
      }
      case "session/new":
        sessionId = `check-session-${Math.random().toString(36).slice(2, 8)}`;
        send({ jsonrpc: "2.0", id: message.id, result: { sessionId } });
        return;
      case "session/prompt":
        void prompt(message.id, params.prompt);
        return;
      case "session/cancel":
        cancelled = true;
        return;
      default:
        if ("id" in message) send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `Method not found: ${String(message.method)}` } });
    }
  };
  return {
    line: handleLine,
    note: write,
    end: markLogDone,
  };
}

/** The schema check of a message's params, once its validators are loaded (only past the budget). */
async function loadParamsCheck(): Promise<ParamsCheck> {
  const schema = await import("@acpkit/schema/lazy");
  await Promise.all([schema.loadProtocolVersion(1, "agent"), schema.loadProtocolVersion(2, "agent")]);
  return (version, method, params) => {
    const info = schema.getMethod(version, method);
    return info?.validateParams(params).valid === true;
  };
}
