// The turn, as SessionState holds it: messages and thoughts (thoughts collapsible), tool calls with
// their status, content, diffs and terminal output, plans with each entry's status, notices, and
// how the last turn ended. Items appear in the order they first arrived.
import type { ContentBlock, MessageJSON, PlanJSON, SessionState, TerminalJSON, ToolCallJSON } from "@acpkit/client";
import { TERMINAL_CONTENT_TYPE } from "@acpkit/core/bridge";
import type { Controller, SessionView } from "../controller.js";
import { diffLines } from "../diff.js";

type Item = { key: string; order: number } & (
  | { type: "message"; message: MessageJSON }
  | { type: "tool"; tool: ToolCallJSON }
  | { type: "plan"; plan: PlanJSON }
);

export function Timeline({ controller, view }: { controller: Controller; view: SessionView }) {
  const state = controller.stateOf(view);
  if (state === undefined) return null;
  const items: Item[] = [];
  for (const message of state.messages) items.push({ key: `m:${message.messageId}`, order: view.order.of(`m:${message.messageId}`), type: "message", message });
  for (const tool of state.toolCalls) items.push({ key: `t:${tool.toolCallId}`, order: view.order.of(`t:${tool.toolCallId}`), type: "tool", tool });
  for (const plan of state.plans) items.push({ key: `p:${plan.id}`, order: view.order.of(`p:${plan.id}`), type: "plan", plan });
  items.sort((a, b) => a.order - b.order);
  const turns = state.turns;
  return (
    <div class="timeline" data-testid="timeline">
      {state.notices.map((notice, index) => (
        <div key={`n${index}`} class={`notice severity-${notice.severity}`}>
          <strong>{notice.title}</strong> {notice.message}
        </div>
      ))}
      {items.map((item) =>
        item.type === "message" ? (
          <Message key={item.key} message={item.message} />
        ) : item.type === "tool" ? (
          <ToolCall key={item.key} tool={item.tool} state={state} />
        ) : (
          <Plan key={item.key} plan={item.plan} />
        ),
      )}
      <div class="turn-status">
        {view.turnRunning || state.turnInProgress ? (
          <span data-testid="turn-running">turn running…</span>
        ) : view.lastError !== undefined ? (
          <span class="failed" data-testid="turn-error">
            prompt failed: {view.lastError}
          </span>
        ) : turns.length > 0 ? (
          <span data-testid="stop-reason" data-stop-reason={view.lastStopReason ?? turns.at(-1)!.stopReason}>
            turn ended: {view.lastStopReason ?? turns.at(-1)!.stopReason}
          </span>
        ) : null}
      </div>
    </div>
  );
}

function Message({ message }: { message: MessageJSON }) {
  const body = <Blocks blocks={message.content} />;
  if (message.kind === "agent_thought") {
    return (
      <details class="message thought" open data-testid="thought">
        <summary>thought</summary>
        {body}
      </details>
    );
  }
  return (
    <div
      class={`message ${message.kind === "user_message" ? "user" : "agent"}`}
      data-testid={message.kind === "user_message" ? "user-message" : "agent-message"}
    >
      {body}
    </div>
  );
}

function Blocks({ blocks }: { blocks: readonly ContentBlock[] }) {
  // Consecutive text chunks read as one text.
  const parts: (string | ContentBlock)[] = [];
  for (const block of blocks) {
    if (block.type === "text" && typeof parts.at(-1) === "string") parts[parts.length - 1] += (block as { text: string }).text;
    else parts.push(block.type === "text" ? (block as { text: string }).text : block);
  }
  return (
    <div class="blocks">
      {parts.map((part, index) =>
        typeof part === "string" ? (
          <div key={index} class="text">
            {part}
          </div>
        ) : (
          <OtherBlock key={index} block={part} />
        ),
      )}
    </div>
  );
}

