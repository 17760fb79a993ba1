// The wire: every JSON-RPC message both ways with time and direction, filterable by method and
// update kind, each marked with its schema problems (by JSON path); notes (diagnostics, lossy
// conversions, tap status) in between. Only the newest matching rows are drawn, so a long session
// keeps the page responsive; the count says how many match.
import { useState } from "preact/hooks";
import type { Controller } from "../controller.js";
import type { WireEntry, WireMessage } from "../wire-log.js";

/** Rows drawn at most. */
const MAX_ROWS = 400;

export function WireView({ controller }: { controller: Controller }) {
  const [filter, setFilter] = useState("");
  const [problemsOnly, setProblemsOnly] = useState(false);
  const [showNotes, setShowNotes] = useState(true);
  const wire = controller.wire;
  const needle = filter.trim().toLowerCase();
  const matches = (entry: WireEntry): boolean => {
    if (entry.type === "note") return showNotes && !problemsOnly && (needle === "" || entry.text.toLowerCase().includes(needle));
    if (problemsOnly && entry.problems.length === 0) return false;
    return needle === "" || entry.method.toLowerCase().includes(needle) || (entry.updateKind ?? "").toLowerCase().includes(needle);
  };
  const shown: WireEntry[] = [];
  let count = 0;
  for (let i = wire.entries.length - 1; i >= 0; i--) {
    const entry = wire.entries[i]!;
    if (!matches(entry)) continue;
    count++;
    if (shown.length < MAX_ROWS) shown.push(entry);
  }
  shown.reverse();
  const problems = wire.entries.reduce((sum, entry) => sum + (entry.type === "message" && entry.problems.length > 0 ? 1 : 0), 0);
  return (
    <div class="wire-view">
      <div class="wire-controls">
        <input
          data-testid="wire-filter"
          placeholder="filter: method or update kind"
          value={filter}
          onInput={(event) => setFilter((event.currentTarget as HTMLInputElement).value)}
        />
        <label>
          <input type="checkbox" checked={problemsOnly} onChange={(event) => setProblemsOnly((event.currentTarget as HTMLInputElement).checked)} /> problems
          only
        </label>
        <label>
          <input type="checkbox" checked={showNotes} onChange={(event) => setShowNotes((event.currentTarget as HTMLInputElement).checked)} /> notes
        </label>
      </div>
      <div class="wire-summary" data-testid="wire-summary">
        {count} shown{count > shown.length ? ` (newest ${shown.length} drawn)` : ""} · {problems} with problems
        {wire.dropped > 0 ? ` · ${wire.dropped} older not kept` : ""}
      </div>
      <ol class="wire-rows" data-testid="wire-rows">
        {shown.map((entry) =>
          entry.type === "note" ? <Note key={entry.seq} text={entry.text} level={entry.level} time={entry.time} /> : <Row key={entry.seq} entry={entry} />,
        )}
      </ol>
    </div>
  );
}

function clock(time: number): string {
  const date = new Date(time);
  return `${date.toTimeString().slice(0, 8)}.${String(date.getMilliseconds()).padStart(3, "0")}`;
}

function Note({ text, level, time }: { text: string; level: string; time: number }) {
  return (
    <li class={`wire-note ${level}`} data-testid="wire-note">
      <span class="time">{clock(time)}</span> {text}
    </li>
  );
}

function Row({ entry }: { entry: WireMessage }) {
  const [open, setOpen] = useState(false);
  const outgoing = entry.direction === "client_to_agent";
  return (
    <li
      class={`wire-row ${outgoing ? "out" : "in"} ${entry.problems.length > 0 ? "has-problems" : ""}`}
      data-testid="wire-row"
      data-direction={entry.direction}
      data-method={entry.method}
      data-update-kind={entry.updateKind ?? ""}
      data-problems={entry.problems.length}
    >
      <button type="button" class="wire-line" onClick={() => setOpen(!open)} aria-expanded={open}>
        <span class="time">{clock(entry.time)}</span>
        <span class="dir" title={outgoing ? "client → agent" : "agent → client"}>
          {outgoing ? "→" : "←"}
        </span>
        <span class="shape">{entry.shape}</span>
        <span class="method">{entry.method || "?"}</span>
        {entry.updateKind !== undefined && <span class="update-kind">{entry.updateKind}</span>}
        {entry.id !== undefined && <span class="id">#{String(entry.id)}</span>}
        <span class="bytes">{entry.bytes} B</span>
      </button>
      {entry.problems.length > 0 && (
        <ul class="problems">
          {entry.problems.map((problem, index) => (
            <li key={index} data-testid="problem">
              <code>{problem.path === "" ? "(message)" : problem.path}</code> {problem.message}
            </li>
          ))}
        </ul>
      )}
      {open && <pre class="json">{entry.text === undefined ? "(too long to show)" : pretty(entry.text)}</pre>}
    </li>
  );
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
