// Sessions: new, load, resume, list and close, and which open session the middle column shows.
import { useState } from "preact/hooks";
import type { Controller } from "../controller.js";

export function SessionsPanel({ controller }: { controller: Controller }) {
  const [cwd, setCwd] = useState(controller.info.cwd);
  const [sessionId, setSessionId] = useState("");
  const live = controller.source === "live" && controller.status === "connected";
  const caps = controller.connection?.agentCapabilities as { loadSession?: boolean; session?: Record<string, unknown> } | undefined;
  return (
    <section class="panel" aria-label="sessions">
      <h2>Sessions</h2>
      {live && (
        <>
          <label>
            cwd <input data-testid="cwd" value={cwd} onInput={(event) => setCwd((event.currentTarget as HTMLInputElement).value)} />
          </label>
          <div class="row">
            <button type="button" class="primary" data-testid="new-session" onClick={() => void controller.newSession(cwd)}>
              New session
            </button>
            <button type="button" data-testid="list-sessions" onClick={() => void controller.listSessions(cwd)}>
              List
            </button>
          </div>
          <label>
            session id <input data-testid="session-id" value={sessionId} onInput={(event) => setSessionId((event.currentTarget as HTMLInputElement).value)} />
          </label>
          <div class="row">
            <button type="button" disabled={sessionId === ""} onClick={() => void controller.loadSession(sessionId, cwd)}>
              Load
            </button>
            <button type="button" disabled={sessionId === ""} onClick={() => void controller.resumeSession(sessionId, cwd)}>
              Resume
            </button>
          </div>
          {caps !== undefined && (
            <p class="hint">
              agent: load {caps.loadSession ? "yes" : "no"}, {Object.keys(caps.session ?? {}).join(", ") || "no other session methods"}
            </p>
          )}
        </>
      )}
      {controller.listed !== undefined && (
        <ul class="listed" data-testid="listed-sessions">
          {controller.listed.length === 0 && <li class="hint">no sessions</li>}
          {controller.listed.map((entry) => (
            <li key={entry.sessionId}>
              <code>{entry.sessionId}</code> {entry.title ?? ""}
              <button type="button" onClick={() => void controller.loadSession(entry.sessionId, entry.cwd)}>
                Load
              </button>
              <button type="button" onClick={() => void controller.resumeSession(entry.sessionId, entry.cwd)}>
                Resume
              </button>
            </li>
          ))}
        </ul>
      )}
      <ul class="open-sessions" data-testid="open-sessions">
        {[...controller.sessions.values()].map((view) => (
          <li key={view.sessionId} class={view.sessionId === controller.currentSessionId ? "current" : ""}>
            <button type="button" class="link" onClick={() => controller.select(view.sessionId)}>
              {view.sessionId}
            </button>
            {view.live !== undefined && (
              <button type="button" onClick={() => void controller.closeSession(view.sessionId)}>
                Close
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
