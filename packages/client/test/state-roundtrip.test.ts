// Bridge round trip (issue 4): a model update sequence sent to a v1 client — AgentSideV1Bridge →
// v1 wire → ClientSideV1Bridge → reducer — gives the same SessionState as reducing the original,
// modulo the documented normalisations (docs/compatibility.md):
//   - text a v1 client received as a prefix plus remainder chunks ("Hel" + "lo") is compared with
//     adjacent equal-annotation text blocks merged;
//   - the v1 plan is plan "main" whatever its model id was (B6);
//   - a tool call's `locations: []` equals absent locations (v1 sends `[]` for a v2 `null` clear).
// Every v1 update on the wire and every model update out of the client bridge is schema-checked.
import { AgentSideV1Bridge, ClientSideV1Bridge, type LossyEvent } from "@acpkit/core/bridge";
import { type v2, validateDefinition } from "@acpkit/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type SessionState, type SessionStateJSON, applyUpdate, createSessionState, recordPermission, sessionStateToJSON } from "../src/state/index.js";

type Step =
  | { kind: "update"; update: v2.SessionUpdate }
  | { kind: "permission"; toolCall: v2.ToolCallUpdate; options: v2.PermissionOption[]; outcome: v2.RequestPermissionOutcome };

// ── generators ─────────────────────────────────────────────────────────────────────────────

const MESSAGE_KINDS = ["user_message", "agent_message", "agent_thought"] as const;
const TOOL_KINDS = ["read", "edit", "execute", "other"];
const TOOL_STATUSES = ["pending", "in_progress", "completed", "failed"];

const word = fc.constantFrom("a", "b", "Hel", "lo", "x y", "ü", "");
const textBlock = fc.record({ type: fc.constant("text"), text: word }, { requiredKeys: ["type", "text"] });
const annotatedText = fc.record({ type: fc.constant("text"), text: word, annotations: fc.constant({ priority: 1 }) });
const otherBlock = fc.constantFrom(
  { type: "image", data: "AAAA", mimeType: "image/png" },
  { type: "resource_link", uri: "file:///a", name: "a" },
  { type: "resource", resource: { uri: "file:///b", text: "b" } },
);
const block = fc.oneof(textBlock, textBlock, annotatedText, otherBlock) as fc.Arbitrary<v2.ContentBlock>;
const toolItem = fc.oneof(
  block.map((content) => ({ type: "content", content })),
  fc.constant({ type: "diff", path: "/p", newText: "n", oldText: "o" }),
) as fc.Arbitrary<v2.ToolCallContent>;
const meta = fc.option(fc.constantFrom({ k: 1 }, { trace: "t" }), { nil: undefined });

/** Operations as indexes and payloads; `build` turns them into updates that respect O3 and M-kinds. */
const representableOp = fc.oneof(
  fc.record({ op: fc.constant("chunk"), msg: fc.nat(3), kind: fc.constantFrom(...MESSAGE_KINDS), block, meta }),
  fc.record({ op: fc.constant("extend"), msg: fc.nat(3), kind: fc.constantFrom(...MESSAGE_KINDS), more: word, blocks: fc.array(block, { maxLength: 2 }) }),
  fc.record({
    op: fc.constant("tool"),
    tool: fc.nat(2),
    title: fc.option(word, { nil: undefined }),
    kind: fc.option(fc.constantFrom(...TOOL_KINDS), { nil: undefined }),
    status: fc.option(fc.constantFrom(...TOOL_STATUSES), { nil: undefined }),
    content: fc.option(fc.array(toolItem, { maxLength: 2 }), { nil: undefined }),
    locations: fc.option(fc.constantFrom([], [{ path: "/a", line: 3 }]), { nil: undefined }),
    rawInput: fc.option(fc.constantFrom({ cmd: "ls" }, 1, "s"), { nil: undefined }),
    rawOutput: fc.option(fc.constantFrom({ ok: true }, [1]), { nil: undefined }),
    meta,
  }),
  fc.record({ op: fc.constant("toolChunk"), tool: fc.nat(2), item: toolItem, meta }),
  fc.record({
    op: fc.constant("plan"),
    entries: fc.array(fc.record({ content: word, priority: fc.constantFrom("high", "low"), status: fc.constantFrom("pending", "completed") }), {
      maxLength: 2,
    }),
  }),
  fc.record({ op: fc.constant("usage"), used: fc.nat(1000), cost: fc.option(fc.constantFrom({ amount: 1, currency: "USD" }, null), { nil: undefined }) }),
  fc.record({ op: fc.constant("info"), title: fc.option(fc.constantFrom("T", null), { nil: undefined }) }),
  fc.record({
    op: fc.constant("permission"),
    tool: fc.nat(2),
    status: fc.option(fc.constantFrom(...TOOL_STATUSES), { nil: undefined }),
    selected: fc.boolean(),
  }),
);

