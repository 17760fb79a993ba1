// @acpkit/fleet-redis: a Redis backend for a fleet of ACP remote endpoint nodes
// (@acpkit/transport-http's `fleet` option; docs/remote.md §7).
export { RedisFleetBackend, type RedisFleetOptions } from "./redis-backend.js";
