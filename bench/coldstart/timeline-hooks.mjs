// Preloaded with `node --import` into a cold-start client (coldstart/*-client.mjs) by timeline.ts:
// records when each step of a cold start happens in the client and in the agent it spawns, from
// outside, so the same hooks time acpkit and the raw pair alike and neither's code changes.
//
// In the client it wraps child_process.spawn: the agent is started with these hooks too, and the
// client marks what it writes to the agent and reads back. In the agent it marks its first input
// and what it writes. Each process appends one JSON line to $ACPKIT_TIMELINE_OUT when it exits:
// { role, origin, marks: [[name, ms since the epoch], …] } (origin: when the process started).
import childProcess from "node:child_process";
import { appendFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { performance } from "node:perf_hooks";

const out = process.env.ACPKIT_TIMELINE_OUT;
const role = process.env.ACPKIT_TIMELINE_ROLE === "agent" ? "agent" : "client";
const marks = [];
const seen = new Set();
/** Marks `name` the first time only: later messages of the same kind say nothing new. */
const mark = (name) => {
  if (seen.has(name)) return;
  seen.add(name);
  marks.push([name, performance.timeOrigin + performance.now()]);
};

// The method of each request seen so far, by id, so that an answer is marked by what it answers.
const methods = new Map();

/** What one written or read ndjson chunk holds, as mark names: `initialize` for a request, `answer initialize` for its response. */
function describe(chunk) {
  const text = typeof chunk === "string" ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("utf8");
  const names = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      continue; // Not a whole line (a chunk may split one): only whole messages are marked.
    }
    if (typeof message.method === "string") {
      if ("id" in message) methods.set(message.id, message.method);
      names.push(message.method === "session/update" ? "update" : message.method);
    } else if ("id" in message) names.push(`answer ${methods.get(message.id) ?? message.id}`);
  }
  return names;
}

mark("start");
process.on("exit", () => {
  mark("exit");
  if (out) appendFileSync(out, `${JSON.stringify({ role, origin: performance.timeOrigin, marks })}\n`);
});

if (role === "agent") {
  const { stdin, stdout } = process;
  const emit = stdin.emit;
  stdin.emit = function (event, ...args) {
    if (event === "data") {
      mark("input");
      describe(args[0]); // learns the requests' ids
    }
    return emit.call(this, event, ...args);
  };
  const write = stdout.write;
  stdout.write = function (chunk, ...args) {
    for (const name of describe(chunk)) mark(`wrote ${name}`);
    return write.call(this, chunk, ...args);
  };
} else {
  const spawn = childProcess.spawn;
  childProcess.spawn = function (command, args, options) {
    mark("spawn");
    const hooked = command === process.execPath ? ["--import", import.meta.url, ...(args ?? [])] : args;
    const env = { ...(options?.env ?? process.env), ACPKIT_TIMELINE_ROLE: "agent" };
    const child = spawn.call(this, command, hooked, { ...options, env });
    child.once("exit", () => mark("agent exited"));
    const write = child.stdin.write;
    child.stdin.write = function (chunk, ...rest) {
      for (const name of describe(chunk)) mark(`sent ${name}`);
      return write.call(this, chunk, ...rest);
    };
    const end = child.stdin.end;
    child.stdin.end = function (...rest) {
      mark("closed stdin");
      return end.apply(this, rest);
    };
    const emit = child.stdout.emit;
    child.stdout.emit = function (event, ...rest) {
      if (event === "data") for (const name of describe(rest[0])) mark(`read ${name}`);
      return emit.call(this, event, ...rest);
    };
    return child;
  };
  // Named imports of node:child_process (`import { spawn }`) see the wrapper too.
  syncBuiltinESMExports();
}
