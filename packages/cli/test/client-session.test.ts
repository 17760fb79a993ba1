// The pieces `acpkit run` builds a client from: the confined file system, the automatic
// permission answers, the protocol-violation classifier and the bridge's address parsing.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode, RpcError } from "@acpkit/core";
import { confinedFileSystem } from "../src/client-session/confined-fs.js";
import { addressLabel, isWebSocketUrl } from "../src/address-label.js";
import { defaultFormValues } from "../src/client-session/elicitation-policy.js";
import { automaticOutcome } from "../src/client-session/permission-policy.js";
import { DEPTH_MARKER, MAX_JSON_DEPTH, toJsonText } from "../src/json-output.js";
import { isProtocolViolation } from "../src/client-session/violations.js";
import { parseListenAddress } from "../src/commands/bridge.js";
import { UsageError } from "../src/args.js";

let root: string;
let outside: string;

beforeAll(async () => {
  const base = await mkdtemp(join(tmpdir(), "acpkit-fs-"));
  root = join(base, "root");
  outside = join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(root, "lines.txt"), "one\ntwo\nthree\nfour\n");
  await writeFile(join(outside, "secret.txt"), "secret");
  await symlink(join(outside, "secret.txt"), join(root, "link.txt"));
  await symlink(outside, join(root, "outdir"));
});
afterAll(async () => {
  await rm(join(root, ".."), { recursive: true, force: true });
});

