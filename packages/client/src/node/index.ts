/**
 * Node-only helpers of `@acpkit/client` (import `@acpkit/client/node`): a terminal host that runs
 * the agent's commands as child processes. The root entry stays browser-safe.
 *
 * @module
 */
export { createNodeTerminalHost, type NodeTerminalHostOptions } from "./terminal-host.js";
