// The endpoint's HTTP rules (docs/remote.md RT1–RT19), met as a client that is not acpkit would meet
// them: raw fetch requests against serveEndpoint on a loopback port, an acpkit agent behind it.
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { INITIALIZE, openConnection, openStream, post, startEndpoint, until } from "./helpers.js";

type Started = Awaited<ReturnType<typeof startEndpoint>>;
let server: Started | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startEndpoint>[0] = {}): Promise<Started> {
  server = await startEndpoint(options);
  return server;
}

/** The JSON-RPC error a refusal carries, with the HTTP status. */
async function refusal(response: Response): Promise<{ status: number; code: number; message: string; id: unknown }> {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await response.json()) as any;
  expect(body.jsonrpc).toBe("2.0");
  expect(body.error.data).toEqual({ httpStatus: response.status });
  return { status: response.status, code: body.error.code, message: body.error.message, id: body.id };
}

describe("opening and ending a connection", () => {
  it("RT4: POST initialize answers 200 with the JSON result and Acp-Connection-Id; the agent is started for it", async () => {
    const { url, transports } = await start();
    const response = await post(url, INITIALIZE);
    expect(response.status).toBe(200);
    const id = response.headers.get("acp-connection-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const answer = await response.json();
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentInfo: { name: "http-test-agent" } } });
    expect(transports).toHaveLength(1);
  });

  it("RT5: an initialize the agent refuses is answered 200 with the error and opens nothing", async () => {
    const { url, endpoint } = await start();
    const response = await post(url, { ...INITIALIZE, params: { protocolVersion: "one" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("acp-connection-id")).toBeNull();
    expect(((await response.json()) as any).error.code).toBe(-32602);
    await until(() => endpoint.connectionCount === 0, 10_000, "the refused connection to close");
  });

  it("RT16: DELETE ends the connection (202), the agent's transport closes, and the id is unknown afterwards (404)", async () => {
    const { url, transports } = await start();
    const { id } = await openConnection(url);
    const deleted = await fetch(url, { method: "DELETE", headers: { "Acp-Connection-Id": id } });
    expect(deleted.status).toBe(202);
    expect((await transports[0]!.closed).reason).toMatch(/DELETE/);
    const after = await post(url, { jsonrpc: "2.0", id: 1, method: "session/list", params: {} }, { "Acp-Connection-Id": id });
    expect(await refusal(after)).toMatchObject({ status: 404, code: -32600, id: 1 });
    expect((await fetch(url, { method: "DELETE", headers: { "Acp-Connection-Id": id } })).status).toBe(404);
  });
});