async function rpcError(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

describe("confinedFileSystem", () => {
  it("serves nothing for --fs none, reads only for read, both for write", async () => {
    expect(await confinedFileSystem(root, "none")).toBeUndefined();
    const read = (await confinedFileSystem(root, "read"))!;
    expect(typeof read.readTextFile).toBe("function");
    expect(read.writeTextFile).toBeUndefined();
    const write = (await confinedFileSystem(root, "write"))!;
    expect(typeof write.writeTextFile).toBe("function");
  });

  it("reads a file, honouring line and limit, and reports the bytes served", async () => {
    const served: [string, number][] = [];
    const fs = (await confinedFileSystem(root, "read", { read: (path, bytes) => served.push([path, bytes]) }))!;
    const path = join(root, "lines.txt");
    expect(await fs.readTextFile!({ sessionId: "s", path })).toBe("one\ntwo\nthree\nfour\n");
    expect(await fs.readTextFile!({ sessionId: "s", path, line: 2, limit: 2 })).toBe("two\nthree");
    expect(served).toEqual([
      [path, 19],
      [path, 9],
    ]);
  });

  it("refuses paths outside the root, including through symlinks, with -32602", async () => {
    const refused: string[] = [];
    const fs = (await confinedFileSystem(root, "write", { refused: (_m, path) => refused.push(path) }))!;
    for (const path of [join(outside, "secret.txt"), join(root, "link.txt"), join(root, "outdir", "secret.txt"), join(root, "..", "outside", "secret.txt")]) {
      const error = await rpcError(Promise.resolve(fs.readTextFile!({ sessionId: "s", path })));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toContain("outside the working directory");
    }
    const write = await rpcError(Promise.resolve(fs.writeTextFile!({ sessionId: "s", path: join(root, "outdir", "new.txt"), content: "x" })));
    expect(write.code).toBe(ErrorCode.InvalidParams);
    expect(refused).toHaveLength(5);
  });

  it("never writes through a dangling link inside the root to a file outside it (issue: a write escaped --cwd)", async () => {
    const target = join(outside, "created-through-link.txt");
    await symlink(target, join(root, "dangling.txt"));
    const fs = (await confinedFileSystem(root, "write"))!;
    const error = await rpcError(Promise.resolve(fs.writeTextFile!({ sessionId: "s", path: join(root, "dangling.txt"), content: "escaped" })));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain("symbolic link whose target does not exist");
    expect(existsSync(target)).toBe(false);
    const read = await rpcError(Promise.resolve(fs.readTextFile!({ sessionId: "s", path: join(root, "dangling.txt") })));
    expect(read.code).toBe(ErrorCode.InvalidParams);
  });

  it("answers a NUL in the path and a directory with -32602 and a clear message, not Node's internal text", async () => {
    const fs = (await confinedFileSystem(root, "write"))!;
    const nul = await rpcError(Promise.resolve(fs.readTextFile!({ sessionId: "s", path: `${root}/a\u0000b.txt` })));
    expect(nul.code).toBe(ErrorCode.InvalidParams);
    expect(nul.message).toContain("must not contain a NUL character");
    const dir = await rpcError(Promise.resolve(fs.readTextFile!({ sessionId: "s", path: root })));
    expect(dir.code).toBe(ErrorCode.InvalidParams);
    expect(dir.message).toContain("is a directory");
    const writeDir = await rpcError(Promise.resolve(fs.writeTextFile!({ sessionId: "s", path: root, content: "x" })));
    expect(writeDir.code).toBe(ErrorCode.InvalidParams);
    expect(writeDir.message).toContain("is a directory");
  });

  it("refuses relative paths and reports a missing file as -32002", async () => {
    const fs = (await confinedFileSystem(root, "read"))!;
    expect((await rpcError(Promise.resolve(fs.readTextFile!({ sessionId: "s", path: "lines.txt" })))).code).toBe(ErrorCode.InvalidParams);
    const missing = await rpcError(Promise.resolve(fs.readTextFile!({ sessionId: "s", path: join(root, "nope", "x.txt") })));
    expect(missing.code).toBe(ErrorCode.ResourceNotFound);
  });

  // A FIFO inside the root: opening one blocks until its other end is opened, which would hold
  // the request unanswered and a thread of Node's pool for good. Both methods must answer at once.
  it.skipIf(process.platform === "win32")("answers a FIFO (or any file that is not a regular file) at once with -32602, reading and writing", async () => {
    const fifo = join(root, "pipe.fifo");
    execFileSync("mkfifo", [fifo]);
    expect(existsSync(fifo)).toBe(true);
    const fs = (await confinedFileSystem(root, "write"))!;
    const settledWithin = <T>(promise: Promise<T>) => Promise.race([promise, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 2000))]);
    const read = await settledWithin(rpcError(Promise.resolve(fs.readTextFile!({ sessionId: "s", path: fifo }))));
    expect(read).not.toBe("hung");
    expect((read as RpcError).code).toBe(ErrorCode.InvalidParams);
    expect((read as RpcError).message).toBe(`fs/read_text_file: ${fifo}: is not a regular file`);
    const write = await settledWithin(rpcError(Promise.resolve(fs.writeTextFile!({ sessionId: "s", path: fifo, content: "x" }))));
    expect(write).not.toBe("hung");
    expect((write as RpcError).code).toBe(ErrorCode.InvalidParams);
    expect((write as RpcError).message).toBe(`fs/write_text_file: ${fifo}: is not a regular file`);
  });

  it("refuses a file larger than it serves, naming both sizes, and serves one at the bound", async () => {
    const fs = (await confinedFileSystem(root, "read", {}, { maxFileBytes: 1000 }))!;
    const atBound = join(root, "at-bound.txt");
    const over = join(root, "over.txt");
    await writeFile(atBound, "a".repeat(1000));
    await writeFile(over, "a".repeat(1001));
    expect(await fs.readTextFile!({ sessionId: "s", path: atBound })).toHaveLength(1000);
    const error = await rpcError(Promise.resolve(fs.readTextFile!({ sessionId: "s", path: over })));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toBe(`fs/read_text_file: ${over}: is 1001 bytes, more than the 1000 bytes acpkit run serves in one answer`);
  });

  // Files under /proc say size 0 in fstat and hold more: what a file growing while it is read
  // looks like. The bound holds on the bytes read, not on the size fstat gave.
  it.skipIf(process.platform !== "linux")("keeps the bound on the bytes read when a file holds more than its size said", async () => {
    const status = "/proc/self/status";
    expect(existsSync(status)).toBe(true);
    const whole = (await confinedFileSystem("/proc/self", "read"))!;
    const text = await whole.readTextFile!({ sessionId: "s", path: status });
    expect(text).toMatch(/^Name:/);
    expect(text.length).toBeGreaterThan(200);
    const bounded = (await confinedFileSystem("/proc/self", "read", {}, { maxFileBytes: 100 }))!;
    const error = await rpcError(Promise.resolve(bounded.readTextFile!({ sessionId: "s", path: status })));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toBe(`fs/read_text_file: ${status}: holds more than the 100 bytes acpkit run serves in one answer (it was 0 bytes when opened)`);
  });

  // Each write truncates, then writes from the start: two at once left the short text followed by
  // the rest of the long one (11 of 20 pairs before the writes of a path were queued).
  it("runs writes of one file one after the other, in the order they came", async () => {
    const fs = (await confinedFileSystem(root, "write"))!;
    const long = "L".repeat(2_000_000);
    const short = "S".repeat(10);
    for (let i = 0; i < 20; i++) {
      const path = join(root, `queued-${i}.txt`);
      await Promise.all([fs.writeTextFile!({ sessionId: "s", path, content: long }), fs.writeTextFile!({ sessionId: "s", path, content: short })]);
      expect(await readFile(path, "utf8"), `pair ${i}`).toBe(short);
    }
  });

  it("writes inside the root, creating missing files and folders (F2)", async () => {
    const fs = (await confinedFileSystem(root, "write"))!;
    const path = join(root, "new", "deep", "file.txt");
    await fs.writeTextFile!({ sessionId: "s", path, content: "written" });
    expect(await readFile(path, "utf8")).toBe("written");
  });
});

