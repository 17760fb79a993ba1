#!/usr/bin/env node
// The checking agent's process entry: `node peer-main.js --scenario NAME --log FILE
// [--slow-ms MS] [--max-protocol 1|2]`. checkClient puts this command line where a client
// command has `{agent}`.
import { CLIENT_SCENARIOS, type ClientScenario } from "./peer.js";
import { runClientPeer } from "./peer-stdio.js";

const argv = process.argv.slice(2);
const value = (flag: string) => {
  const at = argv.indexOf(flag);
  return at >= 0 ? argv[at + 1] : undefined;
};
const scenario = value("--scenario") as ClientScenario | undefined;
const log = value("--log");
if (!scenario || !CLIENT_SCENARIOS.includes(scenario) || !log) {
  process.stderr.write(`acpkit checking agent: needs --scenario (${CLIENT_SCENARIOS.join(", ")}) and --log FILE\n`);
  process.exit(2);
}
await runClientPeer(scenario, log, Number(value("--slow-ms") ?? 12_000), value("--max-protocol") === "1" ? 1 : 2);