describe("refusals name what was wrong", () => {
  it("RT6/RT7: a POST without Acp-Connection-Id is 400, with an unknown one 404", async () => {
    const { url } = await start();
    const list = { jsonrpc: "2.0", id: "a", method: "session/list", params: {} };
    expect(await refusal(await post(url, list))).toMatchObject({ status: 400, id: "a", message: expect.stringMatching(/missing Acp-Connection-Id/) });
    expect(await refusal(await post(url, list, { "Acp-Connection-Id": "nope" }))).toMatchObject({ status: 404, message: expect.stringMatching(/unknown/) });
  });

  it("RT8: a session-scoped request without Acp-Session-Id is 400, and one whose header and params disagree", async () => {
    const { url } = await start();
    const { id } = await openConnection(url);
    const prompt = { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [] } };
    expect(await refusal(await post(url, prompt, { "Acp-Connection-Id": id }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/missing Acp-Session-Id/),
    });
    const mismatch = await post(url, prompt, { "Acp-Connection-Id": id, "Acp-Session-Id": "s2" });
    expect(await refusal(mismatch)).toMatchObject({ status: 400, message: expect.stringMatching(/does not match params.sessionId/) });
  });

  it("RT14: a wrong content type is 415, a body that is not JSON 400 (-32700), a batch 501, an oversized body 413, an over-long id 400", async () => {
    const { url } = await start({ limits: { maxBodyBytes: 1024, maxIdLength: 16 } });
    const text = await fetch(url, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" });
    expect(await refusal(text)).toMatchObject({ status: 415 });
    expect(await refusal(await post(url, "{not json"))).toMatchObject({ status: 400, code: -32700 });
    expect(await refusal(await post(url, [INITIALIZE]))).toMatchObject({ status: 501, message: expect.stringMatching(/batches/) });
    expect(await refusal(await post(url, { ...INITIALIZE, params: { pad: "x".repeat(2000) } }))).toMatchObject({ status: 413 });
    expect(await refusal(await post(url, { ...INITIALIZE, id: "x".repeat(17) }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/longer than 16/),
    });
  });

  it("RT19: another path is 404, another method 405 with Allow", async () => {
    const { url } = await start();
    const other = await fetch(url.replace("/acp", "/other"), { method: "POST" });
    expect(await refusal(other)).toMatchObject({ status: 404, message: expect.stringMatching(/it is at \/acp/) });
    const put = await fetch(url, { method: "PUT" });
    expect(put.headers.get("allow")).toBe("GET, POST, DELETE");
    expect(await refusal(put)).toMatchObject({ status: 405 });
  });

  it("RT9: a GET stream needs Accept: text/event-stream (406), a known connection (400/404), and has one reader at a time (409)", async () => {
    const { url } = await start();
    const { id } = await openConnection(url);
    expect(await refusal(await fetch(url, { headers: { "Acp-Connection-Id": id } }))).toMatchObject({ status: 406 });
    expect(await refusal(await fetch(url, { headers: { Accept: "text/event-stream" } }))).toMatchObject({ status: 400 });
    expect(await refusal(await fetch(url, { headers: { Accept: "text/event-stream", "Acp-Connection-Id": "x" } }))).toMatchObject({ status: 404 });
    const first = await openStream(url, id);
    const second = await fetch(url, { headers: { Accept: "text/event-stream", "Acp-Connection-Id": id } });
    expect(await refusal(second)).toMatchObject({ status: 409, message: expect.stringMatching(/already has a reader/) });
    first.close();
    // Once the first reader's response closed, the stream can be taken again (the server hears the
    // close asynchronously: ask until it has, within a generous bound).
    let status = 409;
    const deadline = Date.now() + 10_000;
    while (status === 409 && Date.now() < deadline) {
      const again = await fetch(url, { headers: { Accept: "text/event-stream", "Acp-Connection-Id": id } });
      status = again.status;
      await again.body?.cancel();
    }
    expect(status).toBe(200);
  });

  it("RT12: at most maxPendingRequests unanswered requests per connection; one more is 429", async () => {
    const { url } = await start({ limits: { maxPendingRequests: 2 } });
    const { id } = await openConnection(url);
    const connection = await openStream(url, id);
    const headers = { "Acp-Connection-Id": id };
    // Two sessions, each with a turn that waits for session/cancel: two requests without an answer.
    for (const n of [1, 2]) {
      await post(url, { jsonrpc: "2.0", id: n, method: "session/new", params: { cwd: "/tmp", mcpServers: [] } }, headers);
      const sessionId = (await connection.waitFor((message) => message.id === n)).result.sessionId;
      const prompt = { jsonrpc: "2.0", id: 10 + n, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "wait" }] } };
      expect((await post(url, prompt, { ...headers, "Acp-Session-Id": sessionId })).status).toBe(202);
    }
    const refused = await post(url, { jsonrpc: "2.0", id: 20, method: "session/list", params: {} }, headers);
    expect(await refusal(refused)).toMatchObject({ status: 429, id: 20, message: expect.stringMatching(/2 requests of this connection wait/) });
    // A notification is no request: it still goes through.
    expect((await post(url, { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "x" } }, { ...headers, "Acp-Session-Id": "x" })).status).toBe(202);
    connection.close();
  });

  it("RT12: at most maxConnections connections; one more initialize is 503 with Retry-After", async () => {
    const { url } = await start({ limits: { maxConnections: 1 } });
    await openConnection(url);
    const full = await post(url, INITIALIZE);
    expect(full.headers.get("retry-after")).toBe("5");
    expect(await refusal(full)).toMatchObject({ status: 503, code: -32603, id: 0 });
  });
});

