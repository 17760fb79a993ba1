// Importing a transcript rebuilds the sessions a live client would have built.
import { describe, expect, it } from "vitest";
import { replayTranscript } from "../src/ui/replay.js";
import { WireLog } from "../src/ui/wire-log.js";

const lines = (messages: [string, unknown][]) => messages.map(([mark, value]) => `${mark} ${JSON.stringify(value)}`).join("\n");

describe("replayTranscript", () => {
  it("rebuilds a v1 session: prompt, streamed answer, tool call with permission, stop reason", () => {
    const text = lines([
      ["→", { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }],
      ["←", { jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {} } }],
      ["→", { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }],
      [
        "←",
        {
          jsonrpc: "2.0",
          id: 1,
          result: {
            sessionId: "s1",
            modes: {
              currentModeId: "ask",
              availableModes: [
                { id: "ask", name: "Ask" },
                { id: "code", name: "Code" },
              ],
            },
          },
        },
      ],
      ["→", { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] } }],
      [
        "←",
        {
          jsonrpc: "2.0",
          method: "session/update",
          params: { sessionId: "s1", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "Edit", status: "pending" } },
        },
      ],
      [
        "←",
        {
          jsonrpc: "2.0",
          id: 0,
          method: "session/request_permission",
          params: { sessionId: "s1", toolCall: { toolCallId: "t1" }, options: [{ optionId: "ok", name: "OK", kind: "allow_once" }] },
        },
      ],
      ["→", { jsonrpc: "2.0", id: 0, result: { outcome: { outcome: "selected", optionId: "ok" } } }],
      [
        "←",
        {
          jsonrpc: "2.0",
          method: "session/update",
          params: { sessionId: "s1", update: { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" } },
        },
      ],
      [
        "←",
        {
          jsonrpc: "2.0",
          method: "session/update",
          params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hel" } } },
        },
      ],
      [
        "←",
        {
          jsonrpc: "2.0",
          method: "session/update",
          params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "lo" } } },
        },
      ],
      ["←", { jsonrpc: "2.0", id: 2, result: { stopReason: "end_turn" } }],
    ]);
    const wire = new WireLog();
    const result = replayTranscript(text, wire);
    expect(wire.entries).toHaveLength(12);
    expect(result.protocolVersion).toBe(1);
    expect(result.sessions).toHaveLength(1);
    const state = result.sessions[0]!.state.toJSON();
    expect(state.messages.map((message) => [message.kind, message.content.map((block) => (block as { text: string }).text).join("")])).toEqual([
      ["user_message", "hi"],
      ["agent_message", "Hello"],
    ]);
    expect(state.toolCalls).toMatchObject([{ toolCallId: "t1", title: "Edit", status: "completed" }]);
    expect(state.permissions).toMatchObject([{ toolCallId: "t1", outcome: { outcome: "selected", optionId: "ok" } }]);
    expect(state.modes?.currentModeId).toBe("ask");
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
  });

  it("rebuilds a transcript of the later v2 draft through its codec: receipts kept out, the idle ends the turn", () => {
    const lines = [
      '→ {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}',
      '← {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"info":{"name":"a","version":"1"},"capabilities":{"session":{}}}}',
      '→ {"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/p"}}',
      '← {"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}',
      '→ {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}',
      '← {"jsonrpc":"2.0","id":2,"result":{"messageId":"u1"}}',
      '← {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"state_update","state":"running"}}}',
      '← {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"Hello"}}}}',
      '← {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}}}',
    ];
    const wire = new WireLog();
    const result = replayTranscript(lines.join("\n"), wire);
    expect(result).toMatchObject({ protocolVersion: 2, later: true, unreadable: 0 });
    expect(wire.entries).toHaveLength(lines.length);
    const state = result.sessions[0]!.state.toJSON();
    expect(state.messages.map((message) => [message.kind, message.content.map((block) => (block as { text: string }).text).join("")])).toEqual([
      ["user_message", "hi"],
      ["agent_message", "Hello"],
    ]);
    // The turn ended with the idle's stop reason (the receipt ended nothing).
    expect(state.turns).toEqual([{ stopReason: "end_turn" }]);
    // The same lines from a pinned-v2 exchange (no info in the answer) are read as the pinned draft.
    const pinned = replayTranscript(
      lines.slice(0, 1).concat('← {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2,"agentInfo":{"name":"a","version":"1"}}}').join("\n"),
      new WireLog(),
    );
    expect(pinned.later).toBe(false);
  });

  it("puts unreadable lines in the wire view and counts them", () => {
    const wire = new WireLog();
    const result = replayTranscript('→ {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"capabilities":{}}}\nnot json\n', wire);
    expect(result).toMatchObject({ unreadable: 1, protocolVersion: 2, sessions: [] });
    expect(wire.entries).toHaveLength(2);
  });
});
