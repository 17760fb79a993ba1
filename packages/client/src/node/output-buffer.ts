// A terminal's output with a byte limit: keeps the newest bytes, dropping from the start at a
// character boundary so the kept text never begins with half a UTF-8 sequence.

export class OutputBuffer {
  private text = "";
  private bytes = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  get output(): string {
    return this.text;
  }

  append(chunk: string): void {
    if (chunk.length === 0) return;
    this.text += chunk;
    this.bytes += Buffer.byteLength(chunk, "utf8");
    if (this.bytes > this.limit) this.trim();
  }

  private trim(): void {
    const encoded = Buffer.from(this.text, "utf8");
    let start = encoded.length - this.limit;
    // Skip UTF-8 continuation bytes (10xxxxxx): the kept part starts on a whole character.
    while (start < encoded.length && (encoded[start]! & 0xc0) === 0x80) start++;
    this.text = encoded.subarray(start).toString("utf8");
    this.bytes = encoded.length - start;
    this.truncated = true;
  }
}
