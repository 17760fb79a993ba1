// ACP method policy: which methods exist in the connection's version, which way each flows, which
// are requests and which notifications, and how to validate them. The Connection asks this module
// before it sends, registers or dispatches anything; it knows no method names itself.
import { AcpError } from "./errors.js";
import { describeValidation, firstError } from "./wire-errors.js";
import type { Side } from "./method-types.js";
import {
  KNOWN_VERSIONS,
  isProtocolVersionLoaded,
  loadProtocolVersion,
  schemaRegistry,
  type MethodInfo,
  type MethodRegistry,
  type ProtocolVersion,
} from "./registry.js";

/** The v1 notification that asks the peer to stop working on one of our requests (docs/protocol.md §4.9). */
export const CANCEL_REQUEST_METHOD = "$/cancel_request";

export type { Side } from "./method-types.js";

/** `_`-prefixed methods are extensions: allowed without a registry entry, never validated by it. */
export function isExtensionMethod(method: string): boolean {
  return method.charCodeAt(0) === 95; /* "_" */
}

/** Why an incoming request or notification is not served, with the modern name for a legacy one. */
export interface Refusal {
  why: string;
  legacy?: { legacyShape: string; expected: string };
}

export class MethodPolicy {
  private currentVersion: ProtocolVersion | undefined;
  // Registry entries of this connection's version by method name, for the per-message path (the
  // version never changes once set). Only methods the registry knows are kept, so a peer sending
  // made-up names cannot grow it.
  private readonly known = new Map<string, MethodInfo>();

  constructor(
    readonly side: Side,
    readonly registry: MethodRegistry,
    /** Whether outgoing messages are checked too, which needs all of a version's validators, not only this side's part. */
    readonly checksOutgoing = true,
  ) {}

  get version(): ProtocolVersion | undefined {
    return this.currentVersion;
  }

