// The page's state and everything the page does: connect the client (the real @acpkit/client,
// over the browser WebSocket transport to the inspector's relay), open and drive sessions, hold
// the permission and elicitation questions until a button answers them, follow the tap, import and
// export transcripts. Views read it and call its methods; it tells them to redraw (at most once a
// frame) through `subscribe`.
import {
  connectAgent,
  type ConnectedAgent,
  type ClientSession,
  type ContentBlock,
  type ElicitationResult,
  type FormElicitationRequest,
  type PermissionOutcome,
  type PermissionRequest,
  type SessionListEntry,
  type SessionState,
  type UrlElicitationRequest,
} from "@acpkit/client";
import { connect } from "@acpkit/transport-websocket/browser";
import { ACP_PATH, EVENTS_PATH, TOKEN_PARAM, type InspectorInfo, type TapEvent } from "../common/protocol.js";
import { PageFiles, simulatedTerminals } from "./browser-host.js";
import { importNote, replayTranscript, SessionReplayer } from "./replay.js";
import { tappedTransport } from "./tapped-transport.js";
import { TimelineOrder } from "./timeline-order.js";
import { WireLog } from "./wire-log.js";

/** The client capabilities the Connect form toggles. */
export interface ClientToggles {
  fsRead: boolean;
  fsWrite: boolean;
  terminal: boolean;
  elicitation: boolean;
}

/** A question from the agent waiting for the user. */
export interface PermissionCard {
  id: number;
  request: PermissionRequest;
  answer(outcome: PermissionOutcome): void;
}

export interface ElicitationCard {
  id: number;
  request: FormElicitationRequest | UrlElicitationRequest;
  answer(result: ElicitationResult): void;
}

/** One session as the page shows it: live (a ClientSession) or rebuilt from a record. */
export interface SessionView {
  sessionId: string;
  live?: ClientSession;
  recorded?: SessionState;
  /** Timeline order: first appearance of each message, tool call and plan. */
  order: TimelineOrder;
  turnRunning: boolean;
  lastStopReason?: string;
  lastError?: string;
}

export type ConnectionStatus = "idle" | "connecting" | "connected" | "closed";

const encoder = new TextEncoder();

export class Controller {
  readonly wire = new WireLog();
  readonly files: PageFiles;
  status: ConnectionStatus = "idle";
  /** The latest failure, shown in the page's error bar until dismissed. */
  error: string | undefined;
  connection: ConnectedAgent | undefined;
  toggles: ClientToggles = { fsRead: true, fsWrite: true, terminal: true, elicitation: true };
  protocolVersion: 1 | 2;
  sessions = new Map<string, SessionView>();
  currentSessionId: string | undefined;
  listed: SessionListEntry[] | undefined;
  permissions: PermissionCard[] = [];
  elicitations: ElicitationCard[] = [];
  /** What the page shows: the live connection, an imported transcript, or the tap. */
  source: "live" | "import" | "tap";
  #cardIds = 0;
  readonly #listeners = new Set<() => void>();
  #frame: number | undefined;
  #tapReplayer: SessionReplayer | undefined;

  constructor(
    readonly info: InspectorInfo,
    private readonly token: string,
  ) {
    this.protocolVersion = info.protocolVersion;
    this.source = info.mode === "tap" ? "tap" : "live";
    this.files = new PageFiles(() => this.changed());
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Something changed: redraw once, on the next frame. */
  changed(): void {
    if (this.#frame !== undefined) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = undefined;
      for (const listener of this.#listeners) listener();
    });
  }

  fail(error: unknown): void {
    this.error = error instanceof Error ? error.message : String(error);
    this.changed();
  }

  dismissError(): void {
    this.error = undefined;
    this.changed();
  }

  get currentSession(): SessionView | undefined {
    return this.currentSessionId === undefined ? undefined : this.sessions.get(this.currentSessionId);
  }

  /** The state a session view shows now. */
  stateOf(view: SessionView): SessionState | undefined {
    const state = view.live?.state ?? view.recorded;
    if (state !== undefined) view.order.stamp(state);
    return state;
  }

  #socketUrl(path: string): string {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${path}?${TOKEN_PARAM}=${encodeURIComponent(this.token)}`;
  }

  // ── connection ───────────────────────────────────────────────────────────────────────────

