// The terminal host `acpkit run` gives the agent, wrapped so that the turn printer shows each
// command as it starts and its output when it exits.
import type { TerminalHost } from "@acpkit/client";
import type { TurnPrinter } from "../render/turn-printer.js";

/** A terminal host that also tells the printer when a command starts and ends. */
export function printedTerminals(
  host: TerminalHost & { closeAll(): Promise<void> },
  printer: TurnPrinter | undefined,
): TerminalHost & { closeAll(): Promise<void> } {
  if (printer === undefined) return host;
  const commands = new Map<string, string>();
  return {
    async create(request, context) {
      const created = await host.create(request, context);
      const line = [request.command, ...request.args].join(" ");
      commands.set(created.terminalId, line);
      printer.terminalStarted(created.terminalId, line);
      return created;
    },
    output: (terminalId) => host.output(terminalId),
    async waitForExit(terminalId) {
      const status = await host.waitForExit(terminalId);
      const output = await host.output(terminalId);
      printer.terminalExited(commands.get(terminalId) ?? terminalId, status, output.output);
      return status;
    },
    kill: (terminalId) => host.kill(terminalId),
    release: (terminalId) => host.release(terminalId),
    closeAll: () => host.closeAll(),
  };
}
