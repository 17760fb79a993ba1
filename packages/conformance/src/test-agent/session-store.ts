// Where the built-in agent keeps its sessions: in memory (the default: they end with the process),
// or in a folder (`acpkit agent --store DIR`), one JSON file a session, so that a new process of
// the agent answers session/list and loads or resumes them, as real agents do with their session
// files. A file is written whole to a temporary name and renamed over the old one, so a process
// killed mid-write leaves the previous version, never half of one.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What the built-in agent remembers of a session, for session/list, load and resume. */
export interface StoredSession {
  sessionId: string;
  cwd: string;
  title: string | null;
  updatedAt: string;
  /** Each turn's prompt and how it ended, replayed by session/load. */
  turns: { prompt: string; stopReason: string }[];
  /** The session's current mode, once it was set (by set_mode or a turn). */
  modeId?: string;
  /** The config option values as last set, by option id. */
  config?: Record<string, string | boolean>;
}

/** The sessions of one built-in agent. */
export interface SessionStore {
  /** The session with this id, if the store has it. */
  get(sessionId: string): StoredSession | undefined;
  /** Whether the store has a session with this id. */
  has(sessionId: string): boolean;
  /** Every session, in no particular order. */
  all(): StoredSession[];
  /** Keep (or replace) a session; call again after changing one. */
  save(session: StoredSession): void;
  /** Forget a session (and its file); false when there was none. */
  delete(sessionId: string): boolean;
  /** A session id no other session (of this store, in any process sharing its folder) has. */
  newId(): string;
}

/** Sessions in memory, with ids sess_1, sess_2, … (reproducible transcripts). */
export function memorySessionStore(): SessionStore {
  const sessions = new Map<string, StoredSession>();
  let count = 0;
  return {
    get: (id) => sessions.get(id),
    has: (id) => sessions.has(id),
    all: () => [...sessions.values()],
    save: (session) => void sessions.set(session.sessionId, session),
    delete: (id) => sessions.delete(id),
    newId: () => `sess_${++count}`,
  };
}

/** A session id that is safe as a file name: what the store wrote itself. */
const FILE_ID = /^sess_[A-Za-z0-9_-]{1,64}$/;

/**
 * Sessions in `dir` (created if missing), one `<sessionId>.json` a session, read when the store
 * is made and written on every change. Ids are random (`sess_<12 hex>`), since several processes
 * may share the folder. A file that cannot be read as a session is skipped, with `onProblem` told.
 */
export function folderSessionStore(dir: string, onProblem: (message: string) => void = () => {}): SessionStore {
  mkdirSync(dir, { recursive: true });
  const sessions = new Map<string, StoredSession>();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".json")) continue;
    const id = name.slice(0, -".json".length);
    if (!FILE_ID.test(id)) continue;
    try {
      const session = JSON.parse(readFileSync(join(dir, name), "utf8")) as StoredSession;
      if (session.sessionId !== id || typeof session.cwd !== "string" || !Array.isArray(session.turns)) throw new Error("not a stored session");
      sessions.set(id, session);
    } catch (error) {
      onProblem(`skipped ${join(dir, name)}: ${(error as Error).message}`);
    }
  }
  const fileOf = (id: string) => join(dir, `${id}.json`);
  return {
    get: (id) => sessions.get(id),
    has: (id) => sessions.has(id),
    all: () => [...sessions.values()],
    save(session) {
      sessions.set(session.sessionId, session);
      const temporary = `${fileOf(session.sessionId)}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(session));
      renameSync(temporary, fileOf(session.sessionId));
    },
    delete(id) {
      if (!sessions.delete(id)) return false;
      rmSync(fileOf(id), { force: true });
      return true;
    },
    newId: () => `sess_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`,
  };
}