  async connect(): Promise<void> {
    if (this.status === "connecting" || this.status === "connected") return;
    this.reset("live");
    this.status = "connecting";
    this.changed();
    try {
      const socket = await connect(this.#socketUrl(ACP_PATH));
      const transport = tappedTransport(socket, {
        sent: (text) => this.#record("client_to_agent", text),
        received: (text) => this.#record("agent_to_client", text),
      });
      const toggles = this.toggles;
      const connection = await connectAgent(transport, {
        protocolVersion: this.protocolVersion,
        clientInfo: { name: "acpkit-inspector", version: this.info.version },
        requestPermission: (request, context) => this.#ask(this.permissions, request, context.signal, { outcome: "cancelled" }),
        ...(toggles.fsRead || toggles.fsWrite ? { fs: this.files.handlers(toggles.fsRead, toggles.fsWrite) } : {}),
        ...(toggles.terminal ? { terminal: simulatedTerminals() } : {}),
        ...(toggles.elicitation
          ? {
              elicitation: {
                form: (request, context) => this.#ask(this.elicitations, request, context.signal, { action: "cancel" } as ElicitationResult),
                url: (request, context) => this.#ask(this.elicitations, request, context.signal, { action: "cancel" } as ElicitationResult),
              },
            }
          : {}),
        onDiagnostic: (diagnostic) => {
          this.wire.note(`${diagnostic.code}: ${diagnostic.message}`, "warning");
          this.changed();
        },
      });
      this.connection = connection;
      this.status = "connected";
      void connection.closed.then((info) => {
        if (this.connection !== connection) return;
        this.status = "closed";
        this.wire.note(`connection closed: ${info.reason}`);
        for (const view of this.sessions.values()) view.turnRunning = false;
        this.changed();
      });
    } catch (error) {
      this.status = "closed";
      this.fail(error);
    }
    this.changed();
  }

  async disconnect(): Promise<void> {
    await this.connection?.close("closed from the inspector page");
  }

  /** Forget the sessions, questions and wire (a new connection, an import, the tap). */
  reset(source: Controller["source"]): void {
    this.source = source;
    this.connection = undefined;
    this.sessions.clear();
    this.currentSessionId = undefined;
    this.listed = undefined;
    for (const card of [...this.permissions]) card.answer({ outcome: "cancelled" });
    for (const card of [...this.elicitations]) card.answer({ action: "cancel" } as ElicitationResult);
    this.wire.clear();
    this.changed();
  }

  #record(direction: "client_to_agent" | "agent_to_client", text: string): void {
    this.wire.message(direction, text, encoder.encode(text).length);
    this.changed();
  }

