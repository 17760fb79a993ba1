// The small public helpers of @acpkit/core that the Connection tests only reach indirectly.
import { afterEach, describe, expect, it } from "vitest";
import * as bridge from "../src/bridge/index.js";
import {
  AcpError,
  CANCEL_REQUEST_METHOD,
  COMPACTION_SUMMARY_CHUNK,
  COMPACTION_UPDATE,
  CURRENT_MODE_UPDATE,
  JsonRpcKind,
  NOTICE_UPDATE,
  RpcError,
  TERMINAL_CONTENT_TYPE,
  absolutePathProblem,
  checkAbsolutePathArgument,
  checkAbsolutePathParam,
  classifyMessage,
  closedError,
  Connection,
  defaultValidateOutgoing,
  loadProtocolVersion,
  describeTransportProblem,
  valueKind,
  absolutePathProblem as pathProblem,
  isAbsolutePath,
  toolCallPathProblem,
  isAcpError,
  isProtocolVersion,
  isRpcError,
  jsonEqual,
  plainTextOf,
  schemaRegistry,
} from "../src/index.js";
import * as main from "../src/index.js";
import * as kit from "../src/transport-kit.js";
import { AcpError as KitAcpError } from "../src/transport-kit.js";

describe("classifyMessage", () => {
  it("tells requests, notifications, responses and invalid values apart", () => {
    expect(classifyMessage({ jsonrpc: "2.0", id: 1, method: "session/prompt", params: {} })).toBe(JsonRpcKind.Request);
    expect(classifyMessage({ jsonrpc: "2.0", id: "a", method: "x" })).toBe(JsonRpcKind.Request);
    expect(classifyMessage({ jsonrpc: "2.0", method: "session/update", params: {} })).toBe(JsonRpcKind.Notification);
    expect(classifyMessage({ jsonrpc: "2.0", id: 1, result: null })).toBe(JsonRpcKind.Response);
    expect(classifyMessage({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })).toBe(JsonRpcKind.Response);
    expect(classifyMessage({ jsonrpc: "1.0", id: 1, method: "x" })).toBe(JsonRpcKind.Invalid);
    expect(classifyMessage({ jsonrpc: "2.0", id: 1, method: "x", params: "text" })).toBe(JsonRpcKind.Invalid);
    expect(classifyMessage("text")).toBe(JsonRpcKind.Invalid);
    expect(classifyMessage(null)).toBe(JsonRpcKind.Invalid);
  });
});

describe("closedError", () => {
  it("is a ConnectionClosed AcpError carrying the CloseInfo", () => {
    const info = { reason: "child exited with code 3", exitCode: 3, signal: null };
    const error = closedError(info);
    expect(isAcpError(error, "ConnectionClosed")).toBe(true);
    expect(error.message).toContain("child exited with code 3");
    expect(error.data).toBe(info);
  });
});

describe("isRpcError / isAcpError", () => {
  it("separate a peer's JSON-RPC error from a local failure", () => {
    const wire = new RpcError(-32602, "Invalid params", { path: "/prompt" });
    const local = new AcpError("Timeout", "no answer in 50 ms");
    expect(isRpcError(wire)).toBe(true);
    expect(isRpcError(local)).toBe(false);
    expect(isAcpError(local, "Timeout")).toBe(true);
    expect(isAcpError(wire)).toBe(false);
    expect(wire.toJSON()).toEqual({ code: -32602, message: "Invalid params", data: { path: "/prompt" } });
  });
});

describe("isProtocolVersion (re-exported from @acpkit/schema/lazy)", () => {
  it("is true for exactly the versions acpkit speaks", () => {
    expect([1, 2].map(isProtocolVersion)).toEqual([true, true]);
    expect([0, 3, 1.5, "1", null, undefined, [1]].map(isProtocolVersion)).toEqual([false, false, false, false, false, false, false]);
  });
});

describe("plainTextOf", () => {
  it("gives the text of exactly a plain text block (undefined members count as absent)", () => {
    expect(plainTextOf({ type: "text", text: "hi" })).toBe("hi");
    expect(plainTextOf({ text: "", type: "text" })).toBe("");
    expect(plainTextOf({ type: "text", text: "hi", annotations: undefined, _meta: undefined })).toBe("hi");
    for (const block of [
      { type: "text", text: "hi", annotations: { priority: 1 } },
      { type: "text", text: "hi", _meta: null },
      { type: "text", text: 7 },
      { type: "image", text: "hi" },
      Object.assign(Object.create({ annotations: {} }), { type: "text", text: "hi" }),
      null,
      "hi",
      [],
    ])
      expect(plainTextOf(block), JSON.stringify(block)).toBeUndefined();
  });
});

