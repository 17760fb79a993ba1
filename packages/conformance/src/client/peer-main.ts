#!/usr/bin/env node
// The checking agent's process entry: `node peer-main.js --scenario NAME --log FILE
// [--slow-ms MS] [--max-protocol 1|2]`. checkClient puts this command line where a client
// command has `{agent}`.
import { runClientPeerCommand } from "./peer-stdio.js";

process.exitCode = await runClientPeerCommand(process.argv.slice(2), process.stderr, "acpkit checking agent");
