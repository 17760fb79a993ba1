// Group "capabilities": each capability the agent advertises (session load, list, close, resume,
// delete, richer prompt content, modes, config options) is exercised once; one it does not
// advertise is skipped with why, and does not count towards the verdict.
import { isJsonObject as isObject } from "@acpkit/core";
import type { ProtocolVersion } from "@acpkit/schema";
import type { AgentRequirementId } from "../../requirements.js";
import type { CheckGroup, Results } from "../../results.js";
import { evidence, type Json, newSession, SessionRefused, start } from "../session-steps.js";
import type { CheckContext } from "../target.js";
import { checkWire, WIRE_GROUP } from "./wire.js";

export const CAPABILITY_GROUP = {
  name: "capabilities",
  judges: [
    "ACPKIT-CAP-LOAD",
    "ACPKIT-CAP-LIST",
    "ACPKIT-CAP-CLOSE",
    "ACPKIT-CAP-RESUME",
    "ACPKIT-CAP-DELETE",
    "ACPKIT-CAP-PROMPT",
    "ACPKIT-CAP-MODES",
    "ACPKIT-CAP-CONFIG",
  ],
} as const satisfies CheckGroup<AgentRequirementId>;

type CapabilityId = (typeof CAPABILITY_GROUP.judges)[number];

/** What the agent advertised, in either version's shape. */
function advertised(init: Json, version: ProtocolVersion) {
  const caps = (
    isObject(version === 1 ? init.agentCapabilities : init.capabilities) ? (version === 1 ? init.agentCapabilities : init.capabilities) : {}
  ) as Json;
  const session = (isObject(version === 1 ? caps.sessionCapabilities : caps.session) ? (version === 1 ? caps.sessionCapabilities : caps.session) : {}) as Json;
  const prompt = (version === 1 ? caps.promptCapabilities : session.prompt) as Json | undefined;
  const on = (key: string) => (version === 1 ? prompt?.[key] === true : isObject(prompt?.[key]));
  return {
    load: version === 1 ? caps.loadSession === true : isObject(session.load),
    list: isObject(session.list),
    close: isObject(session.close),
    resume: isObject(session.resume),
    delete: isObject(session.delete),
    /** Prompt block types beyond text and resource_link that the agent accepts. */
    blocks: [on("image") ? "image" : undefined, on("audio") ? "audio" : undefined, on("embeddedContext") ? "resource" : undefined].filter(
      (b): b is string => b !== undefined,
    ),
  };
}