describe("the transport kit's AcpError", () => {
  it("is the class of the main entry, so a transport's errors pass isAcpError", () => {
    expect(KitAcpError).toBe(AcpError);
    expect(isAcpError(new KitAcpError("InvalidMessage", "bad"), "InvalidMessage")).toBe(true);
  });

  it("hands out the one copy the main entry carries, and the main entry exports none of it by name", () => {
    const names = Object.keys(kit);
    expect(names.sort()).toEqual([
      "AcpError",
      "OUTPUT_HIGH_WATER",
      "RequestIdScanner",
      "SEND_ACCEPTED",
      "composedFlow",
      "createDeferred",
      "deliverMessage",
      "encodeMessage",
      "forwardingReceiver",
      "oversizedRequestId",
      "parseRequestTarget",
      "utf8SizeOver",
      "wrapTransport",
    ]);
    const carried = (main as unknown as { __transportKit: Record<string, unknown> }).__transportKit;
    for (const name of names.filter((name) => name !== "AcpError")) {
      expect(carried[name], name).toBe((kit as Record<string, unknown>)[name]);
      // Transport-author code is not part of the main entry's API (only @acpkit/core/transport-kit).
      expect(name in main, name).toBe(false);
    }
  });
});

describe("schemaRegistry", () => {
  it("answers per version from the generated method tables", async () => {
    // The registry validates with the schema's validation code, which a Connection loads itself.
    await Promise.all([loadProtocolVersion(1), loadProtocolVersion(2)]);
    expect(schemaRegistry.getMethod(1, "fs/read_text_file")?.direction).toBe("agent_to_client");
    expect(schemaRegistry.getMethod(2, "fs/read_text_file")).toBeUndefined();
    expect(schemaRegistry.getMethod(1, CANCEL_REQUEST_METHOD)?.kind).toBe("notification");
    expect(schemaRegistry.getMethod(2, CANCEL_REQUEST_METHOD)).toBeUndefined();
    expect(schemaRegistry.legacyMethod?.(1, "acp/session_update")?.expected).toContain("session/update");
    expect(schemaRegistry.checkOutgoing(2, "session/prompt", "result", { stopReason: "finished" }).valid).toBe(false);
    expect(schemaRegistry.checkOutgoing(2, "session/prompt", "result", { stopReason: "_acme/done" }).valid).toBe(true);
  });
});

describe("defaultValidateOutgoing", () => {
  const before = process.env.NODE_ENV;
  afterEach(() => {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  });

  it("is on unless NODE_ENV is production", () => {
    process.env.NODE_ENV = "production";
    expect(defaultValidateOutgoing()).toBe(false);
    process.env.NODE_ENV = "development";
    expect(defaultValidateOutgoing()).toBe(true);
    delete process.env.NODE_ENV;
    expect(defaultValidateOutgoing()).toBe(true);
  });
});

describe("model names and jsonEqual in the root entry", () => {
  it("are the very values the bridge exports", () => {
    expect({ TERMINAL_CONTENT_TYPE, CURRENT_MODE_UPDATE, NOTICE_UPDATE, COMPACTION_UPDATE, COMPACTION_SUMMARY_CHUNK, jsonEqual }).toEqual({
      TERMINAL_CONTENT_TYPE: bridge.TERMINAL_CONTENT_TYPE,
      CURRENT_MODE_UPDATE: bridge.CURRENT_MODE_UPDATE,
      NOTICE_UPDATE: bridge.NOTICE_UPDATE,
      COMPACTION_UPDATE: bridge.COMPACTION_UPDATE,
      COMPACTION_SUMMARY_CHUNK: bridge.COMPACTION_SUMMARY_CHUNK,
      jsonEqual: bridge.jsonEqual,
    });
    expect(NOTICE_UPDATE).toBe("_acpkit/notice");
    expect(jsonEqual({ a: [1, { b: 2 }], c: undefined }, { a: [1, { b: 2 }] })).toBe(true);
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
  });
});

