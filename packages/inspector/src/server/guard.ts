// Who may talk to the inspector. The page's server holds a live agent that can edit files and run
// commands, so every API request and WebSocket upgrade needs the launch token (401 without), and
// a request that a foreign page could have caused is refused before the token is even looked at
// (403): a `Host` that is not the address the server was started on defeats DNS rebinding, and
// a foreign `Origin` defeats cross-site WebSocket hijacking. The static page itself needs no
// token (it reads it from its own URL), but the same Host and Origin rules apply to it.
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { parseRequestTarget } from "@acpkit/core/transport-kit";
import { TOKEN_PARAM } from "../common/protocol.js";

/** Whether a request may proceed, or the status and reason to refuse it with. */
export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/** What the guard compares requests against: the `host:port` forms the server answers to, and the token. */
export interface GuardPolicy {
  /** Accepted `Host` values (lower case, with port), e.g. `127.0.0.1:8123`, `localhost:8123`. */
  hosts: ReadonlySet<string>;
  token: string;
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** The Host values a server bound to `host:port` answers to: the loopback names for a loopback bind. */
export function acceptedHosts(host: string, port: number): Set<string> {
  const bracketed = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const names = LOOPBACK_NAMES.includes(bracketed) || host === "::1" ? LOOPBACK_NAMES : [bracketed.toLowerCase()];
  return new Set(names.map((name) => `${name}:${port}`));
}

/** Host and Origin only: what even the static page must pass. */
export function checkSameSite(request: IncomingMessage, policy: GuardPolicy): GuardVerdict {
  const host = request.headers.host?.toLowerCase();
  if (host === undefined || !policy.hosts.has(host)) {
    return { ok: false, status: 403, reason: `Host ${JSON.stringify(request.headers.host ?? "")} is not this inspector's address` };
  }
  const origin = request.headers.origin;
  // Browsers send Origin on WebSocket upgrades and cross-site requests; tools often send none.
  if (origin !== undefined && origin !== "null") {
    let originHost: string | undefined;
    try {
      const url = new URL(origin);
      originHost = url.protocol === "http:" ? url.host.toLowerCase() : undefined;
    } catch {
      originHost = undefined;
    }
    if (originHost === undefined || !policy.hosts.has(originHost))
      return { ok: false, status: 403, reason: `Origin ${JSON.stringify(origin)} is not this inspector's page` };
  } else if (origin === "null") {
    return { ok: false, status: 403, reason: 'Origin "null" (a sandboxed or file page) is not this inspector\'s page' };
  }
  return { ok: true };
}

/** Host, Origin and the token (in `?token=` or `Authorization: Bearer`): what every API request and upgrade must pass. */
export function checkRequest(request: IncomingMessage, policy: GuardPolicy): GuardVerdict {
  const site = checkSameSite(request, policy);
  if (!site.ok) return site;
  const given = presentedToken(request);
  if (given === undefined) return { ok: false, status: 401, reason: "the inspector token is missing (open the URL the command printed)" };
  if (!sameSecret(given, policy.token)) return { ok: false, status: 401, reason: "the inspector token is wrong" };
  return { ok: true };
}

function presentedToken(request: IncomingMessage): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization !== undefined && /^Bearer /i.test(authorization)) return authorization.slice(7).trim();
  // An unparsable target has no token (the server answers it 400 before asking).
  return parseRequestTarget(request.url)?.searchParams.get(TOKEN_PARAM) ?? undefined;
}

/** Constant-time comparison, so response timing says nothing about how much of a guess was right. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
