// @acpkit/inspector: the web inspector behind `acpkit inspect`.
// - `startInspector` serves a page that drives an agent (one agent process per page connection).
// - `startTap` proxies an editor's stdio to the agent unchanged and shows the traffic read-only.
// Both listen on 127.0.0.1 by default and guard every API request and WebSocket upgrade with a
// per-launch token, the Host and the Origin (docs/inspector.md).
export { startInspector, pageUrl, type Inspector, type InspectorOptions } from "./server/inspect.js";
export { startTap, type AgentExit, type Tap, type TapOptions } from "./server/tap.js";
export { openBrowser } from "./server/open-browser.js";
export type { EventLogLimits } from "./server/event-log.js";
export {
  ACP_PATH,
  EVENTS_PATH,
  INFO_PATH,
  TOKEN_PARAM,
  type InspectorInfo,
  type InspectorMode,
  type TapEvent,
  type TapGapEvent,
  type TapMessageEvent,
  type TapStatusEvent,
  type WireDirection,
} from "./common/protocol.js";
