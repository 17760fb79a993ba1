// The inspector page's entry: read the token from the URL, ask the server what it is serving, and
// draw the app (which, in tap mode, starts following the tap's record).
import { render } from "preact";
import { INFO_PATH, TOKEN_PARAM, type InspectorInfo } from "../common/protocol.js";
import { App } from "./components/app.js";
import { Controller } from "./controller.js";

async function start(): Promise<void> {
  const root = document.getElementById("app")!;
  const token = new URLSearchParams(location.search).get(TOKEN_PARAM);
  if (token === null) {
    root.textContent = "This page needs the inspector's token: open the URL that `acpkit inspect` printed (it ends in ?token=…).";
    return;
  }
  const response = await fetch(`${INFO_PATH}?${TOKEN_PARAM}=${encodeURIComponent(token)}`);
  if (!response.ok) {
    root.textContent = `The inspector refused this page (${response.status}): ${await response.text()}`;
    return;
  }
  const info = (await response.json()) as InspectorInfo;
  const controller = new Controller(info, token);
  document.title = `acpkit inspect — ${info.agentCommand.join(" ")}`;
  root.textContent = "";
  render(<App controller={controller} />, root);
  if (info.mode === "tap") controller.followTap();
}

void start();
