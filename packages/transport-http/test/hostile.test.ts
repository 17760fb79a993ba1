// Hostile input against the endpoint (docs/remote.md RT19, RT12): seeded random requests (methods, headers, bodies a client
// library would never send) from a raw node:http client. Whatever comes, every request is answered
// with a known status (a refusal with a JSON-RPC error body), nothing crashes, connections stay
// within the limit, and afterwards a well-behaved client still runs a turn. A failure names the
// seed and the case, to replay it alone.
import { request as httpRequest } from "node:http";
import { connectAgent } from "@acpkit/client";
import { describe, expect, it } from "vitest";
import { connectHttp, MemoryFleetBackend } from "../src/index.js";
import { startEndpoint } from "./helpers.js";

/** mulberry32: a small seeded PRNG, so a failing case can be run again. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KNOWN_STATUSES = new Set([200, 202, 204, 400, 429, 431, 401, 403, 404, 405, 406, 409, 413, 415, 421, 426, 501, 502, 503, 504]);
const METHODS = ["initialize", "session/new", "session/prompt", "session/cancel", "session/list", "session/load", "fs/read_text_file", "_x/y", "", "__proto__"];

interface Sent {
  method: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

function randomCase(random: () => number, connectionIds: readonly string[]): Sent {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  // Some well-formed initializes, so that there are connections for the rest to poke at.
  if (random() < 0.12)
    return {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })),
    };
  const method = pick(["POST", "POST", "POST", "GET", "GET", "DELETE", "PUT", "OPTIONS", "PATCH"]);
  const headers: Record<string, string> = {};
  if (random() < 0.8) headers["Content-Type"] = pick(["application/json", "application/json; charset=utf-8", "text/plain", "application/jsonx", ""]);
  if (random() < 0.6) headers.Accept = pick(["text/event-stream", "*/*", "application/json", "text/event-stream, application/json"]);
  if (random() < 0.6) headers["Acp-Connection-Id"] = pick([...connectionIds, "unknown", "x".repeat(2000), "", "../../etc"]);
  if (random() < 0.4) headers["Acp-Session-Id"] = pick(["sess_1", "s", "x".repeat(3000), "\u00e9"]);
  if (random() < 0.2) headers.Origin = pick(["http://evil.example", "null", "http://localhost:1", "not a url"]);
  if (random() < 0.2) headers["Last-Event-ID"] = pick(["0", "-1", "99999999999999999999", "abc", "5"]);
  let body: Buffer | undefined;
  if (method === "POST" || random() < 0.1) {
    const kind = random();
    if (kind < 0.45) {
      const message: Record<string, unknown> = { jsonrpc: pick(["2.0", "2.0", "1.0", 2]), method: pick(METHODS) };
      if (random() < 0.8) message.id = pick([1, "a", null, 1.5, { x: 1 }, "i".repeat(1500)]);
      if (random() < 0.8) message.params = pick([{}, { sessionId: "sess_1", prompt: [] }, { protocolVersion: 1, clientCapabilities: {} }, [], "p", null]);
      body = Buffer.from(JSON.stringify(message));
    } else if (kind < 0.55) body = Buffer.from(JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }]));
    else if (kind < 0.65) body = Buffer.from([0xff, 0xfe, 0x7b, 0x22, 0xc3, 0x28]);
    else if (kind < 0.75) body = Buffer.from("[".repeat(5000) + "]".repeat(5000));
    else if (kind < 0.85) body = Buffer.alloc(Math.floor(random() * 40_000), 0x61);
    else body = Buffer.from(pick(["", "null", "1", '"s"', "{", '{"jsonrpc":"2.0","result":{},"id":7}']));
  }
  return { method, headers, body };
}

/** Send one request; resolves with its status, body and whether the socket was cut instead. */
function send(port: number, sent: Sent): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: "127.0.0.1", port, path: "/acp", method: sent.method, headers: sent.headers }, (incoming) => {
      const streaming = String(incoming.headers["content-type"] ?? "").startsWith("text/event-stream");
      let body = "";
      incoming.setEncoding("utf8");
      incoming.on("data", (chunk: string) => {
        body += chunk;
        // A stream stays open: its status is what counts here.
        if (streaming) incoming.destroy();
      });
      incoming.on("close", () => resolve({ status: incoming.statusCode ?? 0, body, headers: incoming.headers }));
      if (streaming) incoming.destroy();
    });
    outgoing.on("error", reject);
    outgoing.end(sent.body);
  });
}

describe("the endpoint under hostile input", () => {
  // The same cases against a node of a fleet (RT30): its requests go through the backend (forwarded
  // POSTs, streams read from it, DELETE by the owner), which must refuse just as well.
  it.for([
    ["alone", false],
    ["as a fleet node", true],
  ] as const)(
    "%s: answers 600 seeded random requests with known statuses and JSON-RPC refusals, stays within its limits, and still serves a turn",
    { timeout: 120_000 },
    async ([, fleet]) => {
      const seed = Number(process.env.ACPKIT_HOSTILE_SEED ?? 20261128);
      const random = prng(seed);
      const limits = { maxConnections: 8, maxBodyBytes: 32 * 1024, maxIdLength: 1024 };
      const server = await startEndpoint(fleet ? { limits, fleet: { backend: new MemoryFleetBackend(), nodeId: "hostile" } } : { limits });
      try {
        const connectionIds: string[] = [];
        const statuses = new Map<number, number>();
        for (let index = 0; index < 600; index++) {
          const sent = randomCase(random, connectionIds);
          const where = `seed ${seed}, case ${index}: ${sent.method} ${JSON.stringify(sent.headers)} ${sent.body?.subarray(0, 80).toString("latin1")}`;
          const answer = await send(server.port, sent).catch((error: Error) => {
            throw new Error(`${where}: no answer (${error.message})`);
          });
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          expect(KNOWN_STATUSES.has(answer.status), `${where}: status ${answer.status}`).toBe(true);
          if (answer.status >= 400) {
            let parsed: unknown;
            try {
              parsed = JSON.parse(answer.body);
            } catch {
              throw new Error(`${where}: status ${answer.status} with a body that is not JSON: ${JSON.stringify(answer.body.slice(0, 200))}`);
            }
            const refusal = parsed as { jsonrpc: string; error: { code: number; message: string; data: { httpStatus: number } } };
            expect(refusal.jsonrpc, where).toBe("2.0");
            expect(refusal.error.data.httpStatus, where).toBe(answer.status);
            expect(refusal.error.message.length, where).toBeGreaterThan(0);
          }
          const opened = answer.headers["acp-connection-id"];
          if (typeof opened === "string") connectionIds.push(opened);
          expect(server.endpoint.connectionCount, where).toBeLessThanOrEqual(8);
        }
        // The random requests reached every kind of answer that matters.
        for (const status of [200, 202, 400, 404, 405, 415, 503])
          expect(statuses.get(status) ?? 0, `status ${status} in ${JSON.stringify([...statuses])}`).toBeGreaterThan(0);
        // Free the connections the cases opened, then a well-behaved client runs a turn.
        for (const id of connectionIds) await send(server.port, { method: "DELETE", headers: { "Acp-Connection-Id": id }, body: undefined });
        const agent = await connectAgent(connectHttp(server.url), { protocolVersion: 1 });
        const session = await agent.newSession({ cwd: "/tmp" });
        expect((await session.prompt("still here")).stopReason).toBe("end_turn");
        await agent.close();
      } finally {
        await server.close();
      }
    },
  );
});
