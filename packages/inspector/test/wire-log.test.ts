// The wire view's model: names responses by their request, reads update kinds, marks schema
// problems by JSON path as messages arrive, and exports what `acpkit validate` accepts.
import { validateTranscript } from "@acpkit/schema";
import { describe, expect, it } from "vitest";
import { MAX_WIRE_ENTRIES, WireLog } from "../src/ui/wire-log.js";

const out = (log: WireLog, value: unknown) => log.message("client_to_agent", JSON.stringify(value), 0);
const back = (log: WireLog, value: unknown) => log.message("agent_to_client", JSON.stringify(value), 0);

describe("WireLog", () => {
  it("names each message and finds a problem's JSON path", () => {
    const log = new WireLog();
    out(log, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } });
    const answer = back(log, { jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
    expect(answer).toMatchObject({ method: "initialize", shape: "response", id: 0, problems: [] });
    const update = back(log, {
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text" } } },
    });
    expect(update.updateKind).toBe("agent_message_chunk");
    expect(update.problems.length).toBeGreaterThan(0);
    expect(update.problems[0]!.path).toMatch(/^\/params\/update/);
    const broken = log.message("agent_to_client", "{not json", 9);
    expect(broken.problems[0]!.message).toMatch(/not valid JSON/);
    log.note("a note");
    expect(log.entries.map((entry) => entry.type)).toEqual(["message", "message", "message", "message", "note"]);
  });

  it("exports an ndjson transcript with direction markers that acpkit validate accepts", () => {
    const log = new WireLog();
    out(log, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } });
    back(log, { jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
    out(log, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/tmp", mcpServers: [] } });
    back(log, { jsonrpc: "2.0", id: 1, result: { sessionId: "s1" } });
    log.note("not exported");
    const transcript = log.toTranscript();
    expect(transcript.split("\n").filter((line) => line !== "")).toHaveLength(4);
    expect(transcript.startsWith('→ {"jsonrpc"')).toBe(true);
    const report = validateTranscript(transcript);
    expect(report).toMatchObject({ valid: true, messages: 4, protocolVersion: 1 });
  });

  it("keeps at most MAX_WIRE_ENTRIES and counts what it let go", () => {
    const log = new WireLog();
    for (let i = 0; i < MAX_WIRE_ENTRIES + 5; i++) log.note(String(i));
    expect(log.entries).toHaveLength(MAX_WIRE_ENTRIES);
    expect(log.dropped).toBe(5);
    expect(log.entries[0]).toMatchObject({ text: "5" });
  });
});
