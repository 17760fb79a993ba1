// Cold start, the raw floor: the same steps with hand-written ndjson and no library.
import { coldStartTurn, startRawClient } from "../lib/stdio-clients.mjs";

await coldStartTurn(startRawClient([new URL("../agents/raw-agent.mjs", import.meta.url).pathname, "stdio"]));
