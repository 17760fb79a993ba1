// The contract JSON form of a session's state (SessionStateJSON and the records in it): what
// `sessionStateToJSON` returns and what a SessionState's getters hand out.
import type { Meta } from "@acpkit/core";
import type { MessageKind } from "@acpkit/core";
import type { ProtocolVersion, v2 } from "@acpkit/schema";

/** A tool call's status as the client shows it: the wire status, or the local `cancelled` (docs/protocol.md C2). */
export type DisplayedToolCallStatus = v2.ToolCallStatus | "cancelled";

/** One message in the contract JSON form. */
export interface MessageJSON {
  messageId: string;
  kind: MessageKind;
  content: v2.ContentBlock[];
  _meta?: Meta;
}

/** One tool call in the contract JSON form. Fields never set, or cleared with `null`, are absent. */
export interface ToolCallJSON {
  toolCallId: string;
  title?: string;
  kind?: v2.ToolKind;
  status?: DisplayedToolCallStatus;
  content: v2.ToolCallContent[];
  locations?: v2.ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  /** The later v2 draft's programmatic tool name. */
  name?: string;
  /** The later v2 draft's client controls: `cancel` present means `cancelToolCall` may be sent. */
  capabilities?: ToolCallCapabilitiesJSON;
  _meta?: Meta;
}

/** A tool call's (or agent terminal's) client controls, as the later v2 draft advertises them. */
export interface ToolCallCapabilitiesJSON {
  cancel?: Record<string, unknown> | null;
  [key: string]: unknown;
}

/** One piece of work a later-v2 agent runs apart from the turn's foreground, as its latest `state_update` listed it. */
export type BackgroundWorkJSON =
  | { type: "tool_call"; toolCallId: string }
  | { type: "terminal"; terminalId: string }
  | { type: string; [key: string]: unknown };

/** A terminal the agent runs itself and shows to the client (later v2 draft: `terminal_update`, `terminal_output_chunk`). */
export interface AgentTerminalJSON {
  terminalId: string;
  command?: string;
  cwd?: string;
  /** The output so far, decoded as UTF-8 (at most MAX_AGENT_TERMINAL_OUTPUT characters: the newest). */
  output: string;
  /** How many older output characters were let go to keep `output` bounded. */
  outputDropped: number;
  /** Set once the command ended. */
  exitStatus?: { exitCode?: number | null; signal?: string | null };
  capabilities?: ToolCallCapabilitiesJSON;
}

/**
 * What a later-v2 agent reported of its activity. `state` is the foreground state of its latest
 * `state_update` (`running`, `requires_action`, `idle`, or a newer value); `background` that
 * update's snapshot (`null`: not reported); `agentTerminals` its agent-owned terminals.
 */
export interface ActivityJSON {
  state?: string;
  background: BackgroundWorkJSON[] | null;
  agentTerminals: AgentTerminalJSON[];
}

/** A plan: its entries, or for a plan of unknown type (docs/protocol.md P3) its type and raw payload. */
export type PlanJSON = { id: string; entries: v2.PlanEntry[] } | { id: string; type: string; raw: v2.PlanUpdateContent };

/** Context-window usage from the latest `usage_update`. */
export interface UsageJSON {
  used: number;
  size: number;
  cost?: v2.Cost;
}

/** A permission request; `outcome` is absent while the request is unanswered. */
export interface PermissionJSON {
  toolCallId: string;
  options: v2.PermissionOption[];
  outcome?: v2.RequestPermissionOutcome;
}

/** The session's modes: present once the agent reported any (v1 only). */
export interface ModesJSON {
  currentModeId: string;
  availableModes: { id: string; name: string; description?: string | null }[];
}

/** What the session's title and last activity are, from `session_info_update` (fields never sent are absent). */
export interface SessionInfoJSON {
  title?: string;
  updatedAt?: string;
}

/** A command the agent ran in a client terminal, as the client last saw it. */
export interface TerminalJSON {
  terminalId: string;
  command: string;
  args: string[];
  output: string;
  truncated: boolean;
  /** `null` while the command runs. */
  exitStatus: { exitCode: number | null; signal: string | null } | null;
}

/** A notice the agent showed (v1 `notice`). */
export interface NoticeJSON {
  severity: string;
  title: string;
  message?: string;
}

/** A context compaction (v1 `compaction_update` and `compaction_summary_chunk`), by id in first-appearance order. */
export interface CompactionJSON {
  compactionId: string;
  status: string;
  summary: v2.ContentBlock[];
  error?: string;
}

/** One finished turn. */
export interface TurnJSON {
  stopReason: v2.StopReason;
}

/** The JSON form of a SessionState: a public contract (the CLI prints it with `--json`). */
export interface SessionStateJSON {
  sessionId: string;
  protocolVersion: ProtocolVersion;
  messages: MessageJSON[];
  toolCalls: ToolCallJSON[];
  plans: PlanJSON[];
  usage: UsageJSON | null;
  permissions: PermissionJSON[];
  turns: TurnJSON[];
  /** Absent if the agent has no modes. */
  modes?: ModesJSON;
  /** Current values, wire shape. */
  configOptions: v2.SessionConfigOption[];
  availableCommands: v2.AvailableCommand[];
  /** Absent if no `session_info_update` arrived. */
  sessionInfo?: SessionInfoJSON;
  terminals: TerminalJSON[];
  notices: NoticeJSON[];
  compactions: CompactionJSON[];
  /** Absent until a later-v2 agent reports its activity (state_update, terminal_update). */
  activity?: ActivityJSON;
}
