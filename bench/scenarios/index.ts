// Every scenario, in run order. Kept apart from run.ts so tests can list them without running them.
import { bridgeScenario } from "./bridge.js";
import { bundleScenario } from "./bundle.js";
import { coldStartScenario } from "./cold-start.js";
import type { Scenario } from "./config.js";
import { failoverScenario, streamFleetScenario } from "./fleet.js";
import { idleHttpScenario } from "./idle-http.js";
import { latencyScenario } from "./latency.js";
import { memoryScenario } from "./memory.js";
import { naiveAgentScenario } from "./naive-agent.js";
import { reducerScenario } from "./reducer.js";
import { scaleWebSocketScenario } from "./scale-websocket.js";
import { shutdownScenario } from "./shutdown.js";
import { slowConsumerScenario } from "./slow-consumer.js";
import { streamScenario } from "./stream.js";
import { validateScenario } from "./validate.js";

export const SCENARIOS: readonly Scenario[] = [
  streamScenario("memory"),
  streamScenario("stdio"),
  streamScenario("websocket"),
  streamScenario("http"),
  streamScenario("endpoint-ws"),
  latencyScenario("memory"),
  latencyScenario("stdio"),
  latencyScenario("http"),
  latencyScenario("endpoint-ws"),
  validateScenario,
  reducerScenario,
  bridgeScenario,
  memoryScenario,
  slowConsumerScenario,
  coldStartScenario,
  shutdownScenario,
  bundleScenario,
  naiveAgentScenario,
  scaleWebSocketScenario,
  idleHttpScenario,
  streamFleetScenario("memory"),
  streamFleetScenario("redis"),
  failoverScenario,
];
