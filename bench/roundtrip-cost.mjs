// What one prompt round trip costs each side's code, without a second process: a client and an
// agent in one process, joined by two PassThrough byte streams, so every message is encoded,
// written, read and parsed as on stdio but no pipe, no context switch and no cold cache is in the
// figure. Any pairing of the acpkit and raw client with the acpkit and raw agent (the benchmark's
// own, bench/agents/*-app.mjs); the difference between two pairings is one side's cost.
//   time:  µs per round trip (median of 5 blocks, after 5,000 warm-up prompts)
//   alloc: bytes allocated per round trip (V8's sampling heap profiler, objects the GC already
//          collected included), in total and in acpkit's packages
// Each session takes 2,000 prompts, then a new one is opened, as in latency-stdio (a client that
// keeps a session's history is not measured against a history no real session has).
// Prints one JSON line. docs/performance.md, "Latency".
// Usage: node bench/roundtrip-cost.mjs <acpkit|raw client> <acpkit|raw agent> [time|alloc] [prompts=40000]
import { Session } from "node:inspector/promises";
import { PassThrough } from "node:stream";
import { connectAgent } from "@acpkit/client";
import { NdjsonStreamTransport } from "@acpkit/transport-stdio";
import { serveAcpkitAgent } from "./agents/acpkit-app.mjs";
import { handleRawMessage } from "./agents/raw-app.mjs";

const [clientKind, agentKind, mode = "time", promptsArg = "40000"] = process.argv.slice(2);
const prompts = Number(promptsArg);
const KINDS = ["acpkit", "raw"];
if (!KINDS.includes(clientKind) || !KINDS.includes(agentKind) || (mode !== "time" && mode !== "alloc") || !Number.isSafeInteger(prompts) || prompts < 5) {
  process.stderr.write("usage: node bench/roundtrip-cost.mjs <acpkit|raw client> <acpkit|raw agent> [time|alloc] [prompts ≥ 5]\n");
  process.exit(2);
}
const WARM_UP = 5_000;
const PROMPTS_PER_SESSION = 2_000;

/** Lines of text from a byte stream, each handed to `onLine` (the raw side's reader, as on stdio). */
function readLines(input, onLine) {
  let buffered = "";
  input.setEncoding("utf8").on("data", (text) => {
    buffered += text;
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      onLine(line);
      newline = buffered.indexOf("\n");
    }
  });
}

function serveRawAgent(input, output) {
  const send = (message) => output.write(`${JSON.stringify(message)}\n`);
  readLines(input, (line) => handleRawMessage(JSON.parse(line), send, () => Promise.resolve()));
}

async function rawClient(input, output) {
  const waiting = new Map();
  let nextId = 0;
  readLines(input, (line) => {
    const message = JSON.parse(line);
    if (message.id === undefined || message.method !== undefined) return;
    const resolve = waiting.get(message.id);
    waiting.delete(message.id);
    resolve?.(message);
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      output.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  let sessionId;
  let sent = 0;
  return async () => {
    if (sent++ % PROMPTS_PER_SESSION === 0) sessionId = (await request("session/new", { cwd: "/", mcpServers: [] })).result.sessionId;
    const answer = await request("session/prompt", { sessionId, prompt: [{ type: "text", text: "ping" }] });
    if (answer.result?.stopReason !== "end_turn") throw new Error(`raw client: unexpected answer ${JSON.stringify(answer)}`);
  };
}

async function acpkitClient(input, output) {
  const agent = await connectAgent(new NdjsonStreamTransport(input, output), { protocolVersion: 1, validateOutgoing: false });
  let session;
  let sent = 0;
  return async () => {
    if (sent++ % PROMPTS_PER_SESSION === 0) session = await agent.newSession({ cwd: "/" });
    const outcome = await session.prompt("ping");
    if (outcome.stopReason !== "end_turn") throw new Error(`acpkit client: unexpected outcome ${JSON.stringify(outcome)}`);
  };
}

const toAgent = new PassThrough();
const toClient = new PassThrough();
if (agentKind === "raw") serveRawAgent(toAgent, toClient);
else serveAcpkitAgent(new NdjsonStreamTransport(toAgent, toClient));
const prompt = clientKind === "raw" ? await rawClient(toClient, toAgent) : await acpkitClient(toClient, toAgent);
for (let i = 0; i < WARM_UP; i++) await prompt();

const result = { client: clientKind, agent: agentKind, mode, prompts };
if (mode === "time") {
  const blocks = [];
  const perBlock = Math.floor(prompts / 5);
  for (let block = 0; block < 5; block++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < perBlock; i++) await prompt();
    blocks.push(Number(process.hrtime.bigint() - started) / 1000 / perBlock);
  }
  blocks.sort((a, b) => a - b);
  result.microsPerRoundTrip = Number(blocks[2].toFixed(3));
  result.blocks = blocks.map((micros) => Number(micros.toFixed(3)));
} else {
  const inspector = new Session();
  inspector.connect();
  await inspector.post("HeapProfiler.startSampling", { samplingInterval: 128, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
  for (let i = 0; i < prompts; i++) await prompt();
  const { profile } = await inspector.post("HeapProfiler.stopSampling");
  inspector.disconnect();
  let total = 0;
  let acpkit = 0;
  const walk = (node) => {
    total += node.selfSize;
    // An allocation belongs to acpkit when the function that made it is in one of its packages.
    if (/\/packages\/[\w-]+\/dist\/|\/@acpkit\//.test(node.callFrame.url)) acpkit += node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  result.bytesPerRoundTrip = Math.round(total / prompts);
  result.acpkitBytesPerRoundTrip = Math.round(acpkit / prompts);
}
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
