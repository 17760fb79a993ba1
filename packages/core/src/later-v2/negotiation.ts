// The later v2 draft's version rule (docs/protocol.md A2): the agent answers the highest version it
// supports at or below the requested one, and when there is none it fails `initialize` with -32022
// and `data: {requested, supported}`. (v1 and the pinned v2 answer the agent's latest instead.)
import { ErrorCode, valueKind } from "../index.js";

const MAX_PROTOCOL_VERSION = 65535;

export type LaterVersionChoice =
  | { ok: true; version: number }
  | { ok: false; code: number; message: string; data: { path?: string; message?: string; requested?: number; supported?: number[] } };

/** The version to answer a later-draft `initialize` with, or the error to answer instead. */
export function chooseLaterVersion(requested: unknown, supported: readonly number[]): LaterVersionChoice {
  if (typeof requested !== "number" || !Number.isInteger(requested) || requested < 0 || requested > MAX_PROTOCOL_VERSION) {
    return {
      ok: false,
      code: ErrorCode.InvalidParams,
      message: `Invalid protocolVersion: expected an integer from 0 to ${MAX_PROTOCOL_VERSION}, got ${valueKind(requested)}`,
      data: { path: "/protocolVersion", message: `must be an integer from 0 to ${MAX_PROTOCOL_VERSION}` },
    };
  }
  let best: number | undefined;
  for (const version of supported) if (version <= requested && (best === undefined || version > best)) best = version;
  if (best !== undefined) return { ok: true, version: best };
  return {
    ok: false,
    code: ErrorCode.UnsupportedProtocolVersion,
    message: `Unsupported protocol version ${requested}: this agent supports ${supported.join(", ")}`,
    data: { requested, supported: [...supported].sort((a, b) => a - b) },
  };
}