/** Operations v1 cannot always carry; each must then be reported as lossy. */
const lossyOp = fc.oneof(
  fc.record({
    op: fc.constant("replace"),
    msg: fc.nat(3),
    kind: fc.constantFrom(...MESSAGE_KINDS),
    content: fc.option(fc.array(block, { maxLength: 2 }), { nil: null }),
  }),
  fc.record({ op: fc.constant("messageMeta"), msg: fc.nat(3), kind: fc.constantFrom(...MESSAGE_KINDS), meta: fc.constantFrom({ k: 2 }, null) }),
  fc.record({
    op: fc.constant("toolClear"),
    tool: fc.nat(2),
    field: fc.constantFrom("title", "kind", "status", "rawInput", "rawOutput", "content", "locations"),
  }),
  fc.record({
    op: fc.constant("toolCustom"),
    tool: fc.nat(2),
    kind: fc.constantFrom("_acme/deploy", undefined),
    status: fc.constantFrom("_acme/queued", undefined),
  }),
  fc.record({ op: fc.constant("customBlock"), msg: fc.nat(3) }),
  fc.record({ op: fc.constant("customItem"), tool: fc.nat(2) }),
  fc.record({ op: fc.constant("otherPlan"), id: fc.constantFrom("p2", "p3"), custom: fc.boolean() }),
  fc.record({ op: fc.constant("customUpdate") }),
);

type Op = Record<string, unknown> & { op: string };

