// `acpkit agent [--max-protocol 1|2] [--script FILE]`: the built-in test agent on stdio. stdout
// carries protocol lines only (docs/protocol.md S5); diagnostics go to stderr. Exits 0 when stdin closes.
import { resolve } from "node:path";
import { serveAgent } from "@acpkit/agent";
import { NdjsonStreamTransport, stdioServer } from "@acpkit/transport-stdio";
import {
  createBuiltinAgent,
  DEMO_READ_FILE,
  folderSessionStore,
  loadScriptFile,
  MAX_SLEEP_MS,
  MAX_STREAM_CHUNKS,
  type AgentScript,
} from "@acpkit/conformance/test-agent";
import { flagValue, parseArgs, UsageError } from "../args.js";
import { Exit, type CommandIO } from "../io.js";

/** The longest --chunk-delay: a minute per chunk is already slower than anyone watches. */
export const MAX_CHUNK_DELAY_MS = 60_000;

export const agentUsage = `usage: acpkit agent [--max-protocol 1|2] [--script FILE] [--chunk-delay MS] [--store DIR]

Runs the built-in test agent on stdio (for clients under test; "acpkit demo" drives it).
  --max-protocol 1|2  highest protocol version (default 2: speaks 1 and 2; 1: answers 1 to everyone)
  --script FILE       replay the turn in FILE for every prompt (format: schema/agent-script.schema.json)
  --chunk-delay MS    wait MS milliseconds after each /stream and /echo chunk (default 0), so a
                      turn can be watched and cancelled mid-way (0..${MAX_CHUNK_DELAY_MS})
  --store DIR         keep sessions in DIR (one JSON file a session: history, title, mode, config),
                      so a new process answers session/list and loads or resumes them

An ordinary prompt plays the demo turn: plan, thought, an edit that asks permission, a read of
${DEMO_READ_FILE} through the client (v1 clients with fs.readTextFile only), the streamed answer,
usage, end_turn. A prompt that starts with a command drives the agent instead:
  /echo TEXT    stream TEXT back as agent message chunks (one message, split at words)
  /wait         one chunk, then wait until the turn is cancelled (stop reason cancelled)
  /permission   an edit tool call that asks permission: allowed → in_progress, completed;
                not allowed → failed with a "skipped" note; cancelled turn → stop reason cancelled
  /read PATH    read PATH (relative to the session cwd) through the client and report its size;
                without a client file system (v2, or no fs.readTextFile) a message says so
  /stop REASON  end the turn with REASON (v1: the five known reasons; v2 also "_custom" ones)
  /error        the handler fails: the prompt gets a JSON-RPC error (-32603)
  /stream N     N agent message chunks of about 40 characters (0..${MAX_STREAM_CHUNKS}), for benchmarks
  /mode ID      switch the session's mode (ask or code; v1, where modes exist)
  /config ID VALUE  set a config option (model: standard or thorough)
  /commands     announce the command list again (available_commands_update)
  /title TEXT   set the session's title (session_info_update)
  /plan         a three-step plan that advances to completion
  /notice TEXT  show a notice (v1 clients that advertise notices)
  /terminal CMD [ARGS…]  run CMD in a client terminal (v1 clients with terminals), show it in
                a tool call, wait for it and report its exit code
  /elicit       ask for a name through a form (v1 clients with form elicitation); echoes the answer
A bad argument, unknown command or a feature the client lacks gets a JSON-RPC error -32602
naming the problem.

Sessions: two modes (ask, code), a select config option (model), a test login method that
accepts anyone, and every session method: list, load (replays the prompts), resume, close,
delete, logout. Sessions live as long as the process.

A script is {"steps": [...], "stopReason"?: "end_turn"}; each step has one of
  {"update": <v2 session update>}  {"message": "text", "kind"?: "agent"|"thought", "chunks"?: n}
  {"permission": {"toolCall": {"toolCallId": …}, "options"?: [...]}}  {"sleep": ms (≤ ${MAX_SLEEP_MS})}
  {"read": {"path": …, "line"?: n, "limit"?: n}}
and may add "when": "allowed" | "rejected" (the latest permission's outcome). An invalid script
exits with code 2, naming each problem by its JSON path.`;

export async function agentCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, {
    "max-protocol": { value: true, choices: ["1", "2"] },
    script: { value: true },
    "chunk-delay": { value: true },
    store: { value: true },
  });
  if (args.positionals.length > 0 || args.rest.length > 0)
    throw new UsageError(`agent takes no arguments (got "${[...args.positionals, ...args.rest].join(" ")}")`);
  const maxProtocol = flagValue(args, "max-protocol", "2") === "1" ? 1 : 2;
  const delayFlag = flagValue(args, "chunk-delay", "0");
  const chunkDelayMs = Number(delayFlag);
  if (!/^\d+$/.test(delayFlag) || chunkDelayMs > MAX_CHUNK_DELAY_MS)
    throw new UsageError(`--chunk-delay must be a whole number of milliseconds from 0 to ${MAX_CHUNK_DELAY_MS} (got "${delayFlag}")`);

  let script: AgentScript | undefined;
  const scriptFile = flagValue(args, "script");
  if (scriptFile !== undefined) {
    const loaded = await loadScriptFile(resolve(io.cwd, scriptFile), scriptFile, maxProtocol);
    if (!loaded.ok) {
      for (const line of loaded.errors) io.stderr.write(`acpkit agent: ${line}\n`);
      return Exit.Usage;
    }
    script = loaded.script;
  }

  // The real process stdio gets stdioServer() (console.log moved to stderr, stdin released on
  // close); other streams (tests, embedding) get the same ndjson transport over them.
  const transport = io.stdin === process.stdin && io.stdout === process.stdout ? stdioServer() : new NdjsonStreamTransport(io.stdin, io.stdout);
  const storeDir = flagValue(args, "store");
  let store: ReturnType<typeof folderSessionStore> | undefined;
  if (storeDir !== undefined) {
    try {
      store = folderSessionStore(resolve(io.cwd, storeDir), (problem) => io.stderr.write(io.err.yellow(`acpkit agent: --store: ${problem}`) + "\n"));
    } catch (error) {
      throw new UsageError(`--store ${storeDir}: ${(error as Error).message}`);
    }
  }
  const server = serveAgent(transport, createBuiltinAgent({ maxProtocol, chunkDelayMs, ...(script ? { script } : {}), ...(store ? { store } : {}) }), {
    onDiagnostic: (diagnostic) => io.stderr.write(io.err.yellow(`acpkit agent: ${diagnostic.code}: ${diagnostic.message}`) + "\n"),
  });
  const closed = await server.closed;
  if (closed.error !== undefined) {
    io.stderr.write(io.err.red(`acpkit agent: the connection failed: ${closed.reason}`) + "\n");
    return Exit.Failed;
  }
  return Exit.Ok;
}
