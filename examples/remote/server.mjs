#!/usr/bin/env node
// An ACP agent served to a browser page over the remote endpoint (docs/remote.md): one node:http
// server on 127.0.0.1 serves the page at / and the agent at /acp, both profiles (HTTP+SSE and
// WebSocket). The page is the same origin as the endpoint, so the endpoint's Origin check lets it
// in; a page of another origin would be refused (403). Prints `serving: http://127.0.0.1:PORT/`.
//
//   node remote/server.mjs [port]        then open the URL it prints (add ?profile=ws for WebSocket)
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { serveAgent } from "@acpkit/agent";
import { createAcpEndpoint } from "@acpkit/transport-http";
import { build } from "esbuild";

/** The agent: asks permission to "edit" a file, then answers in capitals. */
const agent = {
  info: { name: "remote-example-agent", version: "1.0.0" },
  async prompt(turn) {
    const text = turn.prompt.map((block) => (block.type === "text" ? block.text : "")).join(" ");
    const edit = turn.toolCall({ title: "Edit notes.txt", kind: "edit", status: "pending" });
    const outcome = await edit.requestPermission(
      [
        { optionId: "allow", name: "Allow", kind: "allow_once" },
        { optionId: "reject", name: "Reject", kind: "reject_once" },
      ],
      { title: "Edit notes.txt" },
    );
    if (outcome.outcome === "selected" && outcome.optionId === "allow") edit.complete();
    else edit.fail();
    const message = turn.message();
    for (const word of text.split(/\s+/).filter(Boolean)) message.append(`${word.toUpperCase()} `);
    return "end_turn";
  },
};

// The page's script, bundled for the browser once at start (the client and the HTTP transport's browser entry).
const bundle = await build({
  entryPoints: [new URL("./page.mjs", import.meta.url).pathname],
  bundle: true,
  format: "esm",
  platform: "browser",
  write: false,
});
const script = bundle.outputFiles[0].contents;
const page = readFileSync(new URL("./index.html", import.meta.url));

const endpoint = createAcpEndpoint({ onConnection: (transport) => serveAgent(transport, agent) });
const server = createServer((request, response) => {
  const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
  if (path === "/acp") return endpoint.node(request, response);
  if (path === "/page.js") return response.writeHead(200, { "content-type": "text/javascript" }).end(script);
  if (path === "/" || path === "/index.html") return response.writeHead(200, { "content-type": "text/html" }).end(page);
  response.writeHead(404).end();
});
server.on("upgrade", endpoint.upgrade);
server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => console.log(`serving: http://127.0.0.1:${server.address().port}/`));
for (const signal of ["SIGINT", "SIGTERM"])
  process.once(signal, () => {
    void endpoint.close().then(() => {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    });
  });