/** Turns operations into model steps, tracking what exists so creations and extensions are well formed. */
function build(ops: readonly Op[]): Step[] {
  const messages = new Map<string, v2.ContentBlock[]>();
  const tools = new Set<string>();
  const steps: Step[] = [];
  const update = (u: Record<string, unknown>) => steps.push({ kind: "update", update: u as unknown as v2.SessionUpdate });
  const msgId = (op: Op) => `${String(op.kind)}-${String(op.msg)}`;
  const toolId = (op: Op) => `t${String(op.tool)}`;
  // First sightings carry a title and non-empty content: the two documented non-lossy
  // approximations ("Tool call" title, empty message invisible until it has content) stay out.
  const ensureTool = (id: string) => {
    if (tools.has(id)) return;
    tools.add(id);
    update({ sessionUpdate: "tool_call_update", toolCallId: id, title: `Tool ${id}` });
  };
  const ensureMessage = (id: string, kind: string) => {
    if (messages.has(id)) return;
    messages.set(id, [{ type: "text", text: "start" }]);
    update({ sessionUpdate: kind, messageId: id, content: [{ type: "text", text: "start" }] });
  };
  for (const op of ops) {
    switch (op.op) {
      case "chunk": {
        const id = msgId(op);
        const chunkTag = `${String(op.kind)}_chunk`;
        const b = op.block as v2.ContentBlock;
        messages.set(id, [...(messages.get(id) ?? []), b]);
        update({ sessionUpdate: chunkTag, messageId: id, content: b, ...(op.meta ? { _meta: op.meta } : {}) });
        break;
      }
      case "extend": {
        const id = msgId(op);
        ensureMessage(id, String(op.kind));
        const current = messages.get(id)!;
        const next = current.slice();
        const last = next[next.length - 1] as { type: string; text?: string } | undefined;
        if (last?.type === "text" && op.more !== "")
          next[next.length - 1] = { ...(last as v2.ContentBlock), text: `${last.text}${String(op.more)}` } as v2.ContentBlock;
        next.push(...(op.blocks as v2.ContentBlock[]));
        messages.set(id, next);
        update({ sessionUpdate: op.kind, messageId: id, content: next });
        break;
      }
      case "tool": {
        const id = toolId(op);
        const fields: Record<string, unknown> = {};
        for (const key of ["title", "kind", "status", "content", "locations", "rawInput", "rawOutput"]) if (op[key] !== undefined) fields[key] = op[key];
        if (!tools.has(id)) {
          tools.add(id);
          fields.title ??= `Tool ${id}`;
          if (op.meta) fields._meta = op.meta;
        }
        update({ sessionUpdate: "tool_call_update", toolCallId: id, ...fields });
        break;
      }
      case "toolChunk": {
        const id = toolId(op);
        ensureTool(id);
        update({ sessionUpdate: "tool_call_content_chunk", toolCallId: id, content: op.item, ...(op.meta ? { _meta: op.meta } : {}) });
        break;
      }
      case "plan":
        update({ sessionUpdate: "plan_update", plan: { type: "items", id: "p1", entries: op.entries } });
        break;
      case "usage":
        update({ sessionUpdate: "usage_update", used: op.used, size: 200_000, ...(op.cost !== undefined ? { cost: op.cost } : {}) });
        break;
      case "info":
        update({ sessionUpdate: "session_info_update", ...(op.title !== undefined ? { title: op.title } : {}) });
        break;
      case "permission": {
        const id = toolId(op);
        const toolCall: Record<string, unknown> = { toolCallId: id };
        if (!tools.has(id)) {
          tools.add(id);
          toolCall.title = `Tool ${id}`;
        }
        if (op.status !== undefined) toolCall.status = op.status;
        const options = [
          { optionId: "ok", name: "Allow", kind: "allow_once" },
          { optionId: "no", name: "Reject", kind: "reject_once" },
        ] as v2.PermissionOption[];
        steps.push({
          kind: "permission",
          toolCall: toolCall as unknown as v2.ToolCallUpdate,
          options,
          outcome: op.selected ? { outcome: "selected", optionId: "ok" } : { outcome: "cancelled" },
        });
        break;
      }
      case "replace": {
        const id = msgId(op);
        ensureMessage(id, String(op.kind));
        const content = op.content as v2.ContentBlock[] | null;
        messages.set(id, content ?? []);
        update({ sessionUpdate: op.kind, messageId: id, content });
        break;
      }
      case "messageMeta": {
        const id = msgId(op);
        ensureMessage(id, String(op.kind));
        update({ sessionUpdate: op.kind, messageId: id, _meta: op.meta });
        break;
      }
      case "toolClear": {
        const id = toolId(op);
        ensureTool(id);
        update({ sessionUpdate: "tool_call_update", toolCallId: id, [String(op.field)]: null });
        break;
      }
      case "toolCustom": {
        const id = toolId(op);
        ensureTool(id);
        update({ sessionUpdate: "tool_call_update", toolCallId: id, ...(op.kind ? { kind: op.kind } : {}), ...(op.status ? { status: op.status } : {}) });
        break;
      }
      case "customBlock": {
        const id = `agent_message-${String(op.msg)}`;
        ensureMessage(id, "agent_message");
        const custom = { type: "_acme/chart", points: [1, 2] } as unknown as v2.ContentBlock;
        messages.set(id, [...messages.get(id)!, custom]);
        update({ sessionUpdate: "agent_message_chunk", messageId: id, content: custom });
        break;
      }
      case "customItem": {
        const id = toolId(op);
        ensureTool(id);
        update({ sessionUpdate: "tool_call_content_chunk", toolCallId: id, content: { type: "_acme/video", url: "u" } });
        break;
      }
      case "otherPlan":
        update({ sessionUpdate: "plan_update", plan: op.custom ? { type: "_acme/graph", id: op.id, nodes: [] } : { type: "items", id: op.id, entries: [] } });
        break;
      case "customUpdate":
        update({ sessionUpdate: "_acme/progress", pct: 50 });
        break;
    }
  }
  return steps;
}

// ── the two pipelines ──────────────────────────────────────────────────────────────────────

function reduceModel(steps: readonly Step[]): SessionState {
  let state = createSessionState("s1", 2);
  for (const step of steps) {
    state = step.kind === "update" ? applyUpdate(state, step.update) : recordPermission(state, step);
  }
  return state;
}

