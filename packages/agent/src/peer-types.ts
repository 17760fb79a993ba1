// Who is on each end of an agent connection: what the agent says about itself in initialize and
// what the client said (ClientInfo, handed to every hook and turn). No imports of the other type
// modules: they all import this one.
import type { Dialect } from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";

/** Name and version the agent reports in `initialize` (`agentInfo`). */
export interface AgentInfo {
  name: string;
  version: string;
  title?: string | null;
}

/**
 * What the agent supports, independent of the protocol version. The runtime writes it as v1
 * booleans or v2 markers (docs/protocol.md §1.3). Anything omitted is "not supported".
 */
export interface AgentFeatures {
  /** `session/load` is served (requires `AgentDefinition.loadSession`). */
  loadSession?: boolean;
  /** Prompt blocks beyond the baseline `text` and `resource_link`. */
  prompt?: { image?: boolean; audio?: boolean; embeddedContext?: boolean };
  /** MCP transports the agent can connect to besides stdio (`sse` exists only on v1). */
  mcp?: { http?: boolean; sse?: boolean };
}

/** One way to authenticate, listed in `initialize` (`authMethods`). */
export interface AgentAuthMethod {
  id: string;
  name: string;
  description?: string | null;
}

/** What the agent learned about the client in `initialize`. */
export interface ClientInfo {
  /** The negotiated protocol version of the connection. */
  protocolVersion: ProtocolVersion;
  /** The wire dialect: `v1`, `v2-pinned`, or `v2-later` (the v2 of `@agentclientprotocol/sdk` 2.4, docs/protocol.md §12). */
  dialect: Dialect;
  /** `clientInfo` from `initialize`, when the client sent one. */
  info: { name: string; version: string; title?: string | null } | null;
  /** The client serves `fs/read_text_file` (v1 with `fs.readTextFile: true` only). */
  canReadTextFile: boolean;
  /** The client serves `fs/write_text_file` (v1 with `fs.writeTextFile: true` only). */
  canWriteTextFile: boolean;
  /** The client serves `terminal/*` (v1 with `terminal: true` only). */
  canUseTerminal: boolean;
  /** The client answers form elicitations (v1 and the later v2 draft, with `elicitation.form`; the pinned v2 has no elicitation). */
  canElicitForm: boolean;
  /** The client answers URL elicitations (v1 and the later v2 draft, with `elicitation.url`). */
  canElicitUrl: boolean;
  /** The client can run `terminal` auth methods itself (v1's `auth.terminal: true`, the later draft's `auth.terminal` marker). */
  canRunTerminalAuth: boolean;
  /** The client shows `notice` updates (v1 with `session.notices` only). */
  supportsNotices: boolean;
  /** The client shows compaction updates (v1 with `session.compaction` only). */
  supportsCompaction: boolean;
  /** The client can show boolean config options (v1 with `session.configOptions.boolean`; pinned v2 options are select only in practice). */
  supportsBooleanConfigOptions: boolean;
}
