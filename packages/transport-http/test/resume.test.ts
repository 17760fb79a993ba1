import { connectAgent } from "@acpkit/client";
import { describe, expect, it } from "vitest";
import { connectHttp, createAcpEndpoint, RESUME_META_KEY } from "../src/index.js";
import { cutWhen, openConnection, openStream, post, startOwnServer } from "./helpers.js";

const start = startOwnServer;

/** Open a connection and a session; the session's id and headers. */
async function session(url: string) {
  const { id, answer } = await openConnection(url);
  const connection = await openStream(url, id);
  await post(url, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/tmp", mcpServers: [] } }, { "Acp-Connection-Id": id });
  const sessionId = (await connection.waitFor((message) => message.id === 1)).result.sessionId as string;
  return { answer, connection, sessionId, headers: { "Acp-Connection-Id": id, "Acp-Session-Id": sessionId } };
}

/**
 * The raw text of a GET stream until `until` appears in it. A stream whose last reader just left is
 * taken again as soon as the server has heard that reader go (409 until then, within a bound).
 */
async function rawStream(url: string, headers: Record<string, string>, until: string): Promise<string> {
  const abort = new AbortController();
  const deadline = Date.now() + 10_000;
  let response = await fetch(url, { headers: { Accept: "text/event-stream", ...headers }, signal: abort.signal });
  while (response.status === 409 && Date.now() < deadline) {
    await response.body?.cancel();
    response = await fetch(url, { headers: { Accept: "text/event-stream", ...headers }, signal: abort.signal });
  }
  expect(response.status).toBe(200);
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes(until)) break;
  }
  abort.abort();
  return text;
}

const chunkTexts = (text: string) => [...text.matchAll(/"text":"(chunk \d+) "/g)].map((match) => match[1]);
const eventIds = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));

describe("streams that resume", () => {
  it("RT26: off by default (no _meta, no ids); on, the initialize result advertises the window and every event has an id", async (context) => {
    const plain = await start(context, {});
    const off = await session(plain);
    expect(off.answer.result._meta?.[RESUME_META_KEY]).toBeUndefined();
    await post(
      plain,
      { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: off.sessionId, prompt: [{ type: "text", text: "stream 3" }] } },
      off.headers,
    );
    expect(eventIds(await rawStream(plain, off.headers, '"id":2'))).toEqual([]);

    const resumable = await start(context, { resume: { maxEvents: 50 } });
    const on = await session(resumable);
    expect(on.answer.result._meta[RESUME_META_KEY]).toEqual({ maxEvents: 50, maxChars: 4 * 1024 * 1024 });
    await post(
      resumable,
      { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: on.sessionId, prompt: [{ type: "text", text: "stream 3" }] } },
      on.headers,
    );
    expect(eventIds(await rawStream(resumable, on.headers, '"id":2'))).toEqual([1, 2, 3, 4]);
    off.connection.close();
    on.connection.close();
  });

  it("RT27: a reader that comes back with Last-Event-ID gets every later event again, in order, once; past the window, a gap notice first", async (context) => {
    const url = await start(context, { resume: { maxEvents: 10 } });
    const { connection, sessionId, headers } = await session(url);
    await post(url, { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "stream 30" }] } }, headers);
    const first = await rawStream(url, headers, '"id":2');
    expect(chunkTexts(first)).toHaveLength(30);
    expect(eventIds(first)).toEqual(Array.from({ length: 31 }, (_, index) => index + 1));

    // Within the window: events 26–31 (chunks 25–29 and the answer) again.
    const again = await rawStream(url, { ...headers, "Last-Event-ID": "25" }, '"id":2');
    expect(eventIds(again)).toEqual([26, 27, 28, 29, 30, 31]);
    expect(chunkTexts(again)).toEqual(["chunk 25", "chunk 26", "chunk 27", "chunk 28", "chunk 29"]);

    // Past it: the window holds the last 10 (22–31); 1–21 are reported lost, then 22–31 follow.
    const late = await rawStream(url, { ...headers, "Last-Event-ID": "0" }, '"id":2');
    expect(late.startsWith('event: acpkit-gap\ndata: {"from":1,"to":21}\n\n')).toBe(true);
    expect(eventIds(late)).toEqual([22, 23, 24, 25, 26, 27, 28, 29, 30, 31]);
    connection.close();
  });

  it("RT28: acpkit's client reopens a stream that broke mid-turn from its last event id: every chunk arrives once, in order", async (context) => {
    let broken = false;
    const lastEventIds: string[] = [];
    const url = await start(context, { resume: true }, (request, response) => {
      if (request.method !== "GET" || request.headers["acp-session-id"] === undefined) return;
      if (request.headers["last-event-id"] !== undefined) lastEventIds.push(String(request.headers["last-event-id"]));
      if (broken) return;
      // The first session stream breaks once it has carried 20 events: the socket is cut under it.
      cutWhen(
        response,
        (written) => (written.match(/^data: /gm) ?? []).length >= 20,
        () => (broken = true),
      );
    });
    const agent = await connectAgent(connectHttp(url), { protocolVersion: 1 });
    const client = await agent.newSession({ cwd: "/tmp" });
    expect((await client.prompt("trickle 200")).stopReason).toBe("end_turn");
    const text = client.state
      .toJSON()
      .messages.filter((message) => message.kind === "agent_message")
      .flatMap((message) => message.content.map((block) => (block as { text?: string }).text ?? ""))
      .join("");
    expect(text, JSON.stringify(client.state.toJSON().messages.slice(0, 2))).toBe(Array.from({ length: 200 }, (_, index) => `chunk ${index} `).join(""));
    expect(broken).toBe(true);
    // One reopening, from the last event the client read (0 if the cut took every event in flight).
    expect(lastEventIds).toHaveLength(1);
    expect(lastEventIds[0]).toMatch(/^\d+$/);
    await agent.close();
  });

  it("RT29: without resume or reconnect, a session stream that breaks fails the request waiting on it with why, instead of leaving it unanswered", async (context) => {
    let broken = false;
    const url = await start(context, {}, (request, response) => {
      if (broken || request.method !== "GET" || request.headers["acp-session-id"] === undefined) return;
      cutWhen(
        response,
        (written) => written.includes("waiting"),
        () => (broken = true),
      );
    });
    const agent = await connectAgent(connectHttp(url, { reconnect: false }), { protocolVersion: 1 });
    const client = await agent.newSession({ cwd: "/tmp" });
    const failure = await client.prompt("wait").then(
      () => undefined,
      (error: unknown) => error as { code: number; message: string },
    );
    expect(failure?.code).toBe(-32603);
    expect(failure?.message).toMatch(/the stream of session .* ended before the answer came/);
    await agent.close();
  });

  it("refuses a resume setting that is not a positive whole number", () => {
    expect(() => createAcpEndpoint({ onConnection: () => {}, resume: { maxEvents: 0 } })).toThrow(/maxEvents must be a whole number of at least 1/);
    expect(() => createAcpEndpoint({ onConnection: () => {}, resume: { maxEvent: 1 } as never })).toThrow(/maxEvent is not a setting/);
  });
});