function OtherBlock({ block }: { block: ContentBlock }) {
  const raw = block as { type: string; uri?: string; name?: string; resource?: { uri?: string; text?: string }; mimeType?: string };
  switch (raw.type) {
    case "resource_link":
      return (
        <div class="attachment">
          🔗 resource link {raw.name ?? ""} <code>{raw.uri}</code>
        </div>
      );
    case "resource":
      return (
        <details class="attachment">
          <summary>
            📎 resource <code>{raw.resource?.uri}</code>
          </summary>
          <pre>{raw.resource?.text ?? "(binary)"}</pre>
        </details>
      );
    case "image":
    case "audio":
      return (
        <div class="attachment">
          [{raw.type} {raw.mimeType ?? ""}]
        </div>
      );
    default:
      return <pre class="attachment">{JSON.stringify(block, null, 2)}</pre>;
  }
}

function ToolCall({ tool, state }: { tool: ToolCallJSON; state: SessionState }) {
  const permission = state.permissions.find((entry) => entry.toolCallId === tool.toolCallId);
  return (
    <div class="tool-call" data-testid="tool-call" data-status={tool.status ?? "pending"}>
      <div class="tool-head">
        <span class={`status status-${tool.status ?? "pending"}`} data-testid="tool-status">
          {tool.status ?? "pending"}
        </span>{" "}
        <strong>{tool.title ?? tool.toolCallId}</strong> {tool.kind !== undefined && <span class="kind">{tool.kind}</span>}
      </div>
      {tool.locations !== undefined && tool.locations.length > 0 && (
        <div class="locations">
          {tool.locations.map((location, index) => (
            <code key={index}>
              {location.path}
              {location.line != null ? `:${location.line}` : ""}
            </code>
          ))}
        </div>
      )}
      {tool.content.map((content, index) => {
        const raw = content as { type: string; content?: ContentBlock; path?: string; oldText?: string | null; newText?: string; terminalId?: string };
        if (raw.type === "diff") return <Diff key={index} path={raw.path ?? ""} oldText={raw.oldText} newText={raw.newText ?? ""} />;
        // v1 terminal content is held in the model under acpkit's extension type.
        if (raw.type === "terminal" || raw.type === TERMINAL_CONTENT_TYPE)
          return <Terminal key={index} terminal={state.terminals.find((entry) => entry.terminalId === raw.terminalId)} id={raw.terminalId ?? ""} />;
        if (raw.type === "content" && raw.content !== undefined) return <Blocks key={index} blocks={[raw.content]} />;
        return <pre key={index}>{JSON.stringify(content, null, 2)}</pre>;
      })}
      {permission?.outcome !== undefined && (
        <div class="permission-outcome">
          permission: {permission.outcome.outcome === "selected" ? `selected ${(permission.outcome as { optionId: string }).optionId}` : "cancelled"}
        </div>
      )}
    </div>
  );
}

function Diff({ path, oldText, newText }: { path: string; oldText: string | null | undefined; newText: string }) {
  return (
    <div class="diff" data-testid="diff">
      <div class="diff-path">{path}</div>
      <pre>
        {diffLines(oldText, newText).map((line, index) => (
          <div key={index} class={`diff-${line.kind}`}>
            {line.kind === "added" ? "+ " : line.kind === "removed" ? "- " : "  "}
            {line.text}
          </div>
        ))}
      </pre>
    </div>
  );
}

function Terminal({ terminal, id }: { terminal: TerminalJSON | undefined; id: string }) {
  if (terminal === undefined) return <div class="terminal">terminal {id}</div>;
  return (
    <div class="terminal" data-testid="terminal">
      <div>
        $ {terminal.command} {terminal.args.join(" ")}
      </div>
      <pre>{terminal.output}</pre>
      {terminal.exitStatus !== null && (
        <div>exited {terminal.exitStatus.signal !== null ? `by ${terminal.exitStatus.signal}` : `with ${terminal.exitStatus.exitCode}`}</div>
      )}
    </div>
  );
}

function Plan({ plan }: { plan: PlanJSON }) {
  if (!("entries" in plan)) return <pre class="plan">{JSON.stringify(plan.raw, null, 2)}</pre>;
  return (
    <ol class="plan" data-testid="plan">
      {plan.entries.map((entry, index) => (
        <li key={index} data-status={entry.status}>
          <span class={`status status-${entry.status}`}>{entry.status}</span> {entry.content}
        </li>
      ))}
    </ol>
  );
}
