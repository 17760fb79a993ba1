// What a prompt may carry: text and resource_link always, other blocks only when the agent
// advertised them (docs/protocol.md §1.3). Checked on the client before a prompt is sent.
import { AcpError, isJsonObject, valueKind } from "@acpkit/core";
import type { ContentBlock } from "./types.js";

/** Prompt block types the agent must advertise (`promptCapabilities`) before a client sends them. */
const CAPABILITY_OF_BLOCK: ReadonlyMap<string, string> = new Map([
  ["image", "prompt.image"],
  ["audio", "prompt.audio"],
  ["resource", "prompt.embeddedContext"],
]);

/** Refuses, before anything is sent, a prompt block of a kind the agent did not advertise, or one that is no block at all. */
export function checkPromptBlocks(blocks: readonly ContentBlock[], accepted: ReadonlySet<string>): void {
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index] as unknown;
    const type = isJsonObject(block) ? block.type : undefined;
    if (type === "text" || type === "resource_link") continue;
    const capability = typeof type === "string" ? CAPABILITY_OF_BLOCK.get(type) : undefined;
    // Caught here, before anything is sent: on v1 the bridge would drop an unknown block (a
    // lossy diagnostic, the prompt sent without it), on v2 the agent would answer -32602.
    if (capability === undefined) {
      const what = isJsonObject(block) ? `has type ${JSON.stringify(type)}` : `is ${valueKind(block)}`;
      throw new AcpError(
        "InvalidArgument",
        `prompt: block ${index} ${what}; a prompt block is an object of type text, image, audio, resource_link or resource`,
      );
    }
    if (!accepted.has(type as string)) {
      throw new AcpError("Unsupported", `Prompt block ${index} has type "${type}", but the agent did not advertise the ${capability} capability`);
    }
  }
}
