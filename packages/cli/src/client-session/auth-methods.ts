// How `acpkit run` tells a user to log in. Agent methods go through `authenticate` (`--auth ID`);
// a terminal method (v1 `type: "terminal"`, e.g. copilot's `copilot-login`, or the older
// `_meta["terminal-auth"]` convention) is a login the user runs in a terminal, which the client
// must never pass to `authenticate`. Offering it as if `--auth` could do it sends the user into an
// error; saying what to run gets them logged in.
import type { AuthMethod } from "@acpkit/client";
import { isJsonObject } from "@acpkit/core";
import type { AgentTarget } from "./agent-target.js";

type Json = Record<string, unknown>;
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);

/** A shell-safe rendering of one argument, for a command line a user copies. */
function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** `NAME=value` prefixes from a terminal method's `env` (v1: an object of strings; the later v2 draft: `[{name, value}]`). */
function envPrefix(env: unknown): string[] {
  if (isJsonObject(env)) return Object.entries(env).map(([name, value]) => `${name}=${quote(String(value))}`);
  if (Array.isArray(env))
    return env.filter(isJsonObject).flatMap((entry) => (typeof entry.name === "string" ? [`${entry.name}=${quote(String(entry.value ?? ""))}`] : []));
  return [];
}

/**
 * The command line that performs a terminal login, or undefined when `method` is an ordinary
 * (agent) method. v1 terminal methods rerun the agent's own command with `args` appended; the
 * `_meta["terminal-auth"]` convention names its own `command`.
 */
export function terminalLogin(method: AuthMethod, target: AgentTarget): string | undefined {
  const raw = method as unknown as Json;
  const legacy = isJsonObject(raw._meta) ? raw._meta["terminal-auth"] : undefined;
  if (method.type !== "terminal" && !isJsonObject(legacy)) return undefined;
  if (method.type === "terminal") {
    // Over WebSocket there is no command of ours to rerun: the agent's host must run it.
    const base = target.kind === "command" ? [target.command, ...target.args] : ["<the agent's command>"];
    return [...envPrefix(raw.env), ...[...base, ...strings(raw.args)].map(quote)].join(" ");
  }
  const meta = legacy as Json;
  const command = typeof meta.command === "string" ? meta.command : target.kind === "command" ? target.command : "<the agent's command>";
  return [...envPrefix(meta.env), ...[command, ...strings(meta.args)].map(quote)].join(" ");
}

/** One line per method for the "Authentication required" message: `--auth ID` methods and terminal logins apart. */
export function authHelp(methods: readonly AuthMethod[], target: AgentTarget): string {
  if (methods.length === 0) return "The agent lists no authentication methods.";
  const byAgent = methods.filter((method) => terminalLogin(method, target) === undefined);
  const inTerminal = methods.filter((method) => terminalLogin(method, target) !== undefined);
  const line = (method: AuthMethod) => `  ${method.id}  ${method.name}${method.description ? ` — ${method.description}` : ""}`;
  const parts: string[] = [];
  if (byAgent.length > 0) parts.push(`Run again with --auth METHOD_ID, one of:\n${byAgent.map(line).join("\n")}`);
  if (inTerminal.length > 0)
    parts.push(
      `Or log in in a terminal first (these cannot be done with --auth):\n${inTerminal
        .map((method) => `${line(method)}\n      run: ${terminalLogin(method, target)}`)
        .join("\n")}`,
    );
  return parts.join("\n");
}

/** "it lists a, b" / "it lists none", for the unknown `--auth ID` message. */
export function listedMethodIds(methods: readonly AuthMethod[]): string {
  return methods.length === 0 ? "it lists none" : `it lists ${methods.map((method) => method.id).join(", ")}`;
}
