// What `acpkit check agent` judges: each requirement with a stable id, a tier and where the rule
// comes from. Ids shared with acp-tck keep its names (ACP-PROMPT-001, ACP-CANCEL-001) so results
// compare; the rest are acpkit's. docs/conformance.md lists them all.

/** MUST: a failure means not conformant. CAPABILITY: judged only when advertised. SHOULD: reported. INFO: recorded. */
export type Tier = "MUST" | "CAPABILITY" | "SHOULD" | "INFO";

export interface Requirement {
  id: string;
  tier: Tier;
  /** What must hold, in one sentence. */
  text: string;
  /** The rule in docs/protocol.md (or JSON-RPC 2.0) it comes from. */
  citation: string;
}

const r = (id: string, tier: Tier, text: string, citation: string): Requirement => ({ id, tier, text, citation });

export const AGENT_REQUIREMENTS: readonly Requirement[] = [
  r(
    "ACPKIT-STDIO-001",
    "MUST",
    "Every line the agent writes on stdout is one JSON-RPC 2.0 message (nothing else: logs go to stderr).",
    "docs/protocol.md S3, S5",
  ),
  r("ACPKIT-STDIO-002", "MUST", "Everything on stdout is valid UTF-8.", "docs/protocol.md S2"),
  r("ACPKIT-INIT-001", "MUST", "initialize is answered with an integer protocolVersion (the offered one when the agent speaks it).", "docs/protocol.md N1, N3"),
  r(
    "ACPKIT-INIT-002",
    "MUST",
    "An unknown future protocolVersion (65535) is not echoed: the agent answers the latest version it supports.",
    "docs/protocol.md N3",
  ),
  r("ACPKIT-RPC-001", "MUST", "Response ids echo the request ids exactly (a unicode string id, a large integer id).", "JSON-RPC 2.0 §5"),
  r("ACPKIT-RPC-002", "MUST", "Every response carries exactly one of result and error.", "JSON-RPC 2.0 §5"),
  r("ACPKIT-RPC-003", "MUST", "Notifications are never answered.", "JSON-RPC 2.0 §4.1"),
  r("ACPKIT-RPC-004", "MUST", "A request for a method that does not exist gets -32601.", "docs/protocol.md D2, D3"),
  r("ACPKIT-RPC-005", "MUST", "A line that is not JSON gets -32700 with id null.", "JSON-RPC 2.0 §5.1; docs/protocol.md S8"),
  r("ACPKIT-RPC-006", "MUST", "An invalid request object gets -32600.", "JSON-RPC 2.0 §5.1"),
  r("ACPKIT-RPC-007", "MUST", "The connection stays usable after those errors.", "docs/protocol.md S8"),
  r("ACPKIT-RPC-008", "SHOULD", "A `_`-prefixed extension request gets an answer (a result or -32601).", "docs/protocol.md D3"),
  r(
    "ACPKIT-RPC-009",
    "MUST",
    "No request is answered twice: no more responses carry an id than requests were sent with it.",
    "JSON-RPC 2.0 §5; docs/protocol.md E9",
  ),
  r("ACPKIT-SESSION-001", "MUST", "session/new returns a session id, a different one each time.", "docs/protocol.md D1"),
  r("ACP-PROMPT-001", "MUST", "session/prompt ends with a stop reason of the negotiated version.", "docs/protocol.md §4.6"),
  r(
    "ACPKIT-UPDATE-001",
    "MUST",
    "Every session/update sent during a turn is valid for the negotiated version and names a session the client opened.",
    "docs/protocol.md §4.2",
  ),
  r(
    "ACPKIT-ORDER-001",
    "MUST",
    "No update of a turn arrives after the turn's session/prompt response (session-level updates such as available_commands_update may come at any time).",
    "docs/protocol.md O1, O5",
  ),
  r("ACP-CANCEL-001", "MUST", "After session/cancel the turn ends with stopReason cancelled (never an error).", "docs/protocol.md C7"),
  r("ACPKIT-CAP-001", "MUST", "The agent sends no fs/* or terminal/* request to a client that did not advertise them.", "docs/protocol.md §4.10, J1"),
  r("ACPKIT-EXIT-001", "SHOULD", "The agent exits within 5 s after its stdin closes.", "docs/protocol.md S7"),
  r("ACPKIT-CAP-LOAD", "CAPABILITY", "With loadSession advertised, session/load of a session it created is answered with a result.", "docs/protocol.md §2"),
  r("ACPKIT-CAP-LIST", "CAPABILITY", "With session list advertised, session/list answers a valid page.", "docs/protocol.md H5"),
  r("ACPKIT-CAP-CLOSE", "CAPABILITY", "With session close advertised, session/close of an idle session is answered with a result.", "docs/protocol.md H4"),
  r(
    "ACPKIT-CAP-RESUME",
    "CAPABILITY",
    "With session resume advertised, session/resume of a session it created is answered with a result.",
    "docs/protocol.md H6",
  ),
  r(
    "ACPKIT-CAP-DELETE",
    "CAPABILITY",
    "With session delete advertised, session/delete of a session it created is answered with a result.",
    "docs/protocol.md §4.12",
  ),
  r(
    "ACPKIT-CAP-PROMPT",
    "CAPABILITY",
    "A prompt with the content types the agent advertises (image, audio, embedded resources) is not refused with -32602.",
    "docs/protocol.md §1.3",
  ),
  r("ACPKIT-CAP-MODES", "CAPABILITY", "With modes in the session/new result, session/set_mode to another listed mode succeeds.", "docs/protocol.md H1"),
  r(
    "ACPKIT-CAP-CONFIG",
    "CAPABILITY",
    "With config options in the session/new result, setting a select option to another value answers every option.",
    "docs/protocol.md H2",
  ),
  r("ACPKIT-INFO-AGENT", "INFO", "What the agent says about itself: agentInfo, capabilities, authentication methods.", "docs/protocol.md §1.3"),
];

