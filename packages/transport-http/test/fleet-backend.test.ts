// RT32 and the rest of the FleetBackend contract, on the in-memory backend (the Redis one runs the same suite in @acpkit/fleet-redis).
import { fleetBackendSuite } from "@acpkit/test-support/fleet-backend-suite";
import { MemoryFleetBackend } from "../src/index.js";

fleetBackendSuite("MemoryFleetBackend", async () => new MemoryFleetBackend());
