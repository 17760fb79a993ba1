// The requirement registry: every requirement the kit judges, as typed data. Ids shared with
// acp-tck keep its names (ACP-PROMPT-001, ACP-CANCEL-001) so results compare; the rest are
// acpkit's. `group` names the one module that judges the id (agent/groups/*.ts,
// client/judges/*.ts); a test holds every id to exactly one judge. docs/conformance.md lists them.

/** MUST: a failure means not conformant. CAPABILITY: judged only when advertised, then it counts like a MUST. SHOULD: reported. INFO: recorded. */
export type Tier = "MUST" | "CAPABILITY" | "SHOULD" | "INFO";

/** Which side of the protocol a requirement is about. */
export type Side = "agent" | "client";

/** One requirement: what must hold, how much it weighs, and where the rule comes from. */
export interface Requirement<Id extends string = RequirementId> {
  id: Id;
  tier: Tier;
  /** The group of checks that judges it (one module each). */
  group: string;
  /** For a CAPABILITY requirement: what the peer must advertise for it to be judged. */
  capability?: string;
  /** What must hold, in one sentence. */
  text: string;
  /** The rule in docs/protocol.md (or JSON-RPC 2.0) it comes from. */
  citation: string;
}

interface RequirementRow {
  readonly id: string;
  readonly tier: Tier;
  readonly group: string;
  readonly capability?: string;
  readonly text: string;
  readonly citation: string;
}

