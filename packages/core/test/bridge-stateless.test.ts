// Stateless v1⇄v2 conversions (docs/protocol.md §1.3, §7.1): initialize, capabilities, auth methods, MCP
// servers, prompts, permission options, stop reasons. Outputs are checked against the target schema.
import { type v1, type v2, validateDefinition } from "@acpkit/schema";
import { describe, expect, it } from "vitest";
import {
  type LossyEvent,
  agentCapabilitiesFromV1,
  agentCapabilitiesToV1,
  authMethodsFromV1,
  authMethodsToV1,
  initializeParamsFromV1,
  initializeParamsToV1,
  initializeResultFromV1,
  initializeResultToV1,
  mcpServersFromV1,
  mcpServersToV1,
  permissionOptionsToV1,
  promptToV1,
  sessionSetupParamsToV1,
  stopReasonToV1,
} from "../src/bridge/index.js";
import { AcpError } from "../src/errors.js";

function collector() {
  const events: LossyEvent[] = [];
  return { events, options: { onLossy: (e: LossyEvent) => events.push(e) } };
}

function expectValid(version: 1 | 2, definition: string, value: unknown) {
  expect(validateDefinition(version, definition, value)).toEqual({ valid: true });
}

describe("initialize", () => {
  it("converts v2 params to v1 with fs and terminal off unless offered", () => {
    const v2Params = { protocolVersion: 2, capabilities: { _meta: { "acme/x": true } }, clientInfo: { name: "c", version: "1" } } as v2.InitializeRequest;
    const plain = initializeParamsToV1(v2Params);
    expect(plain).toEqual({
      protocolVersion: 2,
      clientInfo: { name: "c", version: "1" },
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false, _meta: { "acme/x": true } },
    });
    expectValid(1, "InitializeRequest", plain);
    expect(initializeParamsToV1(v2Params, { fs: { readTextFile: true } }).clientCapabilities!.fs).toEqual({ readTextFile: true, writeTextFile: false });
  });

  it("converts v1 params to v2, dropping fs/terminal to capabilities {}", () => {
    const out = initializeParamsFromV1({
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      clientInfo: { name: "c", version: "1" },
    } as v1.InitializeRequest);
    expect(out).toEqual({ protocolVersion: 1, capabilities: {}, clientInfo: { name: "c", version: "1" } });
    expectValid(2, "InitializeRequest", out);
  });

  it("converts the docs/protocol.md §1.3 v1 result to v2 markers and back", () => {
    const v1Result = {
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: false },
      },
      authMethods: [],
      agentInfo: { name: "acpkit-agent", title: "acpkit Agent", version: "0.1.0" },
    } as v1.InitializeResponse;
    const { events, options } = collector();
    const v2Result = initializeResultFromV1(v1Result, options);
    expect(v2Result).toEqual({
      protocolVersion: 1,
      capabilities: { session: { prompt: { embeddedContext: {} }, mcp: { stdio: {}, http: {} } } },
      authMethods: [],
      agentInfo: { name: "acpkit-agent", title: "acpkit Agent", version: "0.1.0" },
    });
    expectValid(2, "InitializeResponse", v2Result);
    const back = initializeResultToV1(v2Result, options);
    expect(back).toEqual({
      protocolVersion: 1,
      agentCapabilities: { promptCapabilities: { embeddedContext: true }, mcpCapabilities: { http: true } },
      authMethods: [],
      agentInfo: { name: "acpkit-agent", title: "acpkit Agent", version: "0.1.0" },
    });
    expectValid(1, "InitializeResponse", back);
    expect(events).toEqual([]);
  });

  it("converts the docs/protocol.md §1.3 v2 result, session markers and logout included", () => {
    const caps = {
      session: { load: {}, prompt: { embeddedContext: {} }, mcp: { stdio: {}, http: {} }, list: {}, close: {} },
      auth: { logout: {} },
      _meta: { k: 1 },
    } as v2.AgentCapabilities;
    const v1Caps = agentCapabilitiesToV1(caps);
    expect(v1Caps).toEqual({
      loadSession: true,
      promptCapabilities: { embeddedContext: true },
      mcpCapabilities: { http: true },
      sessionCapabilities: { list: {}, close: {} },
      auth: { logout: {} },
      _meta: { k: 1 },
    });
    expectValid(1, "AgentCapabilities", v1Caps);
    expect(agentCapabilitiesFromV1(v1Caps)).toEqual(caps);
  });

  it("refuses v1 for an agent without session, and reports what cannot be said (mcp_server)", () => {
    expect(() => agentCapabilitiesToV1({ auth: {} })).toThrow(AcpError);
    const { events, options } = collector();
    agentCapabilitiesToV1({ session: { mcp: { http: {} } } } as v2.AgentCapabilities, options);
    agentCapabilitiesFromV1({ mcpCapabilities: { sse: true } }, options);
    expect(events.map((e) => e.code)).toEqual(["mcp_server", "mcp_server"]);
  });
});

