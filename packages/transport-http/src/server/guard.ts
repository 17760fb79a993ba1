// Who may use the endpoint (docs/remote.md RT1–RT3): the bearer token, the Host header (a page on a
// rebound DNS name reaches a loopback server with its own name in Host, so an unknown Host is the
// mark of DNS rebinding) and the browser Origin (a page on another origin may POST and open
// WebSockets; only this check stops it). Answers a refusal, or the CORS headers an allowed
// cross-origin page needs.
import { bearerTokenCheck, isLoopbackHost } from "@acpkit/transport-websocket";
import type { EndpointOptions } from "./types.js";

/** A refusal: HTTP status and the sentence that says why. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
  readonly headers?: Record<string, string>;
}

/** The CORS headers for an allowed page on another origin (empty for same-origin and non-browser requests). */
export type CorsHeaders = Record<string, string>;

const EXPOSED = "Acp-Connection-Id";
const ALLOWED_REQUEST_HEADERS = "Authorization, Content-Type, Accept, Acp-Connection-Id, Acp-Session-Id, Last-Event-ID";

export class Guard {
  private readonly tokenMatches: ReturnType<typeof bearerTokenCheck> | undefined;
  private readonly hosts: ReadonlySet<string> | "any" | "loopback";
  private readonly origins: ReadonlySet<string> | "any";

  constructor(options: Pick<EndpointOptions, "token" | "allowedHosts" | "allowedOrigins">) {
    if (options.token !== undefined && (typeof options.token !== "string" || options.token.length === 0))
      throw new TypeError("options.token must be a non-empty string");
    this.tokenMatches = options.token === undefined ? undefined : bearerTokenCheck(options.token);
    const hosts = options.allowedHosts;
    this.hosts =
      hosts === "any" ? "any" : hosts !== undefined ? new Set(hosts.map((host) => host.toLowerCase())) : options.token === undefined ? "loopback" : "any";
    const origins = options.allowedOrigins;
    this.origins = origins === "any" ? "any" : new Set((origins ?? []).map((origin) => origin.toLowerCase()));
  }

  /** Undefined when the request may go on, with the CORS headers to add; else the refusal. */
  check(header: (name: string) => string | undefined, query: URLSearchParams | undefined, secure: boolean): Refusal | { cors: CorsHeaders } {
    const host = header("host");
    if (!this.hostAllowed(host)) return { status: 421, message: `the Host ${JSON.stringify(host ?? "")} is not served here (allowedHosts)` };
    const origin = header("origin");
    let cors: CorsHeaders = {};
    if (origin !== undefined) {
      const sameOrigin = host !== undefined && origin.toLowerCase() === `${secure ? "https" : "http"}://${host.toLowerCase()}`;
      if (!sameOrigin) {
        if (!this.originAllowed(origin)) return { status: 403, message: `the origin ${origin} is not allowed (allowedOrigins)` };
        cors = {
          "Access-Control-Allow-Origin": origin,
          "Access-Control-Allow-Credentials": "true",
          "Access-Control-Expose-Headers": EXPOSED,
          Vary: "Origin",
        };
      }
    }
    if (this.tokenMatches !== undefined && !this.tokenMatches(header("authorization"), query))
      return { status: 401, message: "missing or wrong bearer token", headers: { "WWW-Authenticate": 'Bearer realm="acp"', ...cors } };
    return { cors };
  }

  /** The headers of a CORS preflight answer (the check above already ran). */
  static preflight(cors: CorsHeaders): Record<string, string> {
    if (cors["Access-Control-Allow-Origin"] === undefined) return {};
    return {
      ...cors,
      "Access-Control-Allow-Methods": "GET, POST, DELETE",
      "Access-Control-Allow-Headers": ALLOWED_REQUEST_HEADERS,
      "Access-Control-Max-Age": "600",
    };
  }

  private hostAllowed(host: string | undefined): boolean {
    if (this.hosts === "any") return true;
    if (host === undefined) return false;
    if (this.hosts === "loopback") return isLoopbackHost(hostname(host));
    return this.hosts.has(host.toLowerCase()) || this.hosts.has(hostname(host).toLowerCase());
  }

  private originAllowed(origin: string): boolean {
    if (this.origins === "any" || this.origins.has(origin.toLowerCase())) return true;
    try {
      return isLoopbackHost(new URL(origin).hostname);
    } catch {
      return false;
    }
  }
}

/** The name part of a Host header ("[::1]:80" → "[::1]", "a.example:8080" → "a.example"). */
function hostname(host: string): string {
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const colon = host.lastIndexOf(":");
  return colon === -1 ? host : host.slice(0, colon);
}
