// The agent's load-on-initialize wrapper pauses its transport while a version's validators load.
// The Connection above it pauses too when its incoming queue backs up (docs/protocol.md E8): the
// two reasons compose, so the end of the load must not resume input the Connection still holds.
import type { CloseInfo, Transport, TransportReceiver } from "@acpkit/core";
import { describe, expect, it, vi } from "vitest";
import { loadOnInitialize } from "../src/load-on-initialize.js";

// v2's load is played by hand here, so
// the test decides when it finishes.
const load = vi.hoisted(() => ({ loaded: false, finish: undefined as (() => void) | undefined }));
vi.mock("@acpkit/core", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@acpkit/core")>()),
  isProtocolVersionLoaded: () => load.loaded,
  loadProtocolVersion: () =>
    new Promise<void>((resolve) => {
      load.finish = () => {
        load.loaded = true;
        resolve();
      };
    }),
}));

function innerTransport() {
  const state = { paused: false, calls: [] as string[], receiver: undefined as TransportReceiver | undefined };
  const transport: Transport = {
    start: (receiver) => {
      state.receiver = receiver;
    },
    send: () => Promise.resolve(),
    close: () => Promise.resolve(),
    closed: new Promise<CloseInfo>(() => {}),
    pause: () => {
      state.paused = true;
      state.calls.push("pause");
    },
    resume: () => {
      state.paused = false;
      state.calls.push("resume");
    },
  };
  return { transport, state };
}

const initialize = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 2 } });

describe("loadOnInitialize: pausing composes with the load", () => {
  it("resumes input after the load when nobody else paused it", async () => {
    load.loaded = false;
    const { transport, state } = innerTransport();
    const wrapped = loadOnInitialize(transport, [2], () => false, "agent");
    const delivered: unknown[] = [];
    wrapped.start({ onMessage: (message) => delivered.push(message), onTransportError: () => {} });
    state.receiver!.onMessage(initialize);
    expect(state.calls).toEqual(["pause"]);
    load.finish!();
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(delivered).toEqual([initialize]);
    expect(state.calls).toEqual(["pause", "resume"]);
  });

  it("keeps input paused after the load when the caller paused meanwhile, and resumes on the caller's resume", async () => {
    load.loaded = false;
    const { transport, state } = innerTransport();
    const wrapped = loadOnInitialize(transport, [2], () => false, "agent");
    expect(wrapped).not.toBe(transport);
    const delivered: unknown[] = [];
    let resolveDelivered!: () => void;
    const initializeDelivered = new Promise<void>((resolve) => {
      resolveDelivered = resolve;
    });
    wrapped.start({
      onMessage: (message) => {
        delivered.push(message);
        resolveDelivered();
      },
      onTransportError: () => {},
    });
    state.receiver!.onMessage(initialize);
    expect(state.paused).toBe(true); // paused for the load
    state.receiver!.onMessage("held");
    wrapped.pause!(); // the Connection's queue backed up meanwhile
    expect(delivered).toEqual([]);
    load.finish!();
    await initializeDelivered;
    // Let the load finish (v2 has no bridge step) and release what it held.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(delivered).toEqual([initialize, "held"]);
    expect(state.paused).toBe(true);
    wrapped.resume!();
    expect(state.paused).toBe(false);
    expect(state.calls.at(-1)).toBe("resume");
  });
});

describe("loadOnInitialize: the receiver's optional hooks", () => {
  // Before: the wrapper's receiver had no onOutputCongestion, so while it was in place the
  // Connection above never learnt that the peer stopped reading and did not hold its answers.
  it("passes output congestion on to the Connection's receiver, and gives none to a receiver without it", () => {
    load.loaded = false;
    const { transport, state } = innerTransport();
    const congestion: boolean[] = [];
    loadOnInitialize(transport, [2], () => false, "agent").start({
      onMessage: () => {},
      onTransportError: () => {},
      onOutputCongestion: (congested) => congestion.push(congested),
    });
    state.receiver!.onOutputCongestion!(true);
    state.receiver!.onOutputCongestion!(false);
    expect(congestion).toEqual([true, false]);
    const bare = innerTransport();
    loadOnInitialize(bare.transport, [2], () => false, "agent").start({ onMessage: () => {}, onTransportError: () => {} });
    expect(bare.state.receiver!.onOutputCongestion).toBeUndefined();
  });
});