const AGENT_ROWS = [
  {
    id: "ACPKIT-STDIO-001",
    tier: "MUST",
    group: "wire",
    text: "Every line the agent writes on stdout is one JSON-RPC 2.0 message (nothing else: logs go to stderr).",
    citation: "docs/protocol.md S3, S5",
  },
  { id: "ACPKIT-STDIO-002", tier: "MUST", group: "wire", text: "Everything on stdout is valid UTF-8.", citation: "docs/protocol.md S2" },
  {
    id: "ACPKIT-INIT-001",
    tier: "MUST",
    group: "protocol",
    text: "initialize is answered with an integer protocolVersion (the offered one when the agent speaks it).",
    citation: "docs/protocol.md N1, N3",
  },
  {
    id: "ACPKIT-INIT-002",
    tier: "MUST",
    group: "negotiation",
    text: "An unknown future protocolVersion (65535) is not echoed: the agent answers the latest version it supports.",
    citation: "docs/protocol.md N3",
  },
  {
    id: "ACPKIT-RPC-001",
    tier: "MUST",
    group: "protocol",
    text: "Response ids echo the request ids exactly (a unicode string id, a large integer id).",
    citation: "JSON-RPC 2.0 §5",
  },
  { id: "ACPKIT-RPC-002", tier: "MUST", group: "wire", text: "Every response carries exactly one of result and error.", citation: "JSON-RPC 2.0 §5" },
  { id: "ACPKIT-RPC-003", tier: "MUST", group: "protocol", text: "Notifications are never answered.", citation: "JSON-RPC 2.0 §4.1" },
  {
    id: "ACPKIT-RPC-004",
    tier: "MUST",
    group: "protocol",
    text: "A request for a method that does not exist gets -32601.",
    citation: "docs/protocol.md D2, D3",
  },
  {
    id: "ACPKIT-RPC-005",
    tier: "MUST",
    group: "protocol",
    text: "A line that is not JSON gets -32700 with id null.",
    citation: "JSON-RPC 2.0 §5.1; docs/protocol.md S8",
  },
  { id: "ACPKIT-RPC-006", tier: "MUST", group: "protocol", text: "An invalid request object gets -32600.", citation: "JSON-RPC 2.0 §5.1" },
  { id: "ACPKIT-RPC-007", tier: "MUST", group: "protocol", text: "The connection stays usable after those errors.", citation: "docs/protocol.md S8" },
  {
    id: "ACPKIT-RPC-008",
    tier: "SHOULD",
    group: "protocol",
    text: "A `_`-prefixed extension request gets an answer (a result or -32601).",
    citation: "docs/protocol.md D3",
  },
  {
    id: "ACPKIT-RPC-009",
    tier: "MUST",
    group: "wire",
    text: "No request is answered twice: no more responses carry an id than requests were sent with it.",
    citation: "JSON-RPC 2.0 §5; docs/protocol.md E9",
  },
  {
    id: "ACPKIT-SESSION-001",
    tier: "MUST",
    group: "turn",
    text: "session/new returns a session id, a different one each time.",
    citation: "docs/protocol.md D1",
  },
  {
    id: "ACP-PROMPT-001",
    tier: "MUST",
    group: "turn",
    text: "session/prompt ends with a stop reason of the negotiated version.",
    citation: "docs/protocol.md §4.6",
  },
  {
    id: "ACPKIT-UPDATE-001",
    tier: "MUST",
    group: "turn",
    text: "Every session/update sent during a turn is valid for the negotiated version and names a session the client opened.",
    citation: "docs/protocol.md §4.2",
  },
  {
    id: "ACPKIT-ORDER-001",
    tier: "MUST",
    group: "turn",
    text: "No update of a turn arrives after the turn's session/prompt response (session-level updates such as available_commands_update may come at any time).",
    citation: "docs/protocol.md O1, O5",
  },
  {
    id: "ACP-CANCEL-001",
    tier: "MUST",
    group: "turn",
    text: "After session/cancel the turn ends with stopReason cancelled (never an error).",
    citation: "docs/protocol.md C7",
  },
  {
    id: "ACPKIT-CAP-001",
    tier: "MUST",
    group: "wire",
    text: "The agent sends no fs/* or terminal/* request to a client that did not advertise them.",
    citation: "docs/protocol.md §4.10, J1",
  },
  { id: "ACPKIT-EXIT-001", tier: "SHOULD", group: "protocol", text: "The agent exits within 5 s after its stdin closes.", citation: "docs/protocol.md S7" },
  {
    id: "ACPKIT-CAP-LOAD",
    tier: "CAPABILITY",
    group: "capabilities",
    capability: "loadSession (v1) / session.load (v2)",
    text: "With loadSession advertised, session/load of a session it created is answered with a result.",
    citation: "docs/protocol.md §2",
  },
  {
    id: "ACPKIT-CAP-LIST",
    tier: "CAPABILITY",
    group: "capabilities",
    capability: "session list",
    text: "With session list advertised, session/list answers a valid page.",
    citation: "docs/protocol.md H5",
  },
  {
    id: "ACPKIT-CAP-CLOSE",
    tier: "CAPABILITY",
    group: "capabilities",
    capability: "session close",
    text: "With session close advertised, session/close of an idle session is answered with a result.",
    citation: "docs/protocol.md H4",
  },
  {
    id: "ACPKIT-CAP-RESUME",
    tier: "CAPABILITY",
    group: "capabilities",
    capability: "session resume",
    text: "With session resume advertised, session/resume of a session it created is answered with a result.",
    citation: "docs/protocol.md H6",
  },
  {
    id: "ACPKIT-CAP-DELETE",
    tier: "CAPABILITY",
    group: "capabilities",
    capability: "session delete",
    text: "With session delete advertised, session/delete of a session it created is answered with a result.",
    citation: "docs/protocol.md §4.12",
  },
  {
    id: "ACPKIT-CAP-PROMPT",
    tier: "CAPABILITY",
    group: "capabilities",
    capability: "prompt content beyond text and resource_link",
    text: "A prompt with the content types the agent advertises (image, audio, embedded resources) is not refused with -32602.",
    citation: "docs/protocol.md §1.3",
  },
  {
    id: "ACPKIT-CAP-MODES",
    tier: "CAPABILITY",
    group: "capabilities",
    capability: "modes in the session/new result",
    text: "With modes in the session/new result, session/set_mode to another listed mode succeeds.",
    citation: "docs/protocol.md H1",
  },
  {
    id: "ACPKIT-CAP-CONFIG",
    tier: "CAPABILITY",
    group: "capabilities",
    capability: "a select config option in the session/new result",
    text: "With config options in the session/new result, setting a select option to another value answers every option.",
    citation: "docs/protocol.md H2",
  },
  {
    id: "ACPKIT-INFO-AGENT",
    tier: "INFO",
    group: "protocol",
    text: "What the agent says about itself: agentInfo, capabilities, authentication methods.",
    citation: "docs/protocol.md §1.3",
  },
  {
    id: "LATER-INIT-001",
    tier: "MUST",
    group: "later-v2",
    text: "An agent that answers the later v2 draft's initialize (info) answers with info and the highest version it supports at or below the requested one.",
    citation: "docs/protocol.md A1, A2",
  },
  {
    id: "LATER-INIT-002",
    tier: "MUST",
    group: "later-v2",
    text: "A later-draft initialize for a version below every supported one is answered -32022 with data {requested, supported}.",
    citation: "docs/protocol.md A2",
  },
  {
    id: "LATER-INIT-003",
    tier: "MUST",
    group: "later-v2",
    text: "A failed initialize leaves the connection open: the next initialize on it is answered.",
    citation: "docs/protocol.md A2",
  },
  {
    id: "LATER-RPC-001",
    tier: "MUST",
    group: "later-v2",
    text: "A JSON-RPC batch (an array) is answered with one -32600 whose id is null, and none of its requests is run.",
    citation: "docs/protocol.md A6",
  },
  {
    id: "LATER-PROMPT-001",
    tier: "MUST",
    group: "later-v2",
    text: "session/prompt is answered with an insertion receipt ({messageId}; {} from drafts before alpha.5), and the turn ends with a state_update idle that carries its stopReason.",
    citation: "docs/protocol.md A3",
  },
  {
    id: "LATER-CANCEL-001",
    tier: "MUST",
    group: "later-v2",
    text: "session/cancel during a turn is confirmed by a state_update idle with stopReason cancelled.",
    citation: "docs/protocol.md A3",
  },
  {
    id: "LATER-TOOL-001",
    tier: "CAPABILITY",
    group: "later-v2",
    capability: "a tool call with capabilities.cancel",
    text: "tool_call/cancel of a tool call that advertises capabilities.cancel is accepted, and the call then reaches a final status.",
    citation: "docs/protocol.md A10",
  },
  {
    id: "LATER-AUTH-001",
    tier: "CAPABILITY",
    group: "later-v2",
    capability: "authMethods",
    text: "An agent that lists authMethods serves auth/login (an unknown methodId is refused, not answered -32601).",
    citation: "docs/protocol.md A7",
  },
] as const satisfies readonly RequirementRow[];

