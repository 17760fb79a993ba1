// §3.1 E9: a response must answer a request that waits for one. Late answers to requests we gave
// up on are expected and quiet; an id we never sent and a second answer to an answered request are
// the peer breaking the protocol, reported once each and otherwise ignored.
import { describe, expect, it } from "vitest";
import { PendingRequest, PendingRequests, REMEMBERED_ABANDONED_IDS } from "../src/pending-requests.js";
import { scripted, settle } from "./helpers/transports.js";

const PERMISSION = { sessionId: "s", options: [] };

function unexpected(diagnostics: { code: string; message: string }[]): string[] {
  return diagnostics.filter((d) => d.code === "unexpected_response").map((d) => d.message);
}

describe("E9: responses that answer no waiting request", () => {
  it("reports a second answer to an answered request and keeps the first", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 1 });
    const pending = connection.request("session/request_permission", PERMISSION);
    const sent = await transport.next();
    transport.deliver({ jsonrpc: "2.0", id: sent.id, result: { outcome: { outcome: "cancelled" } } });
    transport.deliver({ jsonrpc: "2.0", id: sent.id, result: { outcome: { outcome: "selected", optionId: "allow" } } });
    expect(await pending).toEqual({ outcome: { outcome: "cancelled" } });
    await settle();
    expect(unexpected(diagnostics)).toEqual([`Ignored a second response to request id ${sent.id}, which was already answered`]);
  });

  it("reports an id it never sent, by its value", async () => {
    const { transport, diagnostics } = scripted({ side: "agent", version: 1 });
    transport.deliver({ jsonrpc: "2.0", id: 99, result: {} });
    await settle();
    expect(unexpected(diagnostics)).toEqual(["Ignored a response to unknown request id 99"]);
  });

  it("takes the first late answer to a cancelled request quietly, and reports a second one", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 2 });
    const controller = new AbortController();
    const pending = connection.request("session/request_permission", PERMISSION, { signal: controller.signal });
    const sent = await transport.next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "Cancelled" });
    transport.deliver({ jsonrpc: "2.0", id: sent.id, result: { outcome: { outcome: "cancelled" } } });
    await settle();
    expect(unexpected(diagnostics)).toEqual([]);
    transport.deliver({ jsonrpc: "2.0", id: sent.id, result: { outcome: { outcome: "cancelled" } } });
    await settle();
    expect(unexpected(diagnostics)).toEqual([`Ignored a second response to request id ${sent.id}, which was already answered`]);
  });

  it("takes a late answer after a timeout quietly", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 1 });
    const pending = connection.request("fs/read_text_file", { sessionId: "s", path: "/a" }, { timeoutMs: 1 });
    const sent = await transport.next();
    await expect(pending).rejects.toMatchObject({ code: "Timeout" });
    transport.deliver({ jsonrpc: "2.0", id: sent.id, error: { code: -32800, message: "Request cancelled" } });
    await settle();
    expect(unexpected(diagnostics)).toEqual([]);
  });

  it("takes an answer to a request whose send failed quietly", async () => {
    const { transport, connection, diagnostics } = scripted({ side: "agent", version: 2 });
    const send = transport.send.bind(transport);
    // The write fails after the line went out (the peer may have read it): only this request fails.
    transport.send = (message) => {
      transport.send = send;
      void send(message);
      return Promise.reject(new Error("write failed"));
    };
    const pending = connection.request("session/request_permission", PERMISSION);
    await expect(pending).rejects.toThrow("write failed");
    const sent = await transport.next();
    transport.deliver({ jsonrpc: "2.0", id: sent.id, result: { outcome: { outcome: "cancelled" } } });
    await settle();
    expect(unexpected(diagnostics)).toEqual([]);
  });
});

describe("PendingRequests: what an unmatched response answers", () => {
  function issue(requests: PendingRequests, count: number): number[] {
    return Array.from({ length: count }, () => {
      const id = requests.allocateId();
      requests.add(new PendingRequest(id, "m"));
      return id;
    });
  }

  it("tells unknown, late and repeated apart", () => {
    const requests = new PendingRequests();
    const [answered, abandoned] = issue(requests, 2) as [number, number];
    expect(requests.take(answered)).toBeDefined();
    expect(requests.abandon(abandoned)).toBeDefined();
    expect(requests.unmatched(answered)).toBe("repeated");
    expect(requests.unmatched(abandoned)).toBe("late");
    expect(requests.unmatched(abandoned)).toBe("repeated"); // the late answer came; a second one is not late
    expect(requests.unmatched(7)).toBe("unknown");
    expect(requests.unmatched("0")).toBe("unknown");
    expect(requests.unmatched(-1)).toBe("unknown");
    expect(requests.unmatched(0.5)).toBe("unknown");
  });

  it(`remembers at most ${REMEMBERED_ABANDONED_IDS} given-up ids, and never reports a forgotten one as repeated`, () => {
    const requests = new PendingRequests();
    const ids = issue(requests, REMEMBERED_ABANDONED_IDS + 10);
    for (const id of ids) requests.abandon(id);
    expect((requests as unknown as { abandoned: Set<number> }).abandoned.size).toBe(REMEMBERED_ABANDONED_IDS);
    // The ten oldest were dropped: their late answers still count as late, not as second answers.
    for (const id of ids.slice(0, 10)) expect(requests.unmatched(id)).toBe("late");
    for (const id of ids.slice(10)) expect(requests.unmatched(id)).toBe("late");
    // A request answered after the forgotten range is still told apart.
    const [later] = issue(requests, 1) as [number];
    requests.take(later);
    expect(requests.unmatched(later)).toBe("repeated");
  });
});
