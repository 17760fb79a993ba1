// The browser side: connects to the WebSocket agent named by the page's `?agent=ws://…` parameter,
// runs one prompt turn with @acpkit/client and writes it into the page. Bundle it for the browser:
//   pnpm build:browser   (esbuild → websocket/public/client.js, loaded by public/index.html)
import { connectAgent } from "@acpkit/client";
import { connect } from "@acpkit/transport-websocket/browser";

const log = document.getElementById("log");
const say = (line) => {
  log.textContent += `${line}\n`;
};

async function main() {
  const params = new URLSearchParams(location.search);
  const url = params.get("agent") ?? "ws://127.0.0.1:8765/acp";
  const agent = await connectAgent(await connect(url), { protocolVersion: 2 });
  say(`connected to ${agent.agentInfo?.name} over protocol v${agent.protocolVersion}`);
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
