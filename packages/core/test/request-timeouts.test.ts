// Requests do not wait forever for a peer that never answers: a default timeout for methods that
// answer promptly, none for open-ended ones (a prompt turn may run for hours), and per-call
// overrides. The failure is AcpError "Timeout", distinct from a peer's error or a closed pipe.
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_REQUEST_TIMEOUT_MS, UNTIMED_METHODS } from "../src/index.js";
import { scripted } from "./helpers/transports.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("request timeouts", () => {
  it("a request the peer never answers rejects with Timeout after the default, and v1 asks the peer to stop", async () => {
    vi.useFakeTimers();
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(60_000);
    const { transport, connection } = scripted({ side: "client", version: 1 });
    const pending = connection.request("session/new", { cwd: "/p", mcpServers: [] });
    const outcome = pending.then(
      () => "answered",
      (error: { code: string; message: string }) => error,
    );
    const sent = await transport.next();
    await vi.advanceTimersByTimeAsync(DEFAULT_REQUEST_TIMEOUT_MS - 1);
    expect(transport.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatchObject({ code: "Timeout", message: expect.stringContaining("no answer within 60000 ms") });
    expect(await transport.next()).toEqual({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: sent.id } });
  });

  it("session/prompt and the other open-ended methods get no default timeout", async () => {
    vi.useFakeTimers();
    expect([...UNTIMED_METHODS]).toEqual(expect.arrayContaining(["session/prompt", "session/request_permission", "authenticate"]));
    const { transport, connection } = scripted({ side: "client", version: 2 });
    let settled = false;
    const pending = connection.request("session/prompt", { sessionId: "s", prompt: [] });
    pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    const sent = await transport.next();
    await vi.advanceTimersByTimeAsync(6 * 60 * 60 * 1000);
    expect(settled).toBe(false);
    transport.deliver({ jsonrpc: "2.0", id: sent.id, result: { stopReason: "end_turn" } });
    await expect(pending).resolves.toEqual({ stopReason: "end_turn" });
  });

  it("per call: timeoutMs overrides the default and null waits forever; the connection option changes the default", async () => {
    vi.useFakeTimers();
    const { transport, connection } = scripted({ side: "client", version: 2, requestTimeoutMs: 1000 });
    const short = connection.request("session/new", { cwd: "/p", mcpServers: [] }).catch((error) => error);
    const forever = connection.request("session/new", { cwd: "/q", mcpServers: [] }, { timeoutMs: null });
    let foreverSettled = false;
    forever.then(
      () => (foreverSettled = true),
      () => (foreverSettled = true),
    );
    const bounded = connection.request("session/prompt", { sessionId: "s", prompt: [] }, { timeoutMs: 500 }).catch((error) => error);
    await vi.advanceTimersByTimeAsync(500);
    expect(await bounded).toMatchObject({ code: "Timeout" });
    await vi.advanceTimersByTimeAsync(500);
    expect(await short).toMatchObject({ code: "Timeout" });
    await vi.advanceTimersByTimeAsync(10 * DEFAULT_REQUEST_TIMEOUT_MS);
    expect(foreverSettled).toBe(false);
    expect(transport.sent.filter((message: { method?: string }) => message.method === "session/new")).toHaveLength(2);
  });

  it("refuses a nonsensical requestTimeoutMs", () => {
    expect(() => scripted({ side: "client", requestTimeoutMs: -5 })).toThrow(/requestTimeoutMs must be a positive number of milliseconds or null/);
  });
});
