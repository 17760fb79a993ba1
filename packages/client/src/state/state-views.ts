// The contract's JSON views of the internal records, built on first read. Views are immutable once
// built, so one per record is enough across every state that shares the record.
import type { v2 } from "@acpkit/schema";
import { type Keyed, listToArray, vectorForEach } from "./persistent.js";
import type { MessageRecord, PlanRecord, ToolCallRecord } from "./records.js";
import type { MessageJSON, PlanJSON, ToolCallJSON } from "./state-json.js";

const messageViews = new WeakMap<MessageRecord, MessageJSON>();
const toolCallViews = new WeakMap<ToolCallRecord, ToolCallJSON>();

export function messageView(record: MessageRecord): MessageJSON {
  let view = messageViews.get(record);
  if (view === undefined) {
    view = { messageId: record.messageId, kind: record.kind, content: listToArray(record.content) };
    if (record.meta !== undefined) view._meta = record.meta;
    Object.freeze(view.content);
    messageViews.set(record, Object.freeze(view));
  }
  return view;
}

export function toolCallView(record: ToolCallRecord): ToolCallJSON {
  let view = toolCallViews.get(record);
  if (view === undefined) {
    // Keys are added in the contract's order so the printed JSON reads the same every time.
    const out = { toolCallId: record.toolCallId } as ToolCallJSON;
    if (record.title !== undefined) out.title = record.title;
    if (record.kind !== undefined) out.kind = record.kind;
    if (record.cancelledLocally) out.status = "cancelled";
    else if (record.status !== undefined) out.status = record.status;
    out.content = Object.freeze(listToArray(record.content)) as v2.ToolCallContent[];
    if (record.locations !== undefined) out.locations = record.locations;
    if ("rawInput" in record) out.rawInput = record.rawInput;
    if ("rawOutput" in record) out.rawOutput = record.rawOutput;
    if (record.name !== undefined) out.name = record.name;
    if (record.capabilities !== undefined) out.capabilities = record.capabilities;
    if (record.meta !== undefined) out._meta = record.meta;
    view = Object.freeze(out) as ToolCallJSON;
    toolCallViews.set(record, view);
  }
  return view;
}

export function planView(record: PlanRecord): PlanJSON {
  const plan = record.plan;
  return plan.type === "items"
    ? { id: record.id, entries: (plan as v2.PlanUpdateContentItems).entries }
    : { id: record.id, type: String(plan.type), raw: plan };
}

export function collect<R, V>(keyed: Keyed<R>, view: (record: R) => V): V[] {
  const out: V[] = [];
  vectorForEach(keyed.records, (record) => out.push(view(record)));
  return out;
}