  /**
   * Fix the version (once; docs/protocol.md N5). With the schema's registry and that version's
   * validators not loaded yet, starts loading them and returns the load: nothing may be validated
   * until it settles (the Connection holds its input and its sends until then).
   */
  setVersion(version: ProtocolVersion): Promise<void> | undefined {
    if (!KNOWN_VERSIONS.includes(version)) {
      throw new AcpError("VersionUnsupported", `Protocol version ${JSON.stringify(version)} is not supported (known: ${KNOWN_VERSIONS.join(", ")})`);
    }
    if (this.currentVersion === version) return undefined;
    if (this.currentVersion !== undefined) {
      throw new AcpError("ProtocolViolation", `The connection already speaks protocol v${this.currentVersion}; it cannot switch to v${version}`);
    }
    // Without outgoing checks, this side's part of the validators is enough.
    const part = this.checksOutgoing ? undefined : this.side;
    this.currentVersion = version;
    if (this.registry !== schemaRegistry || isProtocolVersionLoaded(version, part)) return undefined;
    // Entries looked up before the load carry validators that throw: forget them once it is done.
    const load = loadProtocolVersion(version, part).then(
      () => {
        this.known.clear();
        this.loading = undefined;
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    this.loading = load;
    return load;
  }

  /** The load setVersion started, while it runs: nothing can be validated until it settles. */
  loading: Promise<void> | undefined;

  /** The registry entry of `method` in the connection's version (cached). */
  info(method: string): MethodInfo | undefined {
    const version = this.currentVersion;
    if (version === undefined) return undefined;
    let info = this.known.get(method);
    if (info === undefined) {
      info = this.registry.getMethod(version, method);
      if (info !== undefined) this.known.set(method, info);
    }
    return info;
  }

  /** True when a method flowing `direction` arrives at this side. */
  handles(direction: MethodInfo["direction"]): boolean {
    return direction === "both" || direction === (this.side === "agent" ? "client_to_agent" : "agent_to_client");
  }

  /** True when this side may send a method flowing `direction`. */
  sends(direction: MethodInfo["direction"]): boolean {
    return direction === "both" || direction === (this.side === "agent" ? "agent_to_client" : "client_to_agent");
  }

  /**
   * Why this side may not send request `method` at all (it flows the other way), if it may not.
   * Checked even when outgoing messages are not validated: such a request is always a bug, and its
   * answer could not be validated with only this side's validators loaded.
   */
  requestDirectionRefusal(method: string): AcpError | undefined {
    const version = this.currentVersion;
    if (version === undefined) return undefined;
    const info = this.info(method);
    if (info === undefined || info.kind !== "request" || this.sends(info.direction)) return undefined;
    return this.wrongDirection(method, info, version, "params");
  }

  private wrongDirection(method: string, info: MethodInfo, version: ProtocolVersion, part: "params" | "result"): AcpError {
    return new AcpError("OutgoingInvalid", `Cannot send ${method} from the ${this.side}: it goes ${info.direction.replaceAll("_", " ")}`, {
      data: { method, version, part },
    });
  }

  /**
   * Development-mode check of something we are about to send (params of a request or
   * notification, or a handler's result). Returns the error to raise, if any.
   */
  checkOutgoing(method: string, part: "params" | "result", value: unknown, kind?: "request" | "notification"): AcpError | undefined {
    const version = this.currentVersion;
    if (version === undefined) return undefined; // before negotiation there is no schema to check against
    const info = this.info(method);
    if (info === undefined) {
      if (isExtensionMethod(method)) return undefined;
      return new AcpError("OutgoingInvalid", `Cannot send ${method}: no such method in protocol v${version}`, { data: { method, version, part } });
    }
    if (kind !== undefined) {
      if (info.kind !== kind) {
        const use = info.kind === "request" ? "request()" : "notify()";
        return new AcpError("OutgoingInvalid", `Cannot send ${method} as a ${kind}: it is a ${info.kind} (use ${use})`, { data: { method, version, part } });
      }
      if (!this.sends(info.direction)) return this.wrongDirection(method, info, version, part);
    }
    const result = this.registry.checkOutgoing(version, method, part, value);
    if (result.valid) return undefined;
    const first = firstError(result.errors);
    return new AcpError("OutgoingInvalid", `Invalid ${part} for ${method} (protocol v${version}) at ${describeValidation(first)}`, {
      data: { method, version, part, path: first.path, errors: result.errors },
    });
  }

  /**
   * A handler may only be registered for a method that exists (in the connection's version or,
   * before it is known, in some version), with the right kind, flowing towards this side.
   */
  checkRegistration(method: string, kind: "request" | "notification"): void {
    if (method === CANCEL_REQUEST_METHOD) {
      throw new AcpError("Unsupported", `${CANCEL_REQUEST_METHOD} is handled by the Connection itself: it aborts the request handler's ctx.signal`);
    }
    if (isExtensionMethod(method)) return;
    const versions = this.currentVersion === undefined ? KNOWN_VERSIONS : [this.currentVersion];
    let found: MethodInfo | undefined;
    for (const version of versions) {
      const info = this.registry.getMethod(version, method);
      if (info !== undefined && info.kind === kind && this.handles(info.direction)) return;
      found ??= info;
    }
    const where = versions.map((v) => `v${v}`).join(" or ");
    if (found === undefined) throw new AcpError("Unsupported", `Cannot handle ${method}: no such method in protocol ${where}`);
    if (found.kind !== kind) {
      const use = found.kind === "request" ? "onRequest" : "onNotification";
      throw new AcpError("Unsupported", `Cannot handle ${method} as a ${kind}: it is a ${found.kind} (use ${use})`);
    }
    throw new AcpError("Unsupported", `Cannot handle ${method} on the ${this.side} side: it goes ${found.direction.replaceAll("_", " ")}`);
  }

  /** Why an incoming request for `method` (whose entry is `info`) is not served here, if it is not. */
  requestRefusal(method: string, info: MethodInfo | undefined): Refusal | undefined {
    const version = this.currentVersion;
    if (version === undefined) return undefined;
    let why: string | undefined;
    if (info === undefined) {
      if (!isExtensionMethod(method)) why = `${method} does not exist in protocol v${version}`;
    } else if (info.kind !== "request") {
      why = `${method} is a notification, not a request`;
    } else if (!this.handles(info.direction)) {
      why = `${method} is not handled by the ${this.side}`;
    }
    if (why === undefined) return undefined;
    const legacy = info === undefined ? this.registry.legacyMethod?.(version, method) : undefined;
    return legacy === undefined ? { why } : { why: `${method} is a legacy method name; use ${legacy.expected}`, legacy };
  }

  /** Why an incoming notification for `method` (whose entry is `info`) is ignored, if it is. */
  notificationRefusal(method: string, info: MethodInfo | undefined): Refusal | undefined {
    const version = this.currentVersion;
    if (version === undefined) return undefined;
    if (info === undefined) {
      if (isExtensionMethod(method)) return undefined;
      const legacy = this.registry.legacyMethod?.(version, method);
      return legacy === undefined
        ? { why: `${method} does not exist in protocol v${version}` }
        : { why: `${method} is a legacy method name; use ${legacy.expected}`, legacy };
    }
    if (info.kind !== "notification") return { why: `${method} is a request, not a notification` };
    if (!this.handles(info.direction)) return { why: `${method} is not handled by the ${this.side}` };
    return undefined;
  }
}
