// Types that key a Connection's methods by the generated per-version method maps: a wrong method
// name, wrong params or a wrong result type fails to compile, and a plain `string` is accepted only
// for `_`-prefixed extension methods. Nothing here exists at run time.
import type { v1, v2 } from "@acpkit/schema";
import type { ProtocolVersion } from "./registry.js";

/** One method's entry in a method map (the shape `pnpm codegen` emits as `MethodMap`). */
export interface MethodSpec {
  params: unknown;
  result: unknown;
  kind: "request" | "notification";
  direction: "client_to_agent" | "agent_to_client" | "both";
}

/** The methods of every protocol version: version → an interface of method name → its `MethodSpec`. */
export type MethodTables = { [V in ProtocolVersion]: object };

/** ACP's own method tables, generated from `schema/` (the default of `Connection`). */
export interface AcpMethodTables {
  1: v1.MethodMap;
  2: v2.MethodMap;
}

/**
 * A table for a connection whose registry is not ACP's (tests, experiments): every name is
 * allowed and nothing is typed.
 */
export type UntypedMethodTables = {
  // biome-ignore lint/suspicious/noExplicitAny: untyped on purpose: any name, any params, any result.
  [V in ProtocolVersion]: { [method: string]: { params: any; result: any; kind: any; direction: "both" } };
};

/** Which end of the connection we are. */
export type Side = "agent" | "client";

/** The direction of the methods a side sends. */
export type SentBy<S extends Side> = S extends "agent" ? "agent_to_client" : "client_to_agent";
/** The direction of the methods a side handles. */
export type HandledBy<S extends Side> = S extends "agent" ? "client_to_agent" : "agent_to_client";

/** `_`-prefixed names: extension methods, untyped and outside the tables. */
export type ExtensionMethod = `_${string}`;

/** The method table of one version. */
export type Table<T extends MethodTables, V extends ProtocolVersion> = T[V];

/** Method names of `kind` flowing `direction` (or both ways) in any of the versions `V`. */
export type MethodsOf<
  T extends MethodTables,
  V extends ProtocolVersion,
  Kind extends MethodSpec["kind"],
  Direction extends MethodSpec["direction"],
> = V extends ProtocolVersion
  ? {
      [M in keyof Table<T, V>]: Table<T, V>[M] extends { kind: Kind; direction: Direction | "both" } ? M : never;
    }[keyof Table<T, V>] &
      string
  : never;

/** Field `F` (`params` or `result`) of method `M` in the versions `V` that have it (a union when they differ). */
export type FieldOf<T extends MethodTables, V extends ProtocolVersion, M extends string, F extends "params" | "result"> = V extends ProtocolVersion
  ? M extends keyof Table<T, V>
    ? Table<T, V>[M] extends { [K in F]: infer X }
      ? X
      : never
    : never
  : never;

/** The params of `M` in the versions `V` that have it (a union when they differ). */
export type ParamsOf<T extends MethodTables, V extends ProtocolVersion, M extends string> = FieldOf<T, V, M, "params">;

/** The result of request `M` in the versions `V` that have it (a union when they differ). */
export type ResultOf<T extends MethodTables, V extends ProtocolVersion, M extends string> = FieldOf<T, V, M, "result">;

/** Requests side `S` may send. */
export type OutgoingRequest<T extends MethodTables, S extends Side, V extends ProtocolVersion> = MethodsOf<T, V, "request", SentBy<S>>;
/** Notifications side `S` may send. */
export type OutgoingNotification<T extends MethodTables, S extends Side, V extends ProtocolVersion> = MethodsOf<T, V, "notification", SentBy<S>>;
/** Requests side `S` handles. */
export type IncomingRequest<T extends MethodTables, S extends Side, V extends ProtocolVersion> = MethodsOf<T, V, "request", HandledBy<S>>;
/** Notifications side `S` handles. */
export type IncomingNotification<T extends MethodTables, S extends Side, V extends ProtocolVersion> = MethodsOf<T, V, "notification", HandledBy<S>>;
