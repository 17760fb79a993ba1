// `@acpkit/core/bridge`, loaded only when a client's `initialize` negotiates protocol v1: an agent
// serving a v2 client never loads it. `loadOnInitialize` loads it right after `initialize` is
// answered (which needs only the validators) and holds every later message until it is loaded, so
// everything after `initialize` finds it loaded and uses it synchronously (a v1 session/new
// converts its MCP servers, a v1 session wire converts updates).

/** The bridge module's exports. */
export type BridgeModule = typeof import("@acpkit/core/bridge");

let loading: Promise<BridgeModule> | undefined;
let loaded: BridgeModule | undefined;

/** Load the v1 bridge (once; later calls share the first). */
export function loadV1Bridge(): Promise<BridgeModule> {
  return (loading ??= import("@acpkit/core/bridge").then((module) => (loaded = module)));
}

export function isV1BridgeLoaded(): boolean {
  return loaded !== undefined;
}

/** The loaded bridge; only code that runs on a v1 connection, after `initialize`, asks for it. */
export function v1Bridge(): BridgeModule {
  if (loaded === undefined) throw new Error("The v1 bridge is not loaded: it loads when initialize negotiates protocol v1 (loadV1Bridge)");
  return loaded;
}
