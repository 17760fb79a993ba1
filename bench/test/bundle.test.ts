// The bundle scenario measures the initial load a web client ships: the entry's own chunk and its
// static imports. With code splitting, every dynamic import (the bridge, each version's validators)
// is an entry point of esbuild's too; the measurement must start from ours, not from the first.
import { describe, expect, it } from "vitest";
import { bundleLoad, ENTRIES } from "../scenarios/bundle.js";

describe("bundle scenario", () => {
  it("measures acpkit's initial load from its own entry: the client and the WebSocket transport, with the bridge and validators lazy", async () => {
    const load = await bundleLoad("acpkit", ENTRIES.acpkit!);
    expect(load.initialFiles[0]).toBe("acpkit-entry.js");
    const code = load.initial.toString("utf8");
    expect(code).toContain("connectAgent"); // the client's export
    expect(code).toContain("WebSocketStream"); // the browser transport
    const lazyNames = [...load.lazy.keys()];
    expect(lazyNames.some((name) => name.startsWith("bridge-"))).toBe(true);
    // One lazy chunk per schema: v1, the pinned v2 and the later v2 draft.
    expect(lazyNames.filter((name) => name.startsWith("validators-"))).toHaveLength(3);
    expect(load.initialFiles.some((name) => name.startsWith("bridge-") || name.startsWith("validators-"))).toBe(false);
  }, 60_000);
});
