// HTTP/2 over TLS (RT18): with a certificate, serveEndpoint speaks HTTP/2 (what the RFD requires for
// the SSE profile: every open session is one more stream, and a browser holds only six HTTP/1.1
// connections per host) and HTTP/1.1 to clients that offer only it (ALPN). Driven with node:http2
// and node:https against a self-signed certificate (test/fixtures/README.md).
import { readFileSync } from "node:fs";
import { connect as http2Connect } from "node:http2";
import { request as httpsRequest } from "node:https";
import { afterEach, describe, expect, it } from "vitest";
import { INITIALIZE, startEndpoint } from "./helpers.js";

const cert = readFileSync(new URL("./fixtures/localhost-cert.pem", import.meta.url));
const key = readFileSync(new URL("./fixtures/localhost-key.pem", import.meta.url));

let server: Awaited<ReturnType<typeof startEndpoint>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("serveEndpoint with tls", () => {
  it("speaks HTTP/2: initialize, the connection stream and a POST share one HTTP/2 session, and the answer arrives on the stream", async () => {
    server = await startEndpoint({ tls: { cert, key } });
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/acp$/);
    const session = http2Connect(new URL(server.url).origin, { ca: cert });
    try {
      await new Promise<void>((resolve, reject) => session.once("connect", () => resolve()).once("error", reject));
      expect(session.alpnProtocol).toBe("h2");
      const exchange = (headers: Record<string, string>, body?: string) =>
        new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
          const stream = session.request({ ":path": "/acp", ...headers });
          let status = 0;
          let responseHeaders: Record<string, unknown> = {};
          let text = "";
          stream.on("response", (received) => {
            status = Number(received[":status"]);
            responseHeaders = received;
          });
          stream.setEncoding("utf8");
          stream.on("data", (chunk: string) => (text += chunk));
          stream.on("end", () => resolve({ status, headers: responseHeaders, text }));
          stream.on("error", reject);
          stream.end(body);
        });
      const opened = await exchange({ ":method": "POST", "content-type": "application/json" }, JSON.stringify(INITIALIZE));
      expect(opened.status).toBe(200);
      const connectionId = String(opened.headers["acp-connection-id"]);
      expect(JSON.parse(opened.text).result.protocolVersion).toBe(1);

      // The connection stream stays open while the POST goes out on another stream of the same session.
      const events = session.request({ ":path": "/acp", ":method": "GET", accept: "text/event-stream", "acp-connection-id": connectionId });
      events.setEncoding("utf8");
      let sse = "";
      const answered = new Promise<string>((resolve) =>
        events.on("data", (chunk: string) => {
          sse += chunk;
          if (sse.includes('"id":1')) resolve(sse);
        }),
      );
      const posted = await exchange(
        { ":method": "POST", "content-type": "application/json", "acp-connection-id": connectionId },
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/tmp", mcpServers: [] } }),
      );
      expect(posted.status).toBe(202);
      const data = (await answered).split("\n").find((line) => line.startsWith("data: ") && line.includes('"id":1'));
      expect(JSON.parse(data!.slice(6)).result.sessionId).toMatch(/./);
      events.close();
    } finally {
      session.close();
    }
  });

  it("answers a client that offers only HTTP/1.1 over HTTP/1.1", async () => {
    server = await startEndpoint({ tls: { cert, key } });
    const url = new URL(server.url);
    const result = await new Promise<{ status: number; protocol: string | false | null; body: string }>((resolve, reject) => {
      const options: import("node:https").RequestOptions & { ALPNProtocols: string[] } = {
        host: url.hostname,
        port: url.port,
        path: "/acp",
        method: "POST",
        ca: cert,
        ALPNProtocols: ["http/1.1"],
        headers: { "Content-Type": "application/json" },
      };
      const request = httpsRequest(options, (response) => {
        const protocol = (response.socket as import("node:tls").TLSSocket).alpnProtocol;
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, protocol, body }));
      });
      request.on("error", reject);
      request.end(JSON.stringify(INITIALIZE));
    });
    expect(result.protocol).toBe("http/1.1");
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body).result.agentInfo.name).toBe("http-test-agent");
  });
});
