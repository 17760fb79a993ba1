// The human turn output: line forms, streamed text joined on one line, plans printing only what
// changed, tool-call content not repeated, colors only when the style has them.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { SessionUpdate } from "@acpkit/client";
import { TurnPrinter } from "../src/render/turn-printer.js";
import { createStyle } from "../src/style.js";

function printer(color = false) {
  const out = new PassThrough();
  let text = "";
  out.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  return { printer: new TurnPrinter(out, createStyle(color)), text: () => text };
}

const u = (update: Record<string, unknown>) => update as unknown as SessionUpdate;
const chunk = (sessionUpdate: string, messageId: string, text: string) => u({ sessionUpdate, messageId, content: { type: "text", text } });

describe("TurnPrinter", () => {
  it("streams message chunks on one line and starts a new line for the next event", () => {
    const { printer: p, text } = printer();
    p.update(chunk("agent_thought_chunk", "t1", "Let me "));
    p.update(chunk("agent_thought_chunk", "t1", "think."));
    p.update(chunk("agent_message_chunk", "m1", "Hello "));
    p.update(chunk("agent_message_chunk", "m1", "world"));
    p.update(u({ sessionUpdate: "usage_update", used: 5, size: 10, cost: { amount: 0.5, currency: "EUR" } }));
    p.stop("end_turn");
    expect(text()).toBe("💭 Let me think.\nHello world\nusage 5/10 · cost 0.5 EUR\n■ end_turn\n");
  });

  it("prints a plan in full once, then only entries whose status changed", () => {
    const { printer: p, text } = printer();
    const plan = (a: string, b: string) =>
      u({
        sessionUpdate: "plan_update",
        plan: {
          type: "items",
          id: "p",
          entries: [
            { content: "A", priority: "high", status: a },
            { content: "B", priority: "low", status: b },
          ],
        },
      });
    p.update(plan("in_progress", "pending"));
    p.update(plan("completed", "in_progress"));
    p.update(plan("completed", "in_progress"));
    expect(text()).toBe("▸ plan\n  ◐ A (in_progress)\n  ○ B (pending)\n▸ ● A (completed)\n▸ ◐ B (in_progress)\n");
  });

  it("names tool calls in later updates and does not repeat replaced content", () => {
    const { printer: p, text } = printer();
    const diff = { type: "diff", path: "/p/a.txt", oldText: "a", newText: "b" };
    const note = { type: "content", content: { type: "text", text: "done\nmore" } };
    p.update(u({ sessionUpdate: "tool_call_update", toolCallId: "c1", title: "Edit a.txt", kind: "edit", status: "pending", content: [diff] }));
    p.permission(
      { toolCallId: "c1" },
      [
        { optionId: "ok", name: "Allow", kind: "allow_once" },
        { optionId: "no", name: "Reject", kind: "reject_once" },
      ],
      { outcome: "selected", optionId: "no" },
      "auto",
    );
    p.update(u({ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed", content: [diff, note] }));
    expect(text()).toBe(
      "🔧 tool call Edit a.txt (edit) pending\n" +
        "   │ diff /p/a.txt\n" +
        "? permission Edit a.txt [Allow | Reject] → Reject (auto)\n" +
        "🔧 Edit a.txt → completed\n" +
        "   │ done …\n",
    );
  });

  it("shows file access, prompts, failures and unknown updates", () => {
    const { printer: p, text } = printer();
    p.prompt("hi");
    p.fileRead("/p/a.txt", 12);
    p.update(u({ sessionUpdate: "_vendor/thing", x: 1 }));
    p.permission({ toolCallId: "c9", title: "Delete" }, [], { outcome: "cancelled" }, "turn cancelled");
    p.failed("turn 1 failed: gone");
    expect(text()).toBe(
      "› hi\n📄 read /p/a.txt (12 bytes)\n· update _vendor/thing\n? permission Delete [] → cancelled (turn cancelled)\n✗ turn 1 failed: gone\n",
    );
  });

  it("colors with a TTY style, and never without one", () => {
    const colored = printer(true);
    colored.printer.stop("cancelled");
    expect(colored.text()).toBe("\u001b[33m■ cancelled\u001b[39m\n");
    const plain = printer(false);
    plain.printer.update(chunk("agent_thought_chunk", "t", "x"));
    plain.printer.finish();
    expect(plain.text()).not.toContain("\u001b[");
  });
});
