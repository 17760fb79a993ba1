// What the inspector's server and its page say to each other, apart from ACP itself: the page's
// start-up facts (`GET /api/info`) and, in tap mode, the traffic the server observed
// (`/events`, one JSON text frame per event). Browser-safe: the page imports these types too.

/** `inspect` drives an agent from the page; `tap` shows a real client's traffic, read-only. */
export type InspectorMode = "inspect" | "tap";

/** Which way a message went: the client's to the agent, or the agent's to the client. */
export type WireDirection = "client_to_agent" | "agent_to_client";

/** The answer of `GET /api/info`. */
export interface InspectorInfo {
  mode: InspectorMode;
  /** The agent command line, for the page's title bar. */
  agentCommand: string[];
  /** The protocol version the Connect form starts with (`--protocol`). */
  protocolVersion: 1 | 2;
  /** The directory the inspector was started in: the page's default session cwd. */
  cwd: string;
  /** The @acpkit/inspector version serving the page. */
  version: string;
}

/** One line the tap saw: the exact text between two newlines, or how long a too-long one was. */
export interface TapMessageEvent {
  type: "message";
  /** Position in the tap's record, from 1. */
  seq: number;
  /** Milliseconds since the Unix epoch when the line was complete. */
  time: number;
  direction: WireDirection;
  /** The line without its newline; absent when the line was over the observation limit. */
  text?: string;
  /** The line's length in bytes. */
  bytes: number;
}

/** Something the tap itself reports: the agent started or ended, the editor hung up. */
export interface TapStatusEvent {
  type: "status";
  seq: number;
  time: number;
  message: string;
}

/**
 * Events the page never got: older ones the server let go to stay bounded, or ones skipped while
 * this page read too slowly.
 */
export interface TapGapEvent {
  type: "gap";
  missed: number;
}

/** One frame of `/events`: a line the tap saw, a status, or a gap. */
export type TapEvent = TapMessageEvent | TapStatusEvent | TapGapEvent;

/** The query parameter (and `Authorization: Bearer` alternative) that carries the launch token. */
export const TOKEN_PARAM = "token";
/** Where the page's client connects in inspect mode: a fresh agent per connection. */
export const ACP_PATH = "/acp";
/** Where the page follows the tap's traffic in tap mode. */
export const EVENTS_PATH = "/events";
/** The page's start-up facts. */
export const INFO_PATH = "/api/info";
