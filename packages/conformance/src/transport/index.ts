// @acpkit/conformance/transport: the conformance suite for a Transport (vitest cases) and the
// scripted peer its far end runs. A transport that passes it can carry acpkit's Connection.
//
//   import { defineTransportSuite, runEchoPeer } from "@acpkit/conformance/transport";
//   defineTransportSuite("my transport", async () => {
//     const [local, far] = createMyPair();
//     runEchoPeer(far);
//     return { local, cleanup: () => local.close() };
//   });
export {
  defineTransportSuite,
  RawClient,
  within,
  type ConnectionConstructor,
  type ConnectionLike,
  type PairOptions,
  type PeerPair,
  type SuiteOptions,
} from "./suite.js";
export { runEchoPeer } from "./echo-peer.js";
