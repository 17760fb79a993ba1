// The raw ceiling as a benchmark client: JSON.stringify/JSON.parse over the same channel, an id →
// resolver map, and the same app state as the official client. No validation, no library.
import WebSocket from "ws";
import { handleRawMessage } from "../agents/raw-app.mjs";
import { agentScript, spawnAgent, stopAgent, waitForPort } from "../lib/child.js";
import { AppTextState } from "../lib/state.js";
import type { BenchSession, Channel, ClientImpl } from "../lib/impl.js";

interface RawMessage {
  id?: number;
  method?: string;
  params?: any;
  result?: any;
  error?: { message: string };
}

/** JSON-RPC client bookkeeping shared by every raw channel. */
class RawPeer {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(value: any): void; reject(error: Error): void }>();
  constructor(
    private readonly write: (line: string) => void,
    private readonly state: AppTextState,
  ) {}

  receive(text: string): void {
    const message = JSON.parse(text) as RawMessage;
    if (message.method === "session/update") {
      this.state.apply(message.params.update);
    } else if (message.id !== undefined) {
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
    }
  }

  request(method: string, params: unknown): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  }
}

async function openRaw(channel: Channel, stdioMode: "stdio" | "stdio-naive" = "stdio"): Promise<BenchSession> {
  const state = new AppTextState();
  let stop = async () => {};
  let peer: RawPeer;
  if (channel === "memory") {
    // The in-process agent writes text straight into the client; client→agent hops a microtask so
    // the agent never runs inside the client's call stack.
    const toClient = (message: unknown) => {
      peer.receive(JSON.stringify(message));
      return true;
    };
    peer = new RawPeer((line) => {
      queueMicrotask(() => void handleRawMessage(JSON.parse(line), toClient, async () => {}));
    }, state);
  } else if (channel === "stdio") {
    const child = spawnAgent(agentScript("raw-agent.mjs"), [stdioMode]);
    stop = () => stopAgent(child);
    peer = new RawPeer((line) => child.stdin.write(line + "\n"), state);
    let pendingText = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      let start = 0;
      let newline = chunk.indexOf("\n");
      if (newline === -1) {
        pendingText += chunk;
        return;
      }
      peer.receive(pendingText + chunk.slice(0, newline));
      pendingText = "";
      start = newline + 1;
      while ((newline = chunk.indexOf("\n", start)) !== -1) {
        peer.receive(chunk.slice(start, newline));
        start = newline + 1;
      }
      pendingText = chunk.slice(start);
    });
  } else {
    const child = spawnAgent(agentScript("raw-agent.mjs"), ["ws"]);
    const port = await waitForPort(child);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/`);
    await new Promise((resolve, reject) => {
      socket.once("open", resolve);
      socket.once("error", reject);
    });
    peer = new RawPeer((line) => socket.send(line), state);
    socket.on("message", (data) => peer.receive(String(data)));
    stop = async () => {
      socket.close();
      await stopAgent(child);
    };
  }
  await peer.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  let { sessionId } = await peer.request("session/new", { cwd: "/", mcpServers: [] });
  return {
    async prompt(text) {
      await peer.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
    },
    async restart() {
      ({ sessionId } = await peer.request("session/new", { cwd: "/", mcpServers: [] }));
    },
    applied: () => state.applied,
    close: stop,
  };
}

/** The raw ceiling: over stdio its agent gathers lines into ~64 KiB writes. */
export const rawImpl: ClientImpl = {
  name: "raw",
  unavailable: async (channel) => (channel === "http" || channel === "endpoint-ws" ? "the raw pair has no HTTP endpoint" : undefined),
  open: (channel) => openRaw(channel),
};

/** The first round's raw pair, kept for comparison: one write() per message over stdio. */
export const rawNaiveImpl: ClientImpl = {
  name: "raw-naive",
  unavailable: async (channel) => (channel === "http" || channel === "endpoint-ws" ? "the raw pair has no HTTP endpoint" : undefined),
  open: (channel) => openRaw(channel, "stdio-naive"),
};
