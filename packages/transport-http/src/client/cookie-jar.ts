// The cookies one client keeps for the endpoint (RT17): the RFD lets a load balancer pin a
// connection to a node with a cookie, so a client must send back what it was given, on every
// request of the connection. Browsers do this themselves (credentials: "include"); in Node this
// jar does. One endpoint, one origin: Domain and Path do not narrow anything here and are not kept.

/** Where the client keeps cookies; pass your own to keep affinity across reconnects. */
export interface CookieStore {
  /** The Cookie header to send, or undefined when there is none. */
  header(): string | undefined;
  /** Take the Set-Cookie headers of a response. */
  store(setCookies: readonly string[]): void;
}

/** A CookieStore in memory, honouring Max-Age and Expires (a past one deletes). At most 64 cookies of 4 KiB. */
export class MemoryCookieStore implements CookieStore {
  private readonly cookies = new Map<string, { value: string; expires: number }>();

  /** The Cookie header of the cookies that have not expired. */
  header(): string | undefined {
    const now = Date.now();
    const pairs: string[] = [];
    for (const [name, cookie] of this.cookies) {
      if (cookie.expires <= now) this.cookies.delete(name);
      else pairs.push(`${name}=${cookie.value}`);
    }
    return pairs.length === 0 ? undefined : pairs.join("; ");
  }

  /** Keep the cookies of Set-Cookie headers; one whose Max-Age is 0 or whose Expires has passed is forgotten. */
  store(setCookies: readonly string[]): void {
    for (const line of setCookies) {
      if (line.length > 4096) continue;
      const [pair = "", ...attributes] = line.split(";");
      const equals = pair.indexOf("=");
      if (equals <= 0) continue;
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      let expires = Number.POSITIVE_INFINITY;
      for (const attribute of attributes) {
        const [key = "", raw = ""] = attribute.split("=", 2).map((part) => part.trim());
        if (key.toLowerCase() === "max-age" && /^-?\d+$/.test(raw)) expires = Date.now() + Number(raw) * 1000;
        else if (key.toLowerCase() === "expires" && expires === Number.POSITIVE_INFINITY) {
          const at = Date.parse(raw);
          if (!Number.isNaN(at)) expires = at;
        }
      }
      if (expires <= Date.now()) this.cookies.delete(name);
      else if (this.cookies.has(name) || this.cookies.size < 64) this.cookies.set(name, { value, expires });
    }
  }
}
