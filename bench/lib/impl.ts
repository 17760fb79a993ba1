// What every implementation (acpkit, the official SDK, the raw ceiling) provides to the scenarios:
// a client-side session on a channel whose agent follows the fixture protocol (lib/fixtures.mjs).

export type ImplName = "acpkit" | "official" | "raw" | "raw-naive";
/**
 * Where the agent is: in-process, a child over stdio, a WebSocket server, or behind the RFD's remote
 * endpoint over its HTTP+SSE profile ("http") or its WebSocket profile ("endpoint-ws").
 */
export type Channel = "memory" | "stdio" | "websocket" | "http" | "endpoint-ws" | "fleet-memory" | "fleet-redis";

/** The environment variable that hands the fleet-redis channel its Redis URL (the scenario starts the server). */
export const REDIS_URL_ENV = "ACPKIT_BENCH_REDIS_URL";

/** One client connection with one session, already initialized. */
export interface BenchSession {
  /** Sends a one-text-block prompt and resolves when the `session/prompt` result has resolved. */
  prompt(text: string): Promise<void>;
  /**
   * Opens another session on the same connection; later prompts go to it (and `applied` reads
   * it). The latency scenario measures on a session of its own after warming up on the first.
   */
  restart(): Promise<void>;
  /** How many `session/update`s the client has applied to its state so far (read from the state). */
  applied(): number;
  close(): Promise<void>;
}

export interface ClientImpl {
  readonly name: ImplName;
  /** Why this implementation cannot run on `channel`, or undefined when it can. */
  unavailable(channel: Channel): Promise<string | undefined>;
  open(channel: Channel): Promise<BenchSession>;
}
