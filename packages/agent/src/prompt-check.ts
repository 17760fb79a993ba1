// A prompt may only contain block types the agent advertised (docs/protocol.md §1.3, §4.11: -32602).
// Unknown (custom, v2) block types pass through: the handler decides what to do with them.
import { ErrorCode, ownEntry, RpcError } from "@acpkit/core";

const CAPABILITY_OF: Readonly<Record<string, string>> = {
  image: "prompt.image",
  audio: "prompt.audio",
  resource: "prompt.embeddedContext",
};

/** Throws RpcError(-32602) naming the first block whose type needs a capability the agent lacks. */
export function checkPromptBlocks(prompt: readonly unknown[], accepted: ReadonlySet<string>): void {
  for (let index = 0; index < prompt.length; index++) {
    const type = (prompt[index] as { type: string }).type;
    const capability = ownEntry(CAPABILITY_OF, type);
    if (capability !== undefined && !accepted.has(type)) {
      throw new RpcError(ErrorCode.InvalidParams, `Prompt block ${index} has type "${type}", but the agent did not advertise the ${capability} capability`, {
        path: `/prompt/${index}/type`,
        message: `block type "${type}" needs the ${capability} capability`,
      });
    }
  }
}
