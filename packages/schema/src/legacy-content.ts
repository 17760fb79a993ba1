// Legacy shapes inside the values updates carry: content blocks, tool-call content and fields, and
// plan entries. Used by legacy.ts's detectors of session updates and permission requests.
import { isJsonObject } from "./methods.js";
import { type LegacyVersion, type JsonObject, PRE_1_0, V1_ON_V2, LATER_DRAFT, has, legacy, toSnakeCase, wrongCase } from "./legacy-common.js";
import type { ValidationError } from "./validation-result.js";

export const EMBEDDED_RESOURCE_EXPECTED = '{"type":"resource","resource":{uri,text|blob}}';

export function detectInContentBlock(block: unknown, path: string): ValidationError | undefined {
  if (!isJsonObject(block)) return undefined;
  const type = block.type;
  if (type === "embedded_resource") return legacy(PRE_1_0, `${path}/type`, "embedded_resource", EMBEDDED_RESOURCE_EXPECTED);
  const badType = wrongCase(type);
  if (badType) return legacy(PRE_1_0, `${path}/type`, badType, `"${toSnakeCase(badType)}" (content types are snake_case)`);
  if (type === "resource" && isJsonObject(block.resource)) {
    const resource = block.resource;
    if (has(resource, "content") && !has(resource, "text") && !has(resource, "blob")) {
      return legacy(PRE_1_0, `${path}/resource/content`, "resource.content", '"resource": {uri, text} for text or {uri, blob} for base64 data');
    }
  }
  return undefined;
}

export function detectInToolCallContent(version: LegacyVersion, item: unknown, path: string): ValidationError | undefined {
  if (!isJsonObject(item)) return undefined;
  const type = item.type;
  const badType = wrongCase(type);
  if (badType) return legacy(PRE_1_0, `${path}/type`, badType, `"${toSnakeCase(badType)}" (tool call content types are snake_case)`);
  if (type === "terminal" && version === 2) {
    return legacy(
      V1_ON_V2,
      `${path}/type`,
      "terminal",
      'content or diff items (v2 has no terminals; a custom item such as {"type":"_acpkit/terminal","terminalId"} at most)',
    );
  }
  if (type === "content") return detectInContentBlock(item.content, `${path}/content`);
  // A bare content block where a ToolCallContent item belongs (pre-1.0 "Content: a ContentBlock").
  if (type === "text" || type === "image" || type === "audio" || type === "resource_link" || type === "resource" || type === "embedded_resource") {
    return legacy(PRE_1_0, `${path}/type`, `bare content block "${type}" in tool call content`, '{"type":"content","content":<ContentBlock>}');
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Tool calls

export const TOOL_CALL_EXPECTED: Record<LegacyVersion, string> = {
  1: '{"sessionUpdate":"tool_call","toolCallId","title","rawInput"}',
  2: '{"sessionUpdate":"tool_call_update","toolCallId","title","rawInput"}',
};

/** Fields of a tool call or tool call patch (an update, or `toolCall` of a permission request). */
export function detectInToolCallFields(version: LegacyVersion, call: JsonObject, path: string, isCreate: boolean): ValidationError | undefined {
  if (!has(call, "toolCallId")) {
    if (isCreate && (has(call, "id") || has(call, "arguments"))) {
      return legacy(PRE_1_0, `${path}/${has(call, "id") ? "id" : "arguments"}`, "tool_call with id/name/arguments", TOOL_CALL_EXPECTED[version]);
    }
    if (has(call, "id")) return legacy(PRE_1_0, `${path}/id`, "id", '"toolCallId"');
    if (has(call, "tool_call_id")) return legacy(PRE_1_0, `${path}/tool_call_id`, "tool_call_id", '"toolCallId"');
  }
  if (has(call, "arguments") && !has(call, "rawInput")) return legacy(PRE_1_0, `${path}/arguments`, "arguments", '"rawInput"');
  for (const label of ["label", "Label"]) {
    if (has(call, label) && !has(call, "title")) return legacy(PRE_1_0, `${path}/${label}`, label, '"title"');
  }
  const status = call.status;
  if (status === "success") return legacy(PRE_1_0, `${path}/status`, "success", '"completed"');
  if (status === "cancelled") {
    return legacy(
      LATER_DRAFT,
      `${path}/status`,
      "cancelled",
      '"completed" or "failed" (there is no wire status cancelled; clients mark cancelled tool calls locally)',
    );
  }
  const badStatus = wrongCase(status);
  if (badStatus) return legacy(PRE_1_0, `${path}/status`, badStatus, `"${toSnakeCase(badStatus)}"`);
  const badKind = wrongCase(call.kind);
  if (badKind) return legacy(PRE_1_0, `${path}/kind`, badKind, `"${toSnakeCase(badKind)}"`);
  if (has(call, "output") && !has(call, "rawOutput") && !has(call, "content")) {
    return legacy(PRE_1_0, `${path}/output`, "output", '"content": ToolCallContent[] and/or "rawOutput"');
  }
  if (Array.isArray(call.content)) {
    for (let i = 0; i < call.content.length; i++) {
      const found = detectInToolCallContent(version, call.content[i], `${path}/content/${i}`);
      if (found) return found;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Plans

export function detectInPlanEntries(entries: unknown, path: string): ValidationError | undefined {
  if (!Array.isArray(entries)) return undefined;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (!isJsonObject(entry)) continue;
    for (const field of ["priority", "status"] as const) {
      const value = wrongCase(entry[field]);
      if (value) return legacy(PRE_1_0, `${path}/${i}/${field}`, value, `"${toSnakeCase(value)}"`);
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// session/update