describe("auth methods and MCP servers", () => {
  it("tags the untagged v1 agent method, keeps terminal, and drops unknown v2 types (auth_method)", () => {
    const v1Methods = [
      { id: "login", name: "Log in" },
      { type: "terminal", id: "tty", name: "Terminal", args: ["--login"] },
    ] as v1.AuthMethod[];
    const v2Methods = authMethodsFromV1(v1Methods);
    expect(v2Methods).toEqual([
      { type: "agent", id: "login", name: "Log in" },
      { type: "terminal", id: "tty", name: "Terminal", args: ["--login"] },
    ]);
    const { events, options } = collector();
    const back = authMethodsToV1([...v2Methods, { type: "_acme/sso", id: "sso", name: "SSO" } as v2.AuthMethod], options);
    expect(back).toEqual(v1Methods);
    expect(events.map((e) => e.code)).toEqual(["auth_method"]);
  });

  it("tags stdio servers for v2, untags them for v1, and drops SSE / unknown transports (mcp_server)", () => {
    const stdio = { name: "fs", command: "/bin/mcp", args: [], env: [] };
    const http = { type: "http", name: "web", url: "https://x", headers: [] };
    const sse = { type: "sse", name: "old", url: "https://y", headers: [] };
    const { events, options } = collector();
    const v2Servers = mcpServersFromV1([stdio, http, sse] as v1.McpServer[], options);
    expect(v2Servers).toEqual([{ ...stdio, type: "stdio" }, http]);
    for (const server of v2Servers) expectValid(2, "McpServer", server);
    expect(mcpServersToV1([...v2Servers, { type: "_acme/ws", name: "ws" } as v2.McpServer], options)).toEqual([stdio, http]);
    expect(sessionSetupParamsToV1({ cwd: "/p", mcpServers: v2Servers }, options)).toEqual({ cwd: "/p", mcpServers: [stdio, http] });
    expect(events.map((e) => e.code)).toEqual(["mcp_server", "mcp_server"]);
  });
});

describe("prompts, permission options, stop reasons", () => {
  it("drops unknown prompt blocks and custom roles (content_block)", () => {
    const { events, options } = collector();
    const out = promptToV1(
      {
        sessionId: "s",
        prompt: [
          { type: "text", text: "hi" },
          { type: "_acme/sketch", svg: "<svg/>" },
        ],
      } as v2.PromptRequest,
      options,
    );
    expect(out).toEqual({ sessionId: "s", prompt: [{ type: "text", text: "hi" }] });
    expectValid(1, "PromptRequest", out);
    expect(events).toEqual([expect.objectContaining({ code: "content_block", sessionId: "s" })]);
  });

  it("drops permission options of custom kind (permission_option)", () => {
    const { events, options } = collector();
    const kept = permissionOptionsToV1(
      [
        { optionId: "a", name: "A", kind: "allow_always" },
        { optionId: "b", name: "B", kind: "_acme/ask" },
      ] as v2.PermissionOption[],
      options,
    );
    expect(kept).toEqual([{ optionId: "a", name: "A", kind: "allow_always" }]);
    expect(events.map((e) => e.code)).toEqual(["permission_option"]);
  });

  it("passes the five v1 stop reasons and carries others in _meta (B5)", () => {
    const { events, options } = collector();
    for (const reason of ["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"])
      expect(stopReasonToV1(reason, undefined, options)).toEqual({ stopReason: reason });
    const out = stopReasonToV1("_acpkit/budget_exhausted", { trace: "t" }, options);
    expect(out).toEqual({ stopReason: "end_turn", _meta: { trace: "t", "acpkit/v2StopReason": "_acpkit/budget_exhausted" } });
    expectValid(1, "PromptResponse", out);
    expect(events.map((e) => e.code)).toEqual(["stop_reason"]);
  });
});