describe("automaticOutcome", () => {
  const options = [
    { optionId: "always", name: "Always", kind: "allow_always" },
    { optionId: "once", name: "Once", kind: "allow_once" },
    { optionId: "never", name: "Never", kind: "reject_always" },
  ];
  it("prefers the once option of the wanted kind, always one of the offered ids (Q3)", () => {
    expect(automaticOutcome("allow", options)).toEqual({ outcome: "selected", optionId: "once" });
    expect(automaticOutcome("reject", options)).toEqual({ outcome: "selected", optionId: "never" });
  });
  it("answers cancelled for the cancel policy and when no option fits", () => {
    expect(automaticOutcome("cancel", options)).toEqual({ outcome: "cancelled" });
    expect(automaticOutcome("reject", options.slice(0, 2))).toEqual({ outcome: "cancelled" });
  });
});

describe("isProtocolViolation", () => {
  it("counts schema and framing failures, not extensions or our own problems", () => {
    expect(isProtocolViolation({ code: "invalid_params", message: "" })).toBe(true);
    expect(isProtocolViolation({ code: "parse_error", message: "" })).toBe(true);
    expect(isProtocolViolation({ code: "unknown_method", message: "", method: "terminal/create" })).toBe(true);
    expect(isProtocolViolation({ code: "unknown_notification", message: "", method: "_vendor/ping" })).toBe(false);
    expect(isProtocolViolation({ code: "handler_error", message: "" })).toBe(false);
    expect(isProtocolViolation({ code: "lossy_meta", message: "" })).toBe(false);
  });
  it("reports a relative path in a tool call without failing the run: E4 is beyond what the schema checks", () => {
    expect(isProtocolViolation({ code: "relative_path", message: "" })).toBe(false);
  });
});

describe("parseListenAddress", () => {
  it("reads host and port, IPv6 in brackets, and an empty host as loopback", () => {
    expect(parseListenAddress("127.0.0.1:8765")).toEqual({ host: "127.0.0.1", port: 8765 });
    expect(parseListenAddress("[::1]:0")).toEqual({ host: "::1", port: 0 });
    expect(parseListenAddress(":9000")).toEqual({ host: "127.0.0.1", port: 9000 });
  });
  it("rejects anything else as a usage error", () => {
    for (const bad of ["8080", "host", "::1:80", "h:99999", "h:-1"]) expect(() => parseListenAddress(bad)).toThrow(UsageError);
  });
});

// The agent names these keys; "__proto__" is legal JSON and must stay a field, not become a prototype.
describe("keys named __proto__ from the agent", () => {
  it("a form field named __proto__ gets its default in the answer", () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","default":"kept"},"n":{"type":"number"}}}');
    const values = defaultFormValues(schema);
    expect(JSON.stringify(values)).toBe('{"__proto__":"kept","n":0}');
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
  });

  it("--json output keeps a __proto__ key when it has to cut a deep value", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const value = JSON.parse('{"__proto__":{"status":"completed"}}') as Record<string, unknown>;
    value.deep = deep;
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    const parsed = JSON.parse(toJsonText(value));
    expect(Object.keys(parsed)).toEqual(["__proto__", "deep"]);
    expect(Object.getOwnPropertyDescriptor(parsed, "__proto__")?.value).toEqual({ status: "completed" });
    expect(JSON.stringify(parsed).includes('"__proto__":{"status":"completed"}')).toBe(true);
    expect(JSON.stringify(parsed).includes(DEPTH_MARKER)).toBe(true);
    expect(MAX_JSON_DEPTH).toBeLessThan(20_000);
  });
});

describe("how the CLI names a WebSocket address", () => {
  it("drops the query and fragment, where an access_token may stand", () => {
    expect(addressLabel("ws://127.0.0.1:8765/acp?access_token=s3cret#x")).toBe("ws://127.0.0.1:8765/acp");
    expect(addressLabel("wss://h/acp")).toBe("wss://h/acp");
  });

  it("takes only ws:// and wss:// URLs that parse", () => {
    expect(["ws://127.0.0.1:8765/acp", "WSS://h/acp?access_token=t"].map(isWebSocketUrl)).toEqual([true, true]);
    expect(["http://h/acp", "ws://[", "ws//h", ""].map(isWebSocketUrl)).toEqual([false, false, false, false]);
  });
});