export function requirement(id: string): Requirement {
  const found = AGENT_REQUIREMENTS.find((candidate) => candidate.id === id) ?? CLIENT_REQUIREMENTS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`internal: no requirement ${id}`);
  return found;
}

export const CLIENT_REQUIREMENTS: readonly Requirement[] = [
  r("ACPKIT-CLIENT-STDIO-001", "MUST", "Every line the client writes to the agent is one JSON-RPC 2.0 message.", "docs/protocol.md S3, S5"),
  r(
    "ACPKIT-CLIENT-INIT-001",
    "MUST",
    "initialize comes first, with an integer protocolVersion and params valid for that version.",
    "docs/protocol.md N1, N2, N7",
  ),
  r(
    "ACPKIT-CLIENT-INIT-002",
    "MUST",
    "When the agent answers a lower version, the client goes on in that version's shapes (or closes).",
    "docs/protocol.md N3–N5",
  ),
  r("ACPKIT-CLIENT-SESSION-001", "MUST", "session/new params are valid: an absolute cwd and an mcpServers list.", "docs/protocol.md H10"),
  r("ACPKIT-CLIENT-PROMPT-001", "MUST", "Prompt content uses only block types the agent advertised (text and resource_link here).", "docs/protocol.md §1.3"),
  r("ACPKIT-CLIENT-PERM-001", "MUST", "A permission request is answered with one of the offered option ids, or cancelled.", "docs/protocol.md §4.7"),
  r("ACPKIT-CLIENT-RPC-001", "MUST", "The client answers no notification.", "JSON-RPC 2.0 §4.1"),
  r("ACPKIT-CLIENT-RPC-002", "MUST", "An agent→client method the client does not serve gets -32601.", "docs/protocol.md D2"),
  r("ACPKIT-CLIENT-RPC-003", "MUST", "The client answers no request of the agent twice.", "JSON-RPC 2.0 §5; docs/protocol.md E9"),
  r("ACPKIT-CLIENT-CAP-001", "MUST", "fs/* and terminal/* requests are served only when advertised (-32601 otherwise).", "docs/protocol.md §4.10, J1"),
  r("ACPKIT-CLIENT-UPDATE-001", "MUST", "An update kind the client does not know does not end the connection.", "docs/protocol.md §3.3"),
  r(
    "ACPKIT-CLIENT-CANCEL-001",
    "MUST",
    "A permission request pending at the client's session/cancel, or arriving after it, is answered cancelled.",
    "docs/protocol.md C3",
  ),
  r("ACPKIT-CLIENT-CANCEL-002", "MUST", "After session/cancel the client keeps taking updates until the prompt's response.", "docs/protocol.md C4"),
  r("ACPKIT-CLIENT-SLOW-001", "SHOULD", "A prompt that takes long is not given up by the client on its own.", "docs/protocol.md §6.1"),
  r("ACPKIT-CLIENT-EXIT-001", "MUST", "When the agent exits mid-turn, the client ends (or reports it) within 5 s.", "docs/protocol.md S7"),
  r("ACPKIT-CLIENT-INFO", "INFO", "What the client says about itself: clientInfo and capabilities.", "docs/protocol.md §1.3"),
];