const CLIENT_ROWS = [
  {
    id: "ACPKIT-CLIENT-STDIO-001",
    tier: "MUST",
    group: "client-wire",
    text: "Every line the client writes to the agent is one JSON-RPC 2.0 message.",
    citation: "docs/protocol.md S3, S5",
  },
  {
    id: "ACPKIT-CLIENT-INIT-001",
    tier: "MUST",
    group: "basic",
    text: "initialize comes first, with an integer protocolVersion and params valid for that version.",
    citation: "docs/protocol.md N1, N2, N7",
  },
  {
    id: "ACPKIT-CLIENT-INIT-002",
    tier: "MUST",
    group: "lower-version",
    text: "When the agent answers a lower version, the client goes on in that version's shapes (or closes).",
    citation: "docs/protocol.md N3–N5",
  },
  {
    id: "ACPKIT-CLIENT-SESSION-001",
    tier: "MUST",
    group: "basic",
    text: "session/new params are valid: an absolute cwd and an mcpServers list.",
    citation: "docs/protocol.md H10",
  },
  {
    id: "ACPKIT-CLIENT-PROMPT-001",
    tier: "MUST",
    group: "basic",
    text: "Prompt content uses only block types the agent advertised (text and resource_link here).",
    citation: "docs/protocol.md §1.3",
  },
  {
    id: "ACPKIT-CLIENT-PERM-001",
    tier: "MUST",
    group: "basic",
    text: "A permission request is answered with one of the offered option ids, or cancelled.",
    citation: "docs/protocol.md §4.7",
  },
  { id: "ACPKIT-CLIENT-RPC-001", tier: "MUST", group: "client-wire", text: "The client answers no notification.", citation: "JSON-RPC 2.0 §4.1" },
  {
    id: "ACPKIT-CLIENT-RPC-002",
    tier: "MUST",
    group: "basic",
    text: "An agent→client method the client does not serve gets -32601.",
    citation: "docs/protocol.md D2",
  },
  {
    id: "ACPKIT-CLIENT-RPC-003",
    tier: "MUST",
    group: "client-wire",
    text: "The client answers no request of the agent twice.",
    citation: "JSON-RPC 2.0 §5; docs/protocol.md E9",
  },
  {
    id: "ACPKIT-CLIENT-CAP-001",
    tier: "MUST",
    group: "basic",
    text: "fs/* and terminal/* requests are served only when advertised (-32601 otherwise).",
    citation: "docs/protocol.md §4.10, J1",
  },
  {
    id: "ACPKIT-CLIENT-UPDATE-001",
    tier: "MUST",
    group: "basic",
    text: "An update kind the client does not know does not end the connection.",
    citation: "docs/protocol.md §3.3",
  },
  {
    id: "ACPKIT-CLIENT-CANCEL-001",
    tier: "MUST",
    group: "cancel",
    text: "A permission request pending at the client's session/cancel, or arriving after it, is answered cancelled.",
    citation: "docs/protocol.md C3",
  },
  {
    id: "ACPKIT-CLIENT-CANCEL-002",
    tier: "MUST",
    group: "cancel",
    text: "After session/cancel the client keeps taking updates until the prompt's response.",
    citation: "docs/protocol.md C4",
  },
  {
    id: "ACPKIT-CLIENT-SLOW-001",
    tier: "SHOULD",
    group: "slow",
    text: "A prompt that takes long is not given up by the client on its own.",
    citation: "docs/protocol.md §6.1",
  },
  {
    id: "ACPKIT-CLIENT-EXIT-001",
    tier: "MUST",
    group: "agent-exit",
    text: "When the agent exits mid-turn, the client ends (or reports it) within 5 s.",
    citation: "docs/protocol.md S7",
  },
  {
    id: "ACPKIT-CLIENT-INFO",
    tier: "INFO",
    group: "basic",
    text: "What the client says about itself: clientInfo and capabilities.",
    citation: "docs/protocol.md §1.3",
  },
] as const satisfies readonly RequirementRow[];

