// `acpkit inspect --tap -- <agent>`: a transparent stdio proxy. An editor runs this command as its
// agent; every byte it writes goes to the real agent and every byte the agent writes goes back,
// unchanged and in order, with backpressure both ways (a slow reader slows the writer instead of
// filling this process). A copy of each line goes to the event log, which the page shows live.
import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { trackChildProcess } from "@acpkit/transport-stdio";
import { EVENTS_PATH } from "../common/protocol.js";
import { EventLog, type EventLogLimits } from "./event-log.js";
import { pageUrl, serveMode, type Inspector, type InspectorOptions } from "./inspect.js";
import { DEFAULT_MAX_OBSERVED_LINE, LineObserver } from "./line-observer.js";

/** Options of `startTap`. */
export interface TapOptions extends Omit<InspectorOptions, "maxConnections" | "command" | "url" | "agentToken"> {
  /** The agent command a tap starts (a tap relays stdio: it has no remote form). */
  command: string;
  /** What the editor writes (default process.stdin). */
  input?: Readable;
  /** Where the agent's output goes back to the editor (default process.stdout). */
  output?: Writable;
  /** Longest line the page is shown in full (default 4 MiB); longer ones are shown by size. */
  maxObservedLine?: number;
  /** Bounds of the record kept for the page. */
  limits?: EventLogLimits;
}

/** How the agent ended. */
export interface AgentExit {
  code: number | null;
  signal: string | null;
  /** Set when the agent could not be started at all. */
  error?: string;
}

/** A running tap. */
export interface Tap extends Inspector {
  /** Resolves when the agent process ended (the editor's side is then ended too). */
  readonly agentExit: Promise<AgentExit>;
}

/** Start `command args`, proxy `input`/`output` to it, and serve the read-only page. */
export async function startTap(options: TapOptions): Promise<Tap> {
  const log = options.log ?? (() => {});
  const args = options.args ?? [];
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const record = new EventLog(options.limits);
  const { server, token } = await serveMode("tap", options, {
    [EVENTS_PATH](socket) {
      const stop = record.follow({ send: (text) => socket.send(text), backlog: () => socket.bufferedAmount });
      socket.on("close", stop);
      // The page only listens; anything it sends is ignored.
      socket.on("message", () => {});
    },
  });

  const maxLine = options.maxObservedLine ?? DEFAULT_MAX_OBSERVED_LINE;
  const fromClient = new LineObserver((text, bytes) => record.message("client_to_agent", bytes, text), maxLine);
  const fromAgent = new LineObserver((text, bytes) => record.message("agent_to_client", bytes, text), maxLine);
  // A process group of its own (POSIX), as spawnAgent gives an agent: a launcher's children can
  // then be stopped with it, when the tap closes or is interrupted (the CLI's bin.ts stops tracked
  // children and their groups).
  const ownGroup = process.platform !== "win32";
  const child = spawn(options.command, [...args], { stdio: ["pipe", "pipe", "inherit"], detached: ownGroup });
  trackChildProcess(child, { processGroup: ownGroup });
  record.status(`started ${[options.command, ...args].join(" ")}`);

  const agentExit = new Promise<AgentExit>((resolve) => {
    child.once("error", (error) => {
      record.status(`the agent could not be started: ${error.message}`);
      log(`the agent could not be started: ${error.message}`);
      resolve({ code: null, signal: null, error: error.message });
    });
    child.once("close", (code, signal) => {
      fromAgent.end();
      record.status(`the agent ended (${signal === null ? `exit code ${code}` : `signal ${signal}`})`);
      resolve({ code, signal });
    });
  });

  // Editor → agent, unchanged.
  const toAgent = child.stdin;
  toAgent.on("error", (error) => log(`writing to the agent failed: ${error.message}`));
  input.on("data", (chunk: Buffer) => {
    fromClient.push(chunk);
    if (!toAgent.write(chunk)) {
      input.pause();
      toAgent.once("drain", () => input.resume());
    }
  });
  input.once("end", () => {
    fromClient.end();
    record.status("the client closed its side (end of input)");
    toAgent.end();
  });

  // Agent → editor, unchanged.
  const fromAgentStream = child.stdout;
  fromAgentStream.on("data", (chunk: Buffer) => {
    fromAgent.push(chunk);
    if (!output.write(chunk)) {
      fromAgentStream.pause();
      output.once("drain", () => fromAgentStream.resume());
    }
  });
  output.on("error", (error) => log(`writing to the client failed: ${error.message}`));

  return {
    url: pageUrl(server.origin, token),
    token,
    port: server.port,
    agentExit,
    async close() {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        try {
          if (ownGroup) process.kill(-child.pid, "SIGTERM");
          else child.kill("SIGTERM");
        } catch {
          // The group is gone already.
        }
      }
      input.pause();
      await server.close();
    },
  };
}
