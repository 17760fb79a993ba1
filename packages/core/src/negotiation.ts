// Protocol version negotiation for `initialize` (docs/protocol.md §1.2).
// The agent reads `protocolVersion` before validating anything else in the request, because the
// rest of the params can only be interpreted once the version is chosen. A version it does not
// speak is answered with its own latest one — never an error; only a malformed value is an error.
import { describeValue } from "./jsonrpc.js";
import { ErrorCode, RpcError } from "./errors.js";
import type { ProtocolVersion } from "./registry.js";

/** What `negotiateVersion` decided: the version to speak, or the -32602 error to answer with. */
export type NegotiationResult = { ok: true; version: ProtocolVersion } | { ok: false; error: RpcError };

const MAX_PROTOCOL_VERSION = 65535;

/**
 * Choose the connection's version from the client's requested `protocolVersion`:
 * the requested one when it is in `supported`, otherwise the latest in `supported`.
 * A value that is absent, not an integer, or outside 0..65535 yields a -32602 `RpcError`
 * (throw it from the `initialize` handler).
 */
export function negotiateVersion(requested: unknown, supported: readonly ProtocolVersion[]): NegotiationResult {
  if (supported.length === 0) throw new TypeError("negotiateVersion: the supported version list is empty");
  if (typeof requested !== "number" || !Number.isInteger(requested) || requested < 0 || requested > MAX_PROTOCOL_VERSION) {
    const got = describeValue(requested);
    return {
      ok: false,
      error: new RpcError(ErrorCode.InvalidParams, `Invalid protocolVersion: expected an integer from 0 to ${MAX_PROTOCOL_VERSION}, got ${got}`, {
        path: "/protocolVersion",
        message: `must be an integer from 0 to ${MAX_PROTOCOL_VERSION}`,
      }),
    };
  }
  if ((supported as readonly number[]).includes(requested)) return { ok: true, version: requested as ProtocolVersion };
  let latest = supported[0] as ProtocolVersion;
  for (const version of supported) if (version > latest) latest = version;
  return { ok: true, version: latest };
}

/** Reads `protocolVersion` from raw `initialize` params (which have not been validated yet). */
export function requestedVersionOf(params: unknown): unknown {
  return typeof params === "object" && params !== null ? (params as { protocolVersion?: unknown }).protocolVersion : undefined;
}
