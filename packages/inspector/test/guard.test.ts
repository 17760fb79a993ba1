// The guard's rules, request by request: Host (DNS rebinding), Origin (cross-site pages), token.
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { acceptedHosts, checkRequest, checkSameSite } from "../src/server/guard.js";

const policy = { hosts: acceptedHosts("127.0.0.1", 8123), token: "a-token-that-is-long-enough" };

function request(url: string, headers: Record<string, string>): IncomingMessage {
  return { url, headers } as unknown as IncomingMessage;
}

describe("inspector guard", () => {
  it("answers to the loopback names of its port only", () => {
    expect([...acceptedHosts("127.0.0.1", 8123)].sort()).toEqual(["127.0.0.1:8123", "[::1]:8123", "localhost:8123"]);
    expect([...acceptedHosts("::1", 9)].sort()).toEqual(["127.0.0.1:9", "[::1]:9", "localhost:9"]);
    expect([...acceptedHosts("192.168.1.5", 80)]).toEqual(["192.168.1.5:80"]);
  });

  it("refuses a foreign Host with 403 (DNS rebinding), before looking at the token", () => {
    const verdict = checkRequest(request(`/api/info?token=${policy.token}`, { host: "attacker.example:8123" }), policy);
    expect(verdict).toMatchObject({ ok: false, status: 403, reason: expect.stringContaining("attacker.example:8123") });
    expect(checkSameSite(request("/", { host: "127.0.0.1:9999" }), policy)).toMatchObject({ ok: false, status: 403 });
    expect(checkSameSite(request("/", {}), policy)).toMatchObject({ ok: false, status: 403 });
  });

  it("refuses a foreign or opaque Origin with 403 and accepts its own page", () => {
    const base = { host: "127.0.0.1:8123" };
    for (const origin of ["http://evil.example", "http://127.0.0.1:8124", "https://127.0.0.1:8123", "null", "not a url"]) {
      expect(checkSameSite(request("/", { ...base, origin }), policy), origin).toMatchObject({ ok: false, status: 403 });
    }
    expect(checkSameSite(request("/", { ...base, origin: "http://127.0.0.1:8123" }), policy)).toEqual({ ok: true });
    expect(checkSameSite(request("/", { ...base, origin: "http://localhost:8123" }), policy)).toEqual({ ok: true });
  });

  it("needs the token in the query or as a bearer token (401 otherwise)", () => {
    const base = { host: "localhost:8123" };
    expect(checkRequest(request("/api/info", base), policy)).toMatchObject({ ok: false, status: 401, reason: expect.stringContaining("missing") });
    expect(checkRequest(request("/api/info?token=wrong", base), policy)).toMatchObject({ ok: false, status: 401, reason: expect.stringContaining("wrong") });
    expect(checkRequest(request(`/api/info?token=${policy.token}`, base), policy)).toEqual({ ok: true });
    expect(checkRequest(request("/api/info", { ...base, authorization: `Bearer ${policy.token}` }), policy)).toEqual({ ok: true });
  });
});
