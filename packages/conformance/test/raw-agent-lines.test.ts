// The checker's line framing (agent/raw-connection.ts), fed bytes directly: no process and no timing,
// so what the e2e checks can reach only when a loaded machine reads fast enough is shown here
// every time. A line over 64 MiB is given up at the limit and skipped to its newline; bytes left
// after the last newline when the output ends are a finding only when the agent ended it.
import { describe, expect, it } from "vitest";
import { MAX_LINE_BYTES, RawConnection } from "../src/agent/raw-connection.js";

/** A connection whose bytes come from the test. */
class FedConnection extends RawConnection {
  readonly kind = "process";
  readonly spawnError = Promise.resolve(undefined);
  protected writeRaw(): void {}
  async closeStdin(): Promise<undefined> {
    return undefined;
  }
  async kill(): Promise<void> {
    this.killRequested = true;
    this.end();
  }
  feed(bytes: string | Buffer): void {
    this.onData(typeof bytes === "string" ? Buffer.from(bytes) : bytes);
  }
  end(): void {
    this.onOutputEnd();
  }
}

const message = (id: number) => `{"jsonrpc":"2.0","id":${id},"result":{}}`;

describe("the checker's line framing", () => {
  it("joins a line that came in pieces once, at its newline", () => {
    const connection = new FedConnection();
    const line = message(1);
    for (const piece of [line.slice(0, 5), line.slice(5, 20), `${line.slice(20)}\n${message(2)}\n`]) connection.feed(piece);
    expect(connection.lines.map((l) => l.value)).toEqual([JSON.parse(message(1)), JSON.parse(message(2))]);
    connection.end();
    expect(connection.unterminatedTail).toBeUndefined();
  });

  it("gives a line up at 64 MiB without holding it, skips it to its newline and reads on", () => {
    const connection = new FedConnection();
    const MiB = Buffer.alloc(1 << 20, "x");
    let fed = 0;
    while (fed <= MAX_LINE_BYTES) {
      connection.feed(MiB);
      fed += MiB.length;
    }
    expect(connection.oversizedLine).toEqual({ bytesSeen: MAX_LINE_BYTES + MiB.length });
    // More of the same line, then its end and a message: only the message is a line.
    connection.feed(MiB);
    connection.feed(`xxx\n${message(3)}\n`);
    expect(connection.lines.map((l) => l.text)).toEqual([message(3)]);
    expect(connection.transcript.filter((t) => t.startsWith(`← [a line of more than ${MAX_LINE_BYTES} bytes`))).toHaveLength(1);
  });

  it("does not report a given-up line a second time when the output ends inside it", () => {
    const connection = new FedConnection();
    const MiB = Buffer.alloc(1 << 20, "x");
    for (let fed = 0; fed <= MAX_LINE_BYTES + MiB.length; fed += MiB.length) connection.feed(MiB);
    expect(connection.oversizedLine).toBeDefined();
    connection.end();
    expect(connection.unterminatedTail).toBeUndefined();
  });

  it("counts what is left after the last newline when the agent ends its output", () => {
    const connection = new FedConnection();
    connection.feed(`${message(4)}\n{"jsonrpc":"2.0","method":"session/up`);
    connection.feed("date");
    connection.end();
    expect(connection.lines.map((l) => l.text)).toEqual([message(4)]);
    expect(connection.unterminatedTail).toEqual({ bytes: 41, start: '{"jsonrpc":"2.0","method":"session/update' });
    expect(connection.transcript.at(-1)).toBe("← [41 bytes after the last newline when the output ended]");
  });

  it("gives a long tail's size and its first 200 bytes, however it came", () => {
    const connection = new FedConnection();
    for (let i = 0; i < 50; i++) connection.feed(`${String(i).padStart(2, "0")}-`); // 150 bytes in 3-byte pieces
    connection.feed(Buffer.alloc(3 << 20, "y"));
    connection.end();
    const expectedStart = Array.from({ length: 50 }, (_, i) => `${String(i).padStart(2, "0")}-`).join("") + "y".repeat(50);
    expect(connection.unterminatedTail).toEqual({ bytes: 150 + (3 << 20), start: expectedStart });
  });

  it("keeps an empty line as a line that is not JSON (a transport would skip it; a judge sees it), and a CRLF line without its \\r", () => {
    const connection = new FedConnection();
    connection.feed(`${message(6)}\r\n\n${message(7)}\n`);
    expect(connection.lines.map((l) => [l.text, l.value === undefined, l.seq])).toEqual([
      [message(6), false, 0],
      ["", true, 1],
      [message(7), false, 2],
    ]);
  });

  it("flags bytes that are not UTF-8 and still records their line with U+FFFD", () => {
    const connection = new FedConnection();
    connection.feed(`${message(8)}\n`);
    expect(connection.invalidUtf8).toBe(false);
    connection.feed(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","method":"_x","params":{"t":"'), Buffer.from([0xc3]), Buffer.from('"}}\n')]));
    expect(connection.invalidUtf8).toBe(true);
    expect(connection.lines.at(-1)?.value).toEqual({ jsonrpc: "2.0", method: "_x", params: { t: "\uFFFD" } });
  });

  it("holds nothing against the agent when the checker's own kill ended the output mid-line", async () => {
    const connection = new FedConnection();
    connection.feed(`${message(5)}\n{"jsonrpc":"2.0","me`);
    await connection.kill();
    expect(connection.unterminatedTail).toBeUndefined();
    expect(connection.lines).toHaveLength(1);
  });
});
