// What the transport-http tests share: a small acpkit agent to serve, an endpoint on a free
// loopback port, raw requests (what no client library would send), and an SSE reader that waits for
// a message matching a predicate.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type AgentDefinition, serveAgent } from "@acpkit/agent";
import type { Transport } from "@acpkit/core";
import type { TestContext } from "vitest";
import { createAcpEndpoint, type EndpointOptions, type EndpointServer, type ServeEndpointOptions, serveEndpoint } from "../src/index.js";

/**
 * The prompt text picks the turn: "permission" asks the client (allow → "allowed", else "refused"),
 * "wait" runs until session/cancel, "stream N" sends N chunks at once, "trickle N" one per turn of the event loop; anything else is echoed.
 */
export const testAgent: AgentDefinition = {
  info: { name: "http-test-agent", version: "1.0.0" },
  listSessions: () => ({ sessions: [] }),
  closeSession: () => {},
  async prompt(turn) {
    const text = turn.prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
    if (text === "permission") {
      const tool = turn.toolCall({ title: "Edit a file", kind: "edit", status: "pending" });
      const outcome = await tool.requestPermission([
        { optionId: "allow", name: "Allow", kind: "allow_once" },
        { optionId: "reject", name: "Reject", kind: "reject_once" },
      ]);
      turn.message(outcome.outcome === "selected" && outcome.optionId === "allow" ? "allowed" : "refused");
      return "end_turn";
    }
    if (text === "wait") {
      turn.message("waiting");
      await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve(), { once: true }));
      return "cancelled";
    }
    const stream = /^(stream|trickle) (\d+)$/.exec(text);
    if (stream) {
      for (let index = 0; index < Number(stream[2]); index++) {
        turn.message(`chunk ${index} `);
        // "trickle" lets the event loop turn between chunks, so they reach the stream a few at a time.
        if (stream[1] === "trickle") await new Promise((resolve) => setImmediate(resolve));
      }
      return "end_turn";
    }
    turn.message(`echo: ${text}`);
    return "end_turn";
  },
};

/** An endpoint serving testAgent on 127.0.0.1 with a free port; the transports it handed out are kept. */
export async function startEndpoint(options: Partial<ServeEndpointOptions> = {}): Promise<EndpointServer & { transports: Transport[] }> {
  const transports: Transport[] = [];
  const server = await serveEndpoint({
    onConnection: (transport) => {
      transports.push(transport);
      serveAgent(transport, testAgent);
    },
    ...options,
  });
  return Object.assign(server, { transports });
}

export const INITIALIZE = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } };

/** POST one body (a value is JSON-encoded) with the given headers. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** POST initialize; the connection id and the answer. */
export async function openConnection(url: string, headers: Record<string, string> = {}): Promise<{ id: string; answer: any }> {
  const response = await post(url, INITIALIZE, headers);
  if (response.status !== 200) throw new Error(`initialize answered ${response.status}: ${await response.text()}`);
  return { id: response.headers.get("acp-connection-id") as string, answer: await response.json() };
}

/** An open SSE stream: every message read so far, and a wait for one that matches. */
export interface SseStream {
  readonly messages: any[];
  waitFor(match: (message: any) => boolean, ms?: number): Promise<any>;
  close(): void;
}

/** GET a stream of the connection (or of a session) and read it in the background. */
export async function openStream(url: string, connectionId: string, sessionId?: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: {
      Accept: "text/event-stream",
      "Acp-Connection-Id": connectionId,
      ...(sessionId === undefined ? {} : { "Acp-Session-Id": sessionId }),
      ...headers,
    },
    signal: abort.signal,
  });
  if (response.status !== 200 || response.body === null) throw new Error(`GET stream answered ${response.status}: ${await response.text()}`);
  const messages: any[] = [];
  const waiters: Array<{ match: (message: any) => boolean; resolve: (message: any) => void }> = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event
            .split("\n")
            .filter((line) => line.startsWith("data: "))
            .map((line) => line.slice(6))
            .join("\n");
          if (data !== "") {
            const message = JSON.parse(data);
            messages.push(message);
            for (const waiter of waiters.splice(0)) {
              if (waiter.match(message)) waiter.resolve(message);
              else waiters.push(waiter);
            }
          }
          end = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    messages,
    waitFor(match, ms = 10_000) {
      const found = messages.find(match);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching message within ${ms} ms; got ${JSON.stringify(messages)}`)), ms);
        waiters.push({
          match,
          resolve: (message) => {
            clearTimeout(timer);
            resolve(message);
          },
        });
      });
    },
    close: () => abort.abort(),
  };
}

/** Resolves once `condition()` holds, checking each time the event loop turns; rejects after `ms`. */
export async function until(condition: () => boolean, ms = 10_000, what = "the condition"): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * createAcpEndpoint (testAgent behind it) on a node:http server of the test's own, so that
 * `intercept` sees (and may change) each request and response before the endpoint does. Stopped
 * when the test finishes.
 */
export async function startOwnServer(
  context: TestContext,
  options: Partial<EndpointOptions> = {},
  intercept: (request: IncomingMessage, response: ServerResponse) => void = () => {},
): Promise<string> {
  const endpoint = createAcpEndpoint({ onConnection: (transport) => serveAgent(transport, testAgent), ...options });
  const server = createServer((request, response) => {
    intercept(request, response);
    endpoint.node(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  context.onTestFinished(async () => {
    await endpoint.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/acp`;
}

/** Cut the socket under `response` (as a network failure would) right after the first write for which `when(written so far)` holds. */
export function cutWhen(response: ServerResponse, when: (writtenSoFar: string) => boolean, onCut: () => void): void {
  let written = "";
  let cut = false;
  const write = response.write.bind(response) as (chunk: unknown) => boolean;
  response.write = ((chunk: unknown) => {
    const accepted = write(chunk);
    written += String(chunk);
    if (!cut && when(written)) {
      cut = true;
      onCut();
      response.socket?.destroy();
    }
    return accepted;
  }) as typeof response.write;
}