describe("who may connect", () => {
  it("RT1: with a token, a request without it or with a wrong one is 401 with WWW-Authenticate; the right one passes", async () => {
    const { url } = await start({ token: "s3cret" });
    const none = await post(url, INITIALIZE);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="acp"');
    expect(await refusal(none)).toMatchObject({ status: 401 });
    expect((await post(url, INITIALIZE, { Authorization: "Bearer s3cre" })).status).toBe(401);
    expect((await post(url, INITIALIZE, { Authorization: "Bearer s3cret" })).status).toBe(200);
  });

  it("RT2: without a token only loopback Host names are served (421 for a rebound name)", async () => {
    const { port } = await start();
    const statusFor = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest({ host: "127.0.0.1", port, path: "/acp", headers: { Host: host, Accept: "text/event-stream" } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on("error", reject);
        request.end();
      });
    expect(await statusFor("attacker.example")).toBe(421);
    expect(await statusFor(`attacker.example:${port}`)).toBe(421);
    // Past the Host check, the request fails for what it lacks (no connection header): 400.
    expect(await statusFor(`localhost:${port}`)).toBe(400);
    expect(await statusFor(`[::1]:${port}`)).toBe(400);
  });

  it("RT3: a page of another origin is 403; its own origin, loopback origins and allowedOrigins pass, the last with CORS headers and a preflight", async () => {
    const { url } = await start({ allowedOrigins: ["https://editor.example"] });
    const host = new URL(url).host;
    expect(await refusal(await post(url, INITIALIZE, { Origin: "https://evil.example" }))).toMatchObject({ status: 403 });
    expect((await post(url, INITIALIZE, { Origin: `http://${host}` })).status).toBe(200);
    expect((await post(url, INITIALIZE, { Origin: "http://localhost:5173" })).status).toBe(200);
    const allowed = await post(url, INITIALIZE, { Origin: "https://editor.example" });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://editor.example");
    expect(allowed.headers.get("access-control-expose-headers")).toBe("Acp-Connection-Id");
    const preflight = await fetch(url, { method: "OPTIONS", headers: { Origin: "https://editor.example", "Access-Control-Request-Method": "POST" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Acp-Session-Id/);
  });

  it("a token must not be empty, a limit must be a positive number and a known one", async () => {
    await expect(startEndpoint({ token: "" })).rejects.toThrow(/token must be a non-empty string/);
    await expect(startEndpoint({ limits: { maxConnections: 0 } })).rejects.toThrow(/maxConnections must be a positive number/);
    await expect(startEndpoint({ limits: { maxConnectons: 1 } as never })).rejects.toThrow(/maxConnectons is not a limit/);
    await expect(startEndpoint({ host: "0.0.0.0" })).rejects.toThrow(/without a token/);
  });
});

describe("routing the agent's messages (RT10–RT11)", () => {
  it("the answer to session/new comes on the connection stream; a prompt's updates, its answer and the agent's permission request on the session stream", async () => {
    const { url } = await start();
    const { id } = await openConnection(url);
    const connection = await openStream(url, id);
    const headers = { "Acp-Connection-Id": id };
    expect((await post(url, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/tmp", mcpServers: [] } }, headers)).status).toBe(202);
    const created = await connection.waitFor((message) => message.id === 1);
    const sessionId = created.result.sessionId as string;
    const session = await openStream(url, id, sessionId);
    const scoped = { ...headers, "Acp-Session-Id": sessionId };
    await post(url, { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "permission" }] } }, scoped);
    const ask = await session.waitFor((message) => message.method === "session/request_permission");
    // The client answers the agent's request with a POST that names the session.
    expect((await post(url, { jsonrpc: "2.0", id: ask.id, result: { outcome: { outcome: "selected", optionId: "allow" } } }, scoped)).status).toBe(202);
    const answer = await session.waitFor((message) => message.id === 2);
    expect(answer.result).toEqual({ stopReason: "end_turn" });
    const said = session.messages
      .filter((message) => message.params?.update?.sessionUpdate === "agent_message_chunk")
      .map((message) => message.params.update.content.text);
    expect(said).toEqual(["allowed"]);
    expect(connection.messages.map((message) => message.id ?? message.method)).toEqual([1]);
    connection.close();
    session.close();
  });

  it("RT11: output waits for a reader: updates written before the session stream opened are all delivered, in order, once it opens", async () => {
    const { url } = await start();
    const { id } = await openConnection(url);
    const connection = await openStream(url, id);
    await post(url, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/tmp", mcpServers: [] } }, { "Acp-Connection-Id": id });
    const sessionId = (await connection.waitFor((message) => message.id === 1)).result.sessionId;
    const scoped = { "Acp-Connection-Id": id, "Acp-Session-Id": sessionId };
    await post(url, { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "stream 50" }] } }, scoped);
    const session = await openStream(url, id, sessionId);
    await session.waitFor((message) => message.id === 2);
    const chunks = session.messages.filter((message) => message.method === "session/update").map((message) => message.params.update.content.text);
    expect(chunks).toEqual(Array.from({ length: 50 }, (_, index) => `chunk ${index} `));
    connection.close();
    session.close();
  });

  it("RT15: a client that stops reading loses the connection after maxOutputStallMs once its output passed the budget", async () => {
    const { url, transports, endpoint } = await start({ limits: { maxBufferedChars: 4096, maxOutputStallMs: 200 } });
    const { id } = await openConnection(url);
    const connection = await openStream(url, id);
    await post(url, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/tmp", mcpServers: [] } }, { "Acp-Connection-Id": id });
    const sessionId = (await connection.waitFor((message) => message.id === 1)).result.sessionId;
    // The session stream is never opened: 2000 chunks of output have nowhere to go.
    const scoped = { "Acp-Connection-Id": id, "Acp-Session-Id": sessionId };
    await post(url, { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "stream 2000" }] } }, scoped);
    expect((await transports[0]!.closed).reason).toMatch(/read none of its streams for 200 ms/);
    await until(() => endpoint.connectionCount === 0, 10_000, "the connection to be gone");
    connection.close();
  });
});