/** The id of a requirement `checkAgent` judges. */
export type AgentRequirementId = (typeof AGENT_ROWS)[number]["id"];
/** The id of a requirement `checkClient` judges. */
export type ClientRequirementId = (typeof CLIENT_ROWS)[number]["id"];
/** Any requirement id of the kit: a typo is a type error. */
export type RequirementId = AgentRequirementId | ClientRequirementId;

/** What `checkAgent` judges, in report order. */
export const AGENT_REQUIREMENTS: readonly Requirement<AgentRequirementId>[] = AGENT_ROWS;
/** What `checkClient` judges, in report order. */
export const CLIENT_REQUIREMENTS: readonly Requirement<ClientRequirementId>[] = CLIENT_ROWS;

const BY_ID = new Map<string, Requirement>([...AGENT_REQUIREMENTS, ...CLIENT_REQUIREMENTS].map((entry) => [entry.id, entry]));

/** Whether `id` names a requirement of the kit (for ids read from a file or a command line). */
export function isRequirementId(id: string): id is RequirementId {
  return BY_ID.has(id);
}

/** The requirement `id` names; throws for an id the kit does not have. */
export function requirement(id: RequirementId): Requirement {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`no requirement ${JSON.stringify(id)}: the kit's ids are listed in AGENT_REQUIREMENTS and CLIENT_REQUIREMENTS`);
  return found;
}

/** The side a requirement id belongs to. */
export function requirementSide(id: RequirementId): Side {
  return CLIENT_REQUIREMENTS.some((entry) => entry.id === id) ? "client" : "agent";
}
