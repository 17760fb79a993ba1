// Cold start, the official SDK: the same steps with its client and its agent.
import { coldStartTurn, startOfficialClient } from "../lib/stdio-clients.mjs";

await coldStartTurn(await startOfficialClient([new URL("../agents/official-agent.mjs", import.meta.url).pathname, "stdio"]));
