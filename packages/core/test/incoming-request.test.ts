// The handler context: its AbortController is made lazily, yet a cancel is never missed.
import { describe, expect, it } from "vitest";
import { IncomingRequest } from "../src/incoming-request.js";

const fail = (error: unknown) => {
  throw error;
};

describe("IncomingRequest (RequestContext)", () => {
  it("aborts a signal read before the cancel, with the cancel's reason", () => {
    const ctx = new IncomingRequest(7, "session/prompt", fail);
    const signal = ctx.signal;
    expect(signal.aborted).toBe(false);
    const reason = new Error("peer cancelled");
    ctx.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    expect(ctx.aborted).toBe(true);
  });

  it("hands out an already aborted signal when it is first read after the cancel", () => {
    const ctx = new IncomingRequest("a", "fs/read_text_file", fail);
    ctx.abort("closed");
    expect(ctx.signal.aborted).toBe(true);
    expect(ctx.signal.reason).toBe("closed");
    expect(ctx.signal).toBe(ctx.signal);
  });

  it("calls onCancel listeners once, and at once when the request was already cancelled", () => {
    const ctx = new IncomingRequest(1, "session/prompt", fail);
    const seen: unknown[] = [];
    ctx.onCancel((reason) => seen.push(["first", reason]));
    ctx.abort("x");
    ctx.abort("y"); // a second cancel changes nothing
    ctx.onCancel((reason) => seen.push(["late", reason]));
    expect(seen).toEqual([
      ["first", "x"],
      ["late", "x"],
    ]);
  });

  it("reports a throwing onCancel listener and still runs the others", () => {
    const reported: unknown[] = [];
    const ctx = new IncomingRequest(2, "session/prompt", (error, method) => reported.push([method, (error as Error).message]));
    const ran: string[] = [];
    ctx.onCancel(() => {
      throw new Error("listener broke");
    });
    ctx.onCancel(() => ran.push("second"));
    ctx.abort("x");
    expect(reported).toEqual([["session/prompt", "listener broke"]]);
    expect(ran).toEqual(["second"]);
  });
});
