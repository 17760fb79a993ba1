// An agent whose sessions outlive its process, behind a login: `authenticate` must succeed before
// any session, `session/load` replays a stored session's history, `session/resume` reopens one
// without replay, and `session/list` lists them. Sessions are JSON files in SESSIONS_DIR (default:
// ./sessions), so a new process of this agent loads what an earlier one stored.
//
//   SESSIONS_DIR=/tmp/sessions ECHO_AGENT_KEY=secret npx tsx typed/session-agent.ts
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serveAgent, type SessionWriter } from "@acpkit/agent";
import { ErrorCode, RpcError } from "@acpkit/core";
import { stdioServer } from "@acpkit/transport-stdio";

interface StoredSession {
  sessionId: string;
  cwd: string;
  title: string;
  exchanges: { prompt: string; answer: string }[];
}

const dir = process.env.SESSIONS_DIR ?? "sessions";
mkdirSync(dir, { recursive: true });
// A session id becomes a file name: only ids this agent made (sess_<uuid>) are read.
const fileOf = (sessionId: string): string => {
  if (!/^sess_[0-9a-f-]{36}$/.test(sessionId)) throw new RpcError(ErrorCode.ResourceNotFound, `no session ${JSON.stringify(sessionId)}`);
  return join(dir, `${sessionId}.json`);
};

function read(sessionId: string): StoredSession {
  try {
    return JSON.parse(readFileSync(fileOf(sessionId), "utf8")) as StoredSession;
  } catch (error) {
    if (error instanceof RpcError) throw error;
    throw new RpcError(ErrorCode.ResourceNotFound, `no session ${JSON.stringify(sessionId)}`);
  }
}

const write = (session: StoredSession): void => writeFileSync(fileOf(session.sessionId), JSON.stringify(session));

function replay(writer: SessionWriter, session: StoredSession): void {
  for (const { prompt, answer } of session.exchanges) {
    writer.userMessage(prompt);
    writer.message(answer);
  }
  writer.sessionInfo({ title: session.title });
}

serveAgent(stdioServer(), {
  info: { name: "session-agent", version: "1.0.0" },
  features: { loadSession: true },
  authMethods: [{ id: "agent-key", name: "Agent key", description: "The key in ECHO_AGENT_KEY" }],
  requireAuthentication: true,
  authenticate(methodId) {
    if (methodId !== "agent-key" || !process.env.ECHO_AGENT_KEY) throw new RpcError(ErrorCode.AuthRequired, "set ECHO_AGENT_KEY to log in");
  },

  newSession(request) {
    const sessionId = `sess_${crypto.randomUUID()}`;
    write({ sessionId, cwd: request.cwd, title: "New session", exchanges: [] });
    return { sessionId };
  },
  loadSession(request, writer) {
    replay(writer, read(request.sessionId));
  },
  resumeSession(request) {
    read(request.sessionId); // refuses an unknown id; the client already has the history
  },
  listSessions(request) {
    const sessions = readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .map((name) => read(name.slice(0, -".json".length)))
      .filter((session) => request.cwd === undefined || request.cwd === null || session.cwd === request.cwd);
    return { sessions: sessions.map(({ sessionId, cwd, title }) => ({ sessionId, cwd, title })) };
  },

  async prompt(turn) {
    const text = turn.prompt.map((block) => (block.type === "text" ? block.text : "")).join(" ");
    const session = read(turn.sessionId);
    const answer = `Echo #${session.exchanges.length + 1}: ${text}`;
    turn.message(answer);
    session.exchanges.push({ prompt: text, answer });
    if (session.exchanges.length === 1) {
      session.title = text.slice(0, 40);
      turn.sessionInfo({ title: session.title });
    }
    write(session);
    return "end_turn";
  },
});