/** Every advertised capability exercised on one session; what is not advertised is skipped, with why. */
export async function capabilityGroup(
  context: CheckContext,
  init: Json,
  version: ProtocolVersion,
  setup: Json | undefined,
  all: Results<AgentRequirementId>,
): Promise<void> {
  const results = all.for(CAPABILITY_GROUP);
  const caps = advertised(init, version);
  const modes = isObject(setup?.modes) ? (setup.modes as Json) : undefined;
  const select = Array.isArray(setup?.configOptions)
    ? (setup.configOptions as Json[]).find((option) => option.type === "select" && Array.isArray(option.options))
    : undefined;
  if (!caps.load) results.set("ACPKIT-CAP-LOAD", "skip", "loadSession not advertised");
  if (!caps.list) results.set("ACPKIT-CAP-LIST", "skip", "session list not advertised");
  if (!caps.close) results.set("ACPKIT-CAP-CLOSE", "skip", "session close not advertised");
  if (!caps.resume) results.set("ACPKIT-CAP-RESUME", "skip", "session resume not advertised");
  if (!caps.delete) results.set("ACPKIT-CAP-DELETE", "skip", "session delete not advertised");
  if (caps.blocks.length === 0) results.set("ACPKIT-CAP-PROMPT", "skip", "no prompt content beyond text and resource_link advertised");
  if (!modes) results.set("ACPKIT-CAP-MODES", "skip", "no modes in the session/new result");
  if (!select) results.set("ACPKIT-CAP-CONFIG", "skip", "no select config option in the session/new result");
  if (!caps.load && !caps.list && !caps.close && !caps.resume && !caps.delete && caps.blocks.length === 0 && !modes && !select) return;
  const { agent } = await start(context);
  try {
    const session = await newSession(agent, context, "new-cap");
    if (session instanceof SessionRefused) {
      // Only the advertised ones are still not_tested here; the rest were skipped above.
      const advertisedIds = CAPABILITY_GROUP.judges.filter((id) => results.status(id) === "not_tested");
      if (session.auth) results.block(advertisedIds, session.message);
      else for (const id of advertisedIds) results.set(id, "fail", session.message, evidence(agent));
      return;
    }
    const sessionId = session.sessionId as string;
    const judge = (id: CapabilityId, answer: Json | undefined, ok: (result: unknown) => boolean, what: string) => {
      if (answer && !isObject(answer.error) && ok(answer.result)) results.pass(id, `${what} answered`);
      else
        results.set(
          id,
          "fail",
          answer ? `${what} answered ${JSON.stringify(answer.error ?? answer.result).slice(0, 200)}` : `${what} got no answer`,
          evidence(agent),
        );
    };
    if (modes) {
      const other = (modes.availableModes as Json[] | undefined)?.find((mode) => mode.id !== modes.currentModeId);
      if (other)
        judge(
          "ACPKIT-CAP-MODES",
          await agent.request("mode-1", "session/set_mode", { sessionId, modeId: other.id }, context.timeoutMs),
          () => true,
          `session/set_mode ${String(other.id)}`,
        );
      else results.set("ACPKIT-CAP-MODES", "skip", "only one mode");
    }
    if (select) {
      const values = (select.options as Json[])
        .flatMap((entry) => (Array.isArray(entry.options) ? (entry.options as Json[]) : [entry]))
        .map((entry) => entry.value);
      const other = values.find((value) => value !== select.currentValue);
      if (other !== undefined) {
        judge(
          "ACPKIT-CAP-CONFIG",
          await agent.request("config-1", "session/set_config_option", { sessionId, configId: select.id, value: other }, context.timeoutMs),
          (result) => isObject(result) && Array.isArray(result.configOptions),
          `session/set_config_option ${String(select.id)}=${String(other)}`,
        );
      } else results.set("ACPKIT-CAP-CONFIG", "skip", "the select option has one value");
    }
    if (caps.list)
      judge(
        "ACPKIT-CAP-LIST",
        await agent.request("list-1", "session/list", {}, context.timeoutMs),
        (result) => isObject(result) && Array.isArray(result.sessions),
        "session/list",
      );
    if (caps.load) {
      judge(
        "ACPKIT-CAP-LOAD",
        await agent.request("load-1", "session/load", { sessionId, cwd: context.cwd, mcpServers: [] }, context.timeoutMs * 5),
        () => true,
        "session/load",
      );
    }
    if (caps.blocks.length > 0) {
      const samples: Record<string, Json> = {
        image: { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        audio: { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
        resource: { type: "resource", resource: { uri: "file:///acpkit-check/notes.txt", text: "notes", mimeType: "text/plain" } },
      };
      const prompt = [{ type: "text", text: context.prompt }, ...caps.blocks.map((block) => samples[block]!)];
      const answer = await agent.request("prompt-blocks", "session/prompt", { sessionId, prompt }, context.timeoutMs * 20);
      if (answer && !(isObject(answer.error) && answer.error.code === -32602))
        results.pass("ACPKIT-CAP-PROMPT", `a prompt with ${caps.blocks.join(", ")} blocks was accepted`);
      else
        results.set(
          "ACPKIT-CAP-PROMPT",
          "fail",
          answer ? `a prompt with the advertised ${caps.blocks.join(", ")} blocks was refused: ${JSON.stringify(answer.error)}` : "the prompt got no answer",
          evidence(agent),
        );
    }
    if (caps.close) judge("ACPKIT-CAP-CLOSE", await agent.request("close-1", "session/close", { sessionId }, context.timeoutMs), () => true, "session/close");
    if (caps.resume)
      judge(
        "ACPKIT-CAP-RESUME",
        await agent.request("resume-1", "session/resume", { sessionId, cwd: context.cwd }, context.timeoutMs * 5),
        () => true,
        "session/resume",
      );
    if (caps.delete)
      judge("ACPKIT-CAP-DELETE", await agent.request("delete-1", "session/delete", { sessionId }, context.timeoutMs), () => true, "session/delete");
    checkWire(agent, all.for(WIRE_GROUP));
  } finally {
    await agent.kill();
  }
}
