// A small argv parser for the acpkit commands. It knows each command's flags up front so that
// a typo is a usage error (exit 2) instead of being silently ignored.

/** How one flag is read. */
export interface FlagSpec {
  /** Takes a value (`--prompt TEXT` or `--prompt=TEXT`); otherwise a boolean switch. */
  value?: boolean;
  /** May be given several times; values are collected in order. */
  repeat?: boolean;
  /** Allowed values, checked here so every command reports them the same way. */
  choices?: readonly string[];
}

export interface ParsedArgs {
  flags: Map<string, string[]>;
  /** Positional arguments before `--`. */
  positionals: string[];
  /** Everything after `--` (an agent command line), untouched. */
  rest: string[];
}

/** A usage mistake: the CLI prints it with the command's usage and exits with code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

export function parseArgs(argv: readonly string[], spec: Record<string, FlagSpec>): ParsedArgs {
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  let rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      rest = argv.slice(i + 1);
      break;
    }
    if (!arg.startsWith("--") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const flag = spec[name];
    if (!flag) throw new UsageError(`unknown option --${name}`);
    let value: string;
    if (flag.value) {
      if (eq !== -1) value = arg.slice(eq + 1);
      else {
        const next = argv[i + 1];
        if (next === undefined || next === "--") throw new UsageError(`--${name} needs a value`);
        value = next;
        i++;
      }
      if (flag.choices && !flag.choices.includes(value)) {
        throw new UsageError(`--${name} must be one of ${flag.choices.join(", ")} (got "${value}")`);
      }
    } else {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      value = "true";
    }
    const values = flags.get(name);
    if (values && !flag.repeat) throw new UsageError(`--${name} given more than once`);
    if (values) values.push(value);
    else flags.set(name, [value]);
  }
  return { flags, positionals, rest };
}

/** The single value of a flag, or `fallback`. */
export function flagValue(args: ParsedArgs, name: string): string | undefined;
export function flagValue(args: ParsedArgs, name: string, fallback: string): string;
export function flagValue(args: ParsedArgs, name: string, fallback?: string): string | undefined {
  return args.flags.get(name)?.[0] ?? fallback;
}

export function flagSet(args: ParsedArgs, name: string): boolean {
  return args.flags.has(name);
}

/** A non-negative integer flag (`--cancel-after 500`), with the flag named in the error. */
export function flagInteger(args: ParsedArgs, name: string): number | undefined {
  const raw = flagValue(args, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a non-negative integer (got "${raw}")`);
  return Number(raw);
}