/** What `run` throws (undefined when it returns). */
function thrownBy(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("isAbsolutePath and absolutePathProblem (H10)", () => {
  it.each(["/", "/home/u/p", "C:\\", "C:\\Users\\u", "c:/work", "\\\\server\\share", "\\\\?\\C:\\long"])("%s is absolute", (path) => {
    expect(isAbsolutePath(path)).toBe(true);
    expect(absolutePathProblem(path)).toBeUndefined();
  });

  it.each(["", ".", "src", "./p", "../p", "~/p", "C:", "C:work", "\\", "\\\\", "\\dir", "1:/x", "file:///home"])("%j is not", (path) => {
    expect(isAbsolutePath(path)).toBe(false);
    expect(absolutePathProblem(path)).toBe(`must be an absolute path (got ${JSON.stringify(path)})`);
  });

  it("checkAbsolutePathParam answers a peer with -32602 at the pointer; checkAbsolutePathArgument refuses our caller", () => {
    expect(() => checkAbsolutePathParam("fs/read_text_file", "/path", "/ok")).not.toThrow();
    expect(() => checkAbsolutePathArgument("readTextFile", "/path", "/ok")).not.toThrow();
    const param = thrownBy(() => checkAbsolutePathParam("session/new", "/cwd", "src"));
    expect(param).toBeInstanceOf(RpcError);
    expect((param as RpcError).toJSON()).toEqual({
      code: -32602,
      message: 'Invalid params for session/new: /cwd must be an absolute path (got "src")',
      data: { path: "/cwd", message: 'must be an absolute path (got "src")' },
    });
    const argument = thrownBy(() => checkAbsolutePathArgument("resumeSession", "/additionalDirectories/2", "lib"));
    expect(argument).toBeInstanceOf(AcpError);
    expect(argument).toMatchObject({
      code: "InvalidArgument",
      message: 'resumeSession: additionalDirectories/2 must be an absolute path (got "lib")',
      data: { path: "/additionalDirectories/2" },
    });
  });

  it("toolCallPathProblem finds the first relative location or diff path, in a list of content or in one item", () => {
    expect(toolCallPathProblem({ locations: [{ path: "/a" }], content: [{ type: "content", content: { type: "text", text: "x" } }] })).toBeUndefined();
    expect(toolCallPathProblem({ locations: [{ path: "/a" }, { path: "b" }], content: [{ type: "diff", path: "c" }] })).toEqual({
      pointer: "/locations/1/path",
      problem: 'must be an absolute path (got "b")',
    });
    expect(
      toolCallPathProblem({
        content: [
          { type: "terminal", terminalId: "t" },
          { type: "diff", path: "c", newText: "" },
        ],
      }),
    ).toMatchObject({ pointer: "/content/1/path" });
    expect(toolCallPathProblem({ content: { type: "diff", path: "./d", newText: "" } })).toMatchObject({ pointer: "/content/path" });
    // Not strings, or not there: left to the schema check.
    expect(toolCallPathProblem({ locations: [null, { path: 7 }], content: { type: "diff" } })).toBeUndefined();
    expect(toolCallPathProblem({})).toBeUndefined();
  });

  it("quotes at most 120 characters of a long path and says how long it was", () => {
    const problem = absolutePathProblem("a".repeat(5000));
    expect(problem).toBe(`must be an absolute path (got ${JSON.stringify("a".repeat(120))}… (5000 characters))`);
  });
});

describe("describeTransportProblem", () => {
  const shape = "the transport must be an object with start(receiver), send(message), close() and a closed promise";
  const transport = { start() {}, send: async () => {}, close: async () => {}, closed: new Promise(() => {}) };

  it("accepts a transport and names what a non-transport lacks", () => {
    expect(describeTransportProblem(transport)).toBeUndefined();
    expect(describeTransportProblem(null)).toBe(`${shape}, got null`);
    expect(describeTransportProblem("ws://127.0.0.1:8765/acp")).toBe(`${shape}, got a string`);
    expect(describeTransportProblem({})).toBe(`${shape}; this one has no start, send, close, closed`);
    expect(describeTransportProblem({ ...transport, closed: undefined })).toBe(`${shape}; this one has no closed`);
  });

  // Before: "Cannot read properties of null (reading 'pause')" from inside the constructor.
  it("is what new Connection() throws for a non-transport", () => {
    expect(() => new Connection(null as never, { side: "client" })).toThrow(new TypeError(`Connection: ${shape}, got null`));
    expect(() => new Connection(transport as never, { side: "client" })).not.toThrow();
  });
});

describe("valueKind", () => {
  it("names the kind of a value the way argument errors say it", () => {
    expect([undefined, null, [], {}, 1, "x", true, () => {}].map(valueKind)).toEqual([
      "nothing",
      "null",
      "a list",
      "an object",
      "a number",
      "a string",
      "a boolean",
      "a function",
    ]);
    // A missing path reads as such, where it used to throw "Cannot read properties of undefined".
    expect(pathProblem(undefined)).toBe("must be an absolute path (got nothing)");
    expect(pathProblem(7)).toBe("must be an absolute path (got a number)");
  });
});
