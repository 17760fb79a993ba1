// @acpkit/transport-stdio: newline-delimited JSON over a child process (spawnAgent, for clients)
// or the process's own stdin/stdout (stdioServer, for agents). docs/protocol.md §8.1.
export { spawnAgent, ChildProcessTransport, DEFAULT_SHUTDOWN_GRACE_MS, type SpawnAgentOptions } from "./spawn-agent.js";
export {
  stopAgentsOnSignal,
  trackChildProcess,
  stopTrackedChildren,
  liveChildProcessCount,
  DEFAULT_SIGNAL_GRACE_MS,
  type StopOnSignalOptions,
} from "./stop-on-signal.js";
export { stdioServer, ProcessStdioTransport, DEFAULT_INPUT_END_GRACE_MS, type StdioServerOptions } from "./stdio-server.js";
export { NdjsonStreamTransport, DEFAULT_MAX_MESSAGE_SIZE, type NdjsonTransportOptions } from "./stream-transport.js";
export { NdjsonReader, type NdjsonReaderEvents, type NdjsonReaderOptions } from "./ndjson-reader.js";
export { NdjsonWriter, MAX_WRITE_CHARS, type WriterCongestion } from "./ndjson-writer.js";
export {
  relayConnection,
  relayBetween,
  forward as forwardMessages,
  RELAY_HIGH_WATER,
  RELAY_HIGH_WATER_CHARS,
  RELAY_LOW_WATER,
  RELAY_LOW_WATER_CHARS,
  type RelayPeer,
} from "./relay.js";
