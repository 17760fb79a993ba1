// The page's layout: controls on the left, the session's turn in the middle, the wire on the right
// (stacked on a narrow window). Redraws whenever the controller says something changed.
import { useEffect, useReducer } from "preact/hooks";
import type { Controller } from "../controller.js";
import { Cards } from "./cards.js";
import { ConnectPanel } from "./connect-panel.js";
import { FilesPanel } from "./files-panel.js";
import { PromptBox } from "./prompt-box.js";
import { SessionBar } from "./session-bar.js";
import { SessionsPanel } from "./sessions-panel.js";
import { Timeline } from "./timeline.js";
import { TranscriptPanel } from "./transcript-panel.js";
import { WireView } from "./wire-view.js";

export function App({ controller }: { controller: Controller }) {
  const [, redraw] = useReducer((n: number, _action: undefined) => n + 1, 0);
  useEffect(() => controller.subscribe(() => redraw(undefined)), [controller]);
  const view = controller.currentSession;
  const readOnly = controller.source !== "live";
  return (
    <div class="page">
      <header class="topbar">
        <strong>acpkit inspect</strong>
        <code class="agent-command" title="the agent command">
          {controller.info.agentCommand.join(" ")}
        </code>
        <span class={`badge status-${controller.status}`} data-testid="connection-status">
          {controller.source === "tap" ? "tap (read-only)" : controller.source === "import" ? "imported transcript" : controller.status}
        </span>
      </header>
      {controller.error !== undefined && (
        <div class="error-bar" role="alert" data-testid="error">
          <span>{controller.error}</span>
          <button type="button" onClick={() => controller.dismissError()}>
            Dismiss
          </button>
        </div>
      )}
      <main class="layout">
        <aside class="side">
          {controller.info.mode === "inspect" && <ConnectPanel controller={controller} />}
          <SessionsPanel controller={controller} />
          <TranscriptPanel controller={controller} />
          <FilesPanel controller={controller} />
        </aside>
        <section class="turn" aria-label="session">
          {view === undefined ? (
            <p class="hint">
              {controller.info.mode === "tap"
                ? "Waiting for the client to open a session…"
                : "Initialize, then create or load a session. Or import a transcript to replay it."}
            </p>
          ) : (
            <>
              <SessionBar controller={controller} view={view} readOnly={readOnly} />
              <Timeline controller={controller} view={view} />
              {!readOnly && <Cards controller={controller} />}
              {!readOnly && <PromptBox controller={controller} view={view} />}
            </>
          )}
        </section>
        <section class="wire" aria-label="wire">
          <WireView controller={controller} />
        </section>
      </main>
    </div>
  );
}