function reduceThroughV1(steps: readonly Step[], lossy: LossyEvent[]): SessionState {
  const onLossy = (event: LossyEvent) => lossy.push(event);
  const agent = new AgentSideV1Bridge({ sessionId: "s1", onLossy });
  const client = new ClientSideV1Bridge({ sessionId: "s1", onLossy });
  let state = createSessionState("s1", 1);
  const deliver = (wire: readonly unknown[]) => {
    for (const v1Update of wire) {
      expect(validateDefinition(1, "SessionUpdate", v1Update)).toEqual({ valid: true });
      for (const modelUpdate of client.fromV1(v1Update as never)) {
        expect(validateDefinition(2, "SessionUpdate", modelUpdate)).toEqual({ valid: true });
        state = applyUpdate(state, modelUpdate);
      }
    }
  };
  for (const step of steps) {
    if (step.kind === "update") {
      deliver(agent.toV1(step.update, { replay: true }));
    } else {
      const { updates, params } = agent.permissionToV1({ sessionId: "s1", toolCall: step.toolCall, options: step.options });
      deliver(updates);
      expect(validateDefinition(1, "RequestPermissionRequest", params)).toEqual({ valid: true });
      const model = client.permissionFromV1(params);
      state = recordPermission(state, { toolCall: model.toolCall, options: model.options, outcome: step.outcome });
    }
  }
  return state;
}

/** The documented normalisations (see the header), applied to both sides. */
function normalise(state: SessionState): Omit<SessionStateJSON, "protocolVersion"> {
  const { protocolVersion: _version, ...json } = JSON.parse(JSON.stringify(sessionStateToJSON(state))) as SessionStateJSON;
  for (const message of json.messages) {
    const merged: v2.ContentBlock[] = [];
    for (const b of message.content) {
      const previous = merged[merged.length - 1] as (v2.ContentBlock & { text?: string }) | undefined;
      const current = b as v2.ContentBlock & { text?: string };
      if (previous?.type === "text" && current.type === "text" && JSON.stringify({ ...previous, text: "" }) === JSON.stringify({ ...current, text: "" })) {
        merged[merged.length - 1] = { ...previous, text: `${previous.text}${current.text}` } as v2.ContentBlock;
      } else merged.push(b);
    }
    message.content = merged;
  }
  // v1 cannot unset `locations`; the bridge sends `[]` for a v2 `null` (§7.1), the same empty list.
  for (const toolCall of json.toolCalls) if (Array.isArray(toolCall.locations) && toolCall.locations.length === 0) delete toolCall.locations;
  json.plans = json.plans.map((plan, index) => (index === 0 && "entries" in plan ? { ...plan, id: "main" } : plan));
  return json;
}

describe("bridge round trip: model → v1 wire → model", () => {
  it("gives the original state for every representable sequence, with no lossy event", () => {
    fc.assert(
      fc.property(fc.array(representableOp, { maxLength: 25 }), (ops) => {
        const steps = build(ops as Op[]);
        const lossy: LossyEvent[] = [];
        const roundTrip = reduceThroughV1(steps, lossy);
        expect(lossy).toEqual([]);
        expect(normalise(roundTrip)).toEqual(normalise(reduceModel(steps)));
      }),
      { numRuns: Number(process.env.ROUNDTRIP_RUNS ?? 400) },
    );
  });

  it("differs from the original only when a lossy event said so", () => {
    let lossyRuns = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof(representableOp, lossyOp), { maxLength: 25 }), (ops) => {
        const steps = build(ops as Op[]);
        const lossy: LossyEvent[] = [];
        const roundTrip = reduceThroughV1(steps, lossy);
        if (lossy.length > 0) {
          lossyRuns++;
          for (const event of lossy) expect(event).toMatchObject({ sessionId: "s1", detail: expect.any(String) });
          return;
        }
        expect(normalise(roundTrip)).toEqual(normalise(reduceModel(steps)));
      }),
      { numRuns: Number(process.env.ROUNDTRIP_RUNS ?? 400) },
    );
    expect(lossyRuns).toBeGreaterThan(50); // the generator does reach the lossy paths
  });

  it("replays v2's worked message sequence through v1 up to the first replacement", () => {
    const A = { type: "text", text: "A" } as v2.ContentBlock;
    const B = { type: "text", text: "B" } as v2.ContentBlock;
    const steps: Step[] = [
      { kind: "update", update: { sessionUpdate: "agent_message", messageId: "m", content: [A] } as v2.SessionUpdate },
      { kind: "update", update: { sessionUpdate: "agent_message_chunk", messageId: "m", content: B } as v2.SessionUpdate },
      {
        kind: "update",
        update: { sessionUpdate: "agent_message", messageId: "m", content: [A, B, { type: "text", text: "C" } as v2.ContentBlock] } as v2.SessionUpdate,
      },
    ];
    const lossy: LossyEvent[] = [];
    expect(reduceThroughV1(steps, lossy).message("m")!.content).toEqual([A, B, { type: "text", text: "C" }]);
    expect(lossy).toEqual([]);
  });
});