  /** Hold a question as a card until a button (or the turn's cancel) answers it. */
  #ask<R, C extends { id: number; answer(result: R): void }>(cards: C[], request: unknown, signal: AbortSignal, cancelled: R): Promise<R> {
    return new Promise<R>((resolve) => {
      const card = {
        id: ++this.#cardIds,
        request,
        answer: (result: R) => {
          const index = cards.indexOf(card as unknown as C);
          if (index === -1) return;
          cards.splice(index, 1);
          signal.removeEventListener("abort", onAbort);
          resolve(result);
          this.changed();
        },
      } as unknown as C;
      const onAbort = () => card.answer(cancelled);
      signal.addEventListener("abort", onAbort, { once: true });
      cards.push(card);
      this.changed();
    });
  }

  async #run(action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (error) {
      this.fail(error);
    }
    this.changed();
  }

  authenticate(methodId: string): Promise<void> {
    return this.#run(async () => {
      await this.#live().authenticate(methodId);
      this.wire.note(`authenticated with ${methodId}`);
    });
  }

  #live(): ConnectedAgent {
    if (this.connection === undefined || this.status !== "connected") throw new Error("not connected: press Initialize first");
    return this.connection;
  }

  // ── sessions ─────────────────────────────────────────────────────────────────────────────

  #adopt(session: ClientSession): void {
    const view: SessionView = { sessionId: session.sessionId, live: session, order: new TimelineOrder(), turnRunning: false };
    session.onUpdate(() => {
      // Stamped per update, so the timeline follows arrival even within one animation frame.
      view.order.stamp(session.state);
      this.changed();
    });
    this.sessions.set(session.sessionId, view);
    this.currentSessionId = session.sessionId;
  }

  newSession(cwd: string): Promise<void> {
    return this.#run(async () => this.#adopt(await this.#live().newSession({ cwd })));
  }

  loadSession(sessionId: string, cwd: string): Promise<void> {
    return this.#run(async () => this.#adopt(await this.#live().loadSession({ sessionId, cwd })));
  }

  resumeSession(sessionId: string, cwd: string): Promise<void> {
    return this.#run(async () => this.#adopt(await this.#live().resumeSession({ sessionId, cwd })));
  }

  listSessions(cwd?: string): Promise<void> {
    return this.#run(async () => {
      this.listed = (await this.#live().listSessions(cwd === undefined || cwd === "" ? {} : { cwd })).sessions;
    });
  }

  closeSession(sessionId: string): Promise<void> {
    return this.#run(async () => {
      await this.#live().closeSession(sessionId);
      this.sessions.delete(sessionId);
      if (this.currentSessionId === sessionId) this.currentSessionId = [...this.sessions.keys()].at(-1);
    });
  }

  select(sessionId: string): void {
    this.currentSessionId = sessionId;
    this.changed();
  }

  setMode(modeId: string): Promise<void> {
    return this.#run(async () => {
      await this.#currentLive().setMode(modeId);
    });
  }

  setConfigOption(configId: string, value: string | boolean): Promise<void> {
    return this.#run(async () => {
      await this.#currentLive().setConfigOption(configId, value);
    });
  }

  #currentLive(): ClientSession {
    const live = this.currentSession?.live;
    if (live === undefined) throw new Error("no live session: create or load one first");
    return live;
  }

  /** Send a prompt: text, and optionally one attached file as a resource or a resource_link. */
  prompt(text: string, attachment?: ContentBlock): void {
    const view = this.currentSession;
    void this.#run(async () => {
      const session = this.#currentLive();
      const blocks: ContentBlock[] = [];
      if (text !== "") blocks.push({ type: "text", text });
      if (attachment !== undefined) blocks.push(attachment);
      if (blocks.length === 0) throw new Error("nothing to send: type a prompt or attach a file");
      const turn = session.prompt(blocks);
      view!.turnRunning = true;
      view!.lastStopReason = undefined;
      view!.lastError = undefined;
      this.stateOf(view!); // the prompt itself comes first in the timeline
      this.changed();
      try {
        const outcome = await turn;
        view!.lastStopReason = outcome.stopReason;
      } catch (error) {
        view!.lastError = error instanceof Error ? error.message : String(error);
      } finally {
        view!.turnRunning = false;
      }
    });
  }

  /** Cancel the running turn: the client sends session/cancel and answers open questions cancelled. */
  cancel(): Promise<void> {
    return this.#run(async () => {
      await this.#currentLive().cancel();
    });
  }

  // ── transcripts and the tap ──────────────────────────────────────────────────────────────

  exportTranscript(): string {
    return this.wire.toTranscript();
  }

  importTranscript(text: string): void {
    void this.disconnect();
    this.reset("import");
    const result = replayTranscript(text, this.wire);
    for (const { sessionId, state, order } of result.sessions) {
      const view: SessionView = { sessionId, recorded: state, order, turnRunning: false };
      this.sessions.set(sessionId, view);
      this.currentSessionId = sessionId;
    }
    this.wire.note(importNote(result, this.wire.entries.length));
    this.changed();
  }

  /** Tap mode: follow the server's record of the editor ⇄ agent traffic. */
  followTap(): void {
    this.reset("tap");
    this.#tapReplayer = new SessionReplayer();
    const socket = new WebSocket(this.#socketUrl(EVENTS_PATH));
    socket.onmessage = (event) => this.#tapEvent(JSON.parse(String(event.data)) as TapEvent);
    socket.onclose = () => {
      this.wire.note("the tap's event stream closed (the inspector stopped)");
      this.changed();
    };
  }

  #tapEvent(event: TapEvent): void {
    if (event.type === "gap") {
      this.wire.dropped += event.missed;
      this.wire.note(`${event.missed} message(s) not shown (kept history exceeded, or the page fell behind)`, "warning");
    } else if (event.type === "status") {
      this.wire.note(event.message, "info", event.time);
    } else {
      this.wire.message(event.direction, event.text, event.bytes, event.time);
      if (event.text !== undefined) {
        try {
          this.#tapReplayer!.add(JSON.parse(event.text), event.direction);
        } catch {
          // Not JSON: the wire view already marks it.
        }
        for (const { sessionId, state, order } of this.#tapReplayer!.sessions()) {
          const view: SessionView = this.sessions.get(sessionId) ?? { sessionId, order, turnRunning: false };
          view.recorded = state;
          if (!this.sessions.has(sessionId)) {
            this.sessions.set(sessionId, view);
            this.currentSessionId ??= sessionId;
          }
        }
      }
    }
    this.changed();
  }
}
