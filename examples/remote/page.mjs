// The browser side: connects to the agent at this page's own /acp over the profile named by
// ?profile= (http, the default: HTTP+SSE; ws: WebSocket), runs one turn with @acpkit/client,
// allows the permission the agent asks for, and writes what happens into the page.
import { connectAgent } from "@acpkit/client";
import { connectRemote } from "@acpkit/transport-http/browser";

const log = document.getElementById("log");
const say = (line) => {
  log.textContent += `${line}\n`;
};

async function main() {
  const params = new URLSearchParams(location.search);
  const profile = params.get("profile") === "ws" ? "ws" : "http";
  const endpoint = new URL("/acp", location.href);
  if (profile === "ws") endpoint.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const agent = await connectAgent(await connectRemote(endpoint.href), {
    protocolVersion: 2,
    requestPermission: (request) => {
      say(`permission asked: ${request.toolCall?.title ?? "?"} → allow`);
      return { outcome: "selected", optionId: "allow" };
    },
  });
  say(`connected to ${agent.agentInfo?.name} over ${profile === "ws" ? "WebSocket" : "HTTP+SSE"}, protocol v${agent.protocolVersion}`);
  const session = await agent.newSession({ cwd: "/" });
  const turn = session.prompt(params.get("prompt") ?? "hello from the browser");
  for await (const update of turn) say(`update ${String(update.sessionUpdate)}`);
  const { stopReason } = await turn;
  const answer =
    session.state
      .toJSON()
      .messages.at(-1)
      ?.content.map((block) => block.text ?? "")
      .join("") ?? "";
  say(`answer: ${answer.trim()}`);
  say(`stop reason: ${stopReason}`);
  await agent.close();
  document.title = `done: ${stopReason}`;
}

main().catch((error) => {
  say(`error: ${error.message}`);
  document.title = "failed";
});
