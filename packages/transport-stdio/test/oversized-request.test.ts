// A request on a line over the size limit is still answered (-32600 under its own id) instead of
// never: the reader finds the id while it discards the line, and the Connection answers it.
import { PassThrough } from "node:stream";
import { Connection, ErrorCode } from "@acpkit/core";
import { describe, expect, it } from "vitest";
import { NdjsonStreamTransport } from "../src/index.js";

function agentOverStreams(maxMessageSize: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new NdjsonStreamTransport(input, output, { maxMessageSize });
  const connection = new Connection(transport, { side: "agent", version: 2 });
  connection.onRequest("session/new", () => ({ sessionId: "s" }));
  const replies: any[] = [];
  let buffered = "";
  output.setEncoding("utf8").on("data", (text: string) => {
    buffered += text;
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      replies.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
    }
  });
  // The next reply, as soon as it is parsed (within a generous 20 s: the connection may still be
  // loading its version's validators when the first line arrives).
  const next = () =>
    new Promise<any>((resolve, reject) => {
      const check = () => {
        if (replies.length === 0) return;
        output.off("data", check);
        clearTimeout(timer);
        resolve(replies.shift());
      };
      const timer = setTimeout(() => {
        output.off("data", check);
        reject(new Error("no reply within 20 s"));
      }, 20_000);
      output.on("data", check);
      check();
    });
  return { input, connection, next };
}

describe("a request over the size limit", () => {
  it.each([
    ["in one chunk", 1],
    ["in many chunks (the limit is passed before the newline)", 64],
  ])("is answered -32600 under its own id when it arrives %s, and the connection goes on", async (_label, pieces) => {
    const { input, next } = agentOverStreams(1000);
    const line = Buffer.from(`{"jsonrpc":"2.0","method":"session/new","params":{"cwd":"${"x".repeat(5000)}","mcpServers":[]},"id":"big-1"}\n`);
    const step = Math.ceil(line.length / pieces);
    for (let at = 0; at < line.length; at += step) input.write(line.subarray(at, Math.min(line.length, at + step)));
    const reply = await next();
    expect(reply).toMatchObject({ id: "big-1", error: { code: ErrorCode.InvalidRequest } });
    expect(reply.error.message).toContain("larger than the receiver's size limit");
    input.write(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/p","mcpServers":[]}}\n`);
    expect(await next()).toMatchObject({ id: 2, result: { sessionId: "s" } });
  });

  it("an oversized notification gets no answer (it has no id)", async () => {
    const { input, next } = agentOverStreams(1000);
    input.write(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"${"x".repeat(5000)}"}}\n`);
    input.write(`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/p","mcpServers":[]}}\n`);
    expect(await next()).toMatchObject({ id: 3, result: { sessionId: "s" } });
  });
});
