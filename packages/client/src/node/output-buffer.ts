// A terminal's output with a byte limit: keeps the newest bytes, dropping from the start at a
// character boundary so the kept text never begins with half a UTF-8 sequence.
//
// Why it may hold up to twice the limit: cutting means encoding the whole text once (to find the
// byte boundary), so cutting on every chunk past the limit cost O(limit) per chunk; a command that
// floods its output (`yes`) with a 16 MiB limit then kept the client's event loop busy with
// re-encoding. Cutting back to the limit only once the text reaches twice the limit costs O(1)
// per byte over time, and a read cuts first, so what is read is never more than the limit.

export class OutputBuffer {
  private text = "";
  private bytes = 0;
  private cut = false;

  constructor(private readonly limit: number) {}

  /** The newest output, at most `limit` bytes of UTF-8, starting on a whole character. */
  get output(): string {
    if (this.bytes > this.limit) this.trim();
    return this.text;
  }

  /** Whether output was dropped from the start to stay within the limit. */
  get truncated(): boolean {
    return this.cut || this.bytes > this.limit;
  }

  append(chunk: string): void {
    if (chunk.length === 0) return;
    this.text += chunk;
    this.bytes += Buffer.byteLength(chunk, "utf8");
    if (this.bytes > 2 * this.limit) this.trim();
  }

  private trim(): void {
    const encoded = Buffer.from(this.text, "utf8");
    let start = encoded.length - this.limit;
    // Skip UTF-8 continuation bytes (10xxxxxx): the kept part starts on a whole character.
    while (start < encoded.length && (encoded[start]! & 0xc0) === 0x80) start++;
    this.text = encoded.subarray(start).toString("utf8");
    this.bytes = encoded.length - start;
    this.cut = true;
  }
}
