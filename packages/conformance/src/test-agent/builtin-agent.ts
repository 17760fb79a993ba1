// The built-in test agent: one AgentDefinition for `acpkit agent` (stdio) and for in-process use.
// An ordinary prompt plays the demo turn, a prompt starting with "/" runs a slash command, and
// with a script every prompt replays the script instead.
import { readFileSync } from "node:fs";
import type { AgentDefinition, PromptResult, AgentTurn } from "@acpkit/agent";
import { ErrorCode, RpcError } from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";
import { availableCommandList, parseCommand, runCommand } from "./commands.js";
import { BUILTIN_AUTH_METHODS, BUILTIN_CONFIG_OPTIONS, BUILTIN_MODES } from "./session-features.js";
import { DEMO_PACE_MS, playDemoTurn } from "./demo-turn.js";
import type { AgentScript } from "./script.js";
import { playScript } from "./script-runner.js";
import { memorySessionStore, type SessionStore, type StoredSession } from "./session-store.js";
import { promptText } from "./text.js";

/** Options of `createBuiltinAgent`. */
export interface BuiltinAgentOptions {
  /** Highest protocol version: 1 answers every client with v1; 2 (default) speaks 1 and 2. */
  maxProtocol?: ProtocolVersion;
  /** Replay this script for every prompt (slash commands and the demo turn are off). */
  script?: AgentScript;
  /** Pause between the demo turn's stages in ms (default 40); 0 makes it instant. */
  demoPaceMs?: number;
  /**
   * Pause between the chunks of `/stream` and `/echo` in ms (default 0), so a person or a test can
   * watch a turn stream and cancel it mid-way.
   */
  chunkDelayMs?: number;
  /**
   * Where sessions are kept (default: in memory, ids sess_1, sess_2, …). `folderSessionStore(dir)`
   * keeps them in files, so a new process answers session/list, load and resume for them
   * (`acpkit agent --store DIR`).
   */
  store?: SessionStore;
}

function packageVersion(): string {
  try {
    // src/agent/*.ts and dist/agent/*.js both sit two levels below the package root.
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
}

/** Largest number of turns a session keeps for replay (older ones are let go). */
const MAX_STORED_TURNS = 1000;

function unknownSession(sessionId: string): RpcError {
  return new RpcError(ErrorCode.ResourceNotFound, `Unknown session "${sessionId}"`, { sessionId });
}

/**
 * The built-in agent's definition, for `serveAgent`. Sessions get ids `sess_1`, `sess_2`, … per
 * definition, so serve one definition per connection for reproducible transcripts. It serves
 * every agent method: sessions are kept in memory for list, load, resume and delete.
 *
 * ```ts
 * serveAgent(stdioServer(), createBuiltinAgent({ maxProtocol: 2 }));
 * ```
 */
export function createBuiltinAgent(options: BuiltinAgentOptions = {}): AgentDefinition {
  const maxProtocol = options.maxProtocol ?? 2;
  if (maxProtocol !== 1 && maxProtocol !== 2) throw new RangeError(`createBuiltinAgent: maxProtocol must be 1 or 2 (got ${String(maxProtocol)})`);
  const paceMs = options.demoPaceMs ?? DEMO_PACE_MS;
  const script = options.script;
  const stored = options.store ?? memorySessionStore();
  const setup = () => ({ availableCommands: availableCommandList() });
  /** How a stored session starts out again (load, resume): its commands, its mode and config values. */
  const restored = (session: StoredSession) => ({
    ...setup(),
    ...(session.modeId === undefined ? {} : { modes: { ...BUILTIN_MODES, currentModeId: session.modeId } }),
    ...(session.config === undefined
      ? {}
      : {
          configOptions: BUILTIN_CONFIG_OPTIONS.map((option) =>
            option.id in session.config! ? { ...option, currentValue: session.config![option.id] } : option,
          ) as typeof BUILTIN_CONFIG_OPTIONS,
        }),
  });

  return {
    info: { name: "acpkit-agent", title: "acpkit built-in agent", version: packageVersion() },
    versions: maxProtocol === 1 ? [1] : [1, 2],
    features: { loadSession: true, prompt: { embeddedContext: true } },
    modes: BUILTIN_MODES,
    configOptions: BUILTIN_CONFIG_OPTIONS,
    authMethods: BUILTIN_AUTH_METHODS,
    authenticate() {
      // Accepts everyone: the method exists so clients can exercise authenticate.
    },
    logout() {},
    newSession(request) {
      const sessionId = stored.newId();
      stored.save({ sessionId, cwd: request.cwd, title: null, updatedAt: new Date().toISOString(), turns: [] });
      return { sessionId, ...setup() };
    },
    setMode(request) {
      const session = stored.get(request.sessionId);
      if (session) stored.save({ ...session, modeId: request.modeId, updatedAt: new Date().toISOString() });
    },
    setConfigOption(request) {
      const session = stored.get(request.sessionId);
      if (session)
        stored.save({ ...session, config: { ...session.config, [request.configId]: request.value as string | boolean }, updatedAt: new Date().toISOString() });
    },
    loadSession(request, replay) {
      const session = stored.get(request.sessionId);
      if (!session) throw unknownSession(request.sessionId);
      for (const turn of session.turns) {
        replay.userMessage(turn.prompt);
        replay.message(`(this turn ended with ${turn.stopReason})`);
      }
      return restored(session);
    },
    resumeSession(request) {
      const session = stored.get(request.sessionId);
      if (!session) throw unknownSession(request.sessionId);
      return restored(session);
    },
    listSessions(request) {
      const sessions = stored
        .all()
        .filter((session) => request.cwd === null || session.cwd === request.cwd)
        .map((session) =>
          session.title === null
            ? { sessionId: session.sessionId, cwd: session.cwd, updatedAt: session.updatedAt }
            : { sessionId: session.sessionId, cwd: session.cwd, title: session.title, updatedAt: session.updatedAt },
        );
      return { sessions };
    },
    deleteSession(request) {
      if (!stored.delete(request.sessionId)) throw unknownSession(request.sessionId);
    },
    async prompt(turn: AgentTurn): Promise<PromptResult> {
      const session = stored.get(turn.sessionId);
      const cwd = session?.cwd ?? process.cwd();
      const text = promptText(turn.prompt);
      const result = await answer(turn, cwd, text);
      if (session) {
        const stopReason = turn.cancelled ? "cancelled" : typeof result === "string" ? result : (result?.stopReason ?? "end_turn");
        session.turns.push({ prompt: text, stopReason });
        if (session.turns.length > MAX_STORED_TURNS) session.turns.shift();
        session.updatedAt = new Date().toISOString();
        const title = text.match(/^\s*\/title\s+(.+)$/)?.[1];
        if (title !== undefined) session.title = title.trim();
        // A /mode or /config command changes them inside the turn, not through setMode/setConfigOption.
        // The session's mode and values as the turn left them (back to a default value too).
        const modeId = turn.modes?.currentModeId;
        if (modeId !== undefined) session.modeId = modeId;
        if (turn.configOptions.length > 0)
          session.config = Object.fromEntries(turn.configOptions.map((option) => [option.id, option.currentValue as string | boolean]));
        stored.save(session);
      }
      return result;
    },
  };

  function answer(turn: AgentTurn, cwd: string, text: string): PromptResult | Promise<PromptResult> {
    if (script) return playScript(turn, script, cwd);
    const command = parseCommand(text);
    if (command) return runCommand({ turn, cwd, chunkDelayMs: options.chunkDelayMs ?? 0 }, command.name, command.argument);
    return playDemoTurn(turn, { cwd, text, paceMs });
  }
}
