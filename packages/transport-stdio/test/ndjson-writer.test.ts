import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { AcpError } from "@acpkit/core";
import { NdjsonWriter } from "../src/ndjson-writer.js";

/** A Writable that records each write() and reports "full" until the test lets it drain. */
class ControlledSink extends Writable {
  readonly writes: string[] = [];
  full = false;
  constructor() {
    super({ decodeStrings: false });
  }
  override write(chunk: string): boolean {
    this.writes.push(chunk);
    return !this.full;
  }
  drain(): void {
    this.full = false;
    this.emit("drain");
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("NdjsonWriter", () => {
  it("joins messages sent in one tick into one write of whole lines", async () => {
    const sink = new ControlledSink();
    const writer = new NdjsonWriter(sink);
    const sent = [writer.send({ n: 1 }), writer.send({ n: 2 }), writer.send([{ n: 3 }])];
    expect(sink.writes).toEqual([]);
    await Promise.all(sent);
    expect(sink.writes).toEqual(['{"n":1}\n{"n":2}\n[{"n":3}]\n']);
  });

  it("keeps wire order across ticks, one write per tick", async () => {
    const sink = new ControlledSink();
    const writer = new NdjsonWriter(sink);
    for (let n = 1; n <= 4; n++) writer.send({ n });
    await tick();
    writer.send({ n: 5 });
    writer.send({ n: 6 });
    await tick();
    expect(sink.writes).toHaveLength(2);
    expect(sink.writes.join("")).toBe([1, 2, 3, 4, 5, 6].map((n) => `{"n":${n}}\n`).join(""));
  });

  it("stops writing while the stream is full and resumes on drain; waiting sends resolve then", async () => {
    const sink = new ControlledSink();
    const writer = new NdjsonWriter(sink);
    sink.full = true;
    await writer.send({ n: 1 }); // accepted: the stream took it, it just said "full"
    await tick();
    expect(writer.isBlocked).toBe(true);

    let resolved = false;
    const waiting = writer.send({ n: 2 }).then(() => (resolved = true));
    writer.send({ n: 3 });
    await tick();
    expect(sink.writes).toEqual(['{"n":1}\n']); // nothing written while blocked
    expect(resolved).toBe(false);

    sink.drain();
    await waiting;
    expect(sink.writes).toEqual(['{"n":1}\n', '{"n":2}\n{"n":3}\n']);
    expect(writer.isBlocked).toBe(false);
  });

  it("sends share one resolved promise while not blocked (no promise per message)", () => {
    const writer = new NdjsonWriter(new ControlledSink());
    expect(writer.send({ a: 1 })).toBe(writer.send({ b: 2 }));
  });

  it("rejects a value JSON cannot carry at send(), without writing anything", async () => {
    const sink = new ControlledSink();
    const writer = new NdjsonWriter(sink);
    await expect(writer.send({ n: 1n })).rejects.toMatchObject({ code: "InvalidMessage", message: expect.stringContaining("BigInt") });
    await expect(writer.send(undefined)).rejects.toMatchObject({ code: "InvalidMessage" });
    await tick();
    expect(sink.writes).toEqual([]);
  });

  it("after fail(), waiting and new sends reject with the given error", async () => {
    const sink = new ControlledSink();
    const writer = new NdjsonWriter(sink);
    sink.full = true;
    await writer.send({ n: 1 });
    await tick();
    const waiting = writer.send({ n: 2 });
    const { AcpError } = await import("@acpkit/core");
    writer.fail(new AcpError("ConnectionClosed", "gone"));
    await expect(waiting).rejects.toMatchObject({ code: "ConnectionClosed" });
    await expect(writer.send({ n: 3 })).rejects.toMatchObject({ code: "ConnectionClosed" });
  });

  it("reports a backlog (and congestion) once the lines queued behind a blocked stream pass the high-water mark, and its end at a drain that leaves the stream writable", async () => {
    const sink = new ControlledSink();
    const changes: boolean[] = [];
    const backlog: boolean[] = [];
    const writer = new NdjsonWriter(sink, { highWater: 100, onChange: (congested) => changes.push(congested), onBacklog: (value) => backlog.push(value) });
    sink.full = true;
    void writer.send({ first: true });
    await tick(); // written, and the stream said it is full
    for (let n = 0; n < 5; n++) void writer.send({ pad: "x".repeat(10), n }); // 5 × 31 characters queued
    expect(changes).toEqual([true]);
    expect(backlog).toEqual([true]);
    void writer.send({ more: 1 });
    expect(changes).toEqual([true]); // told once
    sink.emit("drain"); // the stream stays full, so the drain's own write blocks again: still congested
    expect(sink.writes).toHaveLength(2);
    expect(changes).toEqual([true]);
    sink.drain(); // nothing queued was left to write: writable again
    expect(changes).toEqual([true, false]);
    expect(backlog).toEqual([true, false]);
  });

  // Before: only lines queued behind an already blocked stream counted, so answers to a burst of
  // requests read in one chunk were all encoded before the first write could find the stream full.
  it("reports congestion inside the send that passes the mark, before any write, and its end at a flush into a writable stream", async () => {
    const sink = new ControlledSink();
    const changes: boolean[] = [];
    const backlog: boolean[] = [];
    const writer = new NdjsonWriter(sink, { highWater: 100, onChange: (congested) => changes.push(congested), onBacklog: (value) => backlog.push(value) });
    void writer.send({ pad: "x".repeat(60) }); // 71 characters
    expect(changes).toEqual([]);
    void writer.send({ pad: "y".repeat(60) });
    expect(changes).toEqual([true]);
    expect(sink.writes).toEqual([]); // and no backlog: nothing waits behind a full stream
    await tick();
    expect(sink.writes).toHaveLength(1);
    expect(changes).toEqual([true, false]);
    // A flush that leaves the stream full keeps it congested until the drain.
    sink.full = true;
    void writer.send({ pad: "z".repeat(120) });
    await tick();
    expect(changes).toEqual([true, false, true]);
    sink.drain();
    expect(changes).toEqual([true, false, true, false]);
    expect(backlog).toEqual([]); // every line was written: nothing waited behind the full stream
  });

  // Before: one tick's lines were joined into one string, and past V8's longest string (about
  // 512 Mi characters: 34 answers of 16 Mi, e.g. terminal/output of a full terminal) join threw
  // "Invalid string length" in a microtask, which ended the process.
  it("writes one tick's lines in several writes when together they would be too long for one string", async () => {
    let written = 0;
    let writes = 0;
    let wholeLines = true;
    const sink = new Writable({
      decodeStrings: false,
      write(chunk: string, _encoding, callback) {
        writes++;
        written += chunk.length;
        if (!chunk.endsWith("\n")) wholeLines = false;
        callback();
      },
    });
    const writer = new NdjsonWriter(sink);
    const text = "x".repeat(16 * 1024 * 1024);
    const sent: Promise<void>[] = [];
    for (let i = 0; i < 34; i++) sent.push(writer.send({ i, text }));
    await Promise.all(sent);
    await tick();
    const line = JSON.stringify({ i: 10, text }).length + 1;
    expect(written).toBe(24 * line + 10 * (line - 1));
    expect(writes).toBeGreaterThan(1);
    expect(wholeLines).toBe(true);
    // ~5 s alone; 50 s were seen while CI ran every package's tests at once on two cores.
  }, 180_000);

  it("groups lines into writes of at most maxWriteChars, a longer line alone, in order, and keeps the rest for the drain when the stream fills", async () => {
    const sink = new ControlledSink();
    const writer = new NdjsonWriter(sink, undefined, 21); // three of these 7-character lines
    const lines = ["aaaa", "bbbb", "cccc", "d".repeat(30), "eeee", "ffff"];
    const sent = lines.map((line) => writer.send(line));
    await tick();
    expect(sink.writes).toEqual(['"aaaa"\n"bbbb"\n"cccc"\n', `"${"d".repeat(30)}"\n`, '"eeee"\n"ffff"\n']);
    await Promise.all(sent);
    // The first piece finds the stream full: the rest of the tick waits in the writer, not in the
    // stream, and goes out at the drain, ahead of what was sent meanwhile.
    sink.writes.length = 0;
    sink.full = true;
    const accepted = ["1111", "2222", "3333", "4444"].map((line) => writer.send(line));
    await tick();
    expect(sink.writes).toEqual(['"1111"\n"2222"\n"3333"\n']);
    expect(writer.isBlocked).toBe(true);
    const waiting = writer.send("5555");
    sink.drain();
    await Promise.all([...accepted, waiting]);
    expect(writer.isBlocked).toBe(false);
    expect(sink.writes).toEqual(['"1111"\n"2222"\n"3333"\n', '"4444"\n"5555"\n']);
  });

  // Those lines' sends resolved when they were sent, so a close must not drop them; lines sent
  // while the stream was full are rejected by the close instead, as before.
  it("on close while blocked, hands over the lines already accepted and rejects the ones sent while blocked", async () => {
    const sink = new ControlledSink();
    const writer = new NdjsonWriter(sink, undefined, 21);
    sink.full = true;
    const accepted = ["1111", "2222", "3333", "4444", "6666"].map((line) => writer.send(line));
    await tick();
    await Promise.all(accepted);
    expect(sink.writes).toEqual(['"1111"\n"2222"\n"3333"\n']);
    const late = writer.send("late").then(
      () => "sent",
      (error: Error) => error.message,
    );
    writer.flushNow();
    writer.fail(new AcpError("ConnectionClosed", "closed"));
    expect(sink.writes).toEqual(['"1111"\n"2222"\n"3333"\n', '"4444"\n"6666"\n']);
    expect(await late).toBe("closed");
  });
});
