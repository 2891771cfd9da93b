import { redact } from '../../privacy/redaction';

/**
 * Collects a process stream up to a byte cap and counts the rest, so a script that prints
 * 100 MB costs 64 KB of memory and the model reads "N bytes cut" instead of the flood.
 *
 * The text is redacted before it is cut: a secret straddling the cap would otherwise lose the
 * part that makes it recognisable and show the rest. So a little more than the cap is kept, the
 * kept text is redacted whole, and only then is it cut to the cap. When more was printed than
 * was kept, the kept text ends at a line end (or another character no secret contains) so the
 * secret the last kept byte belongs to is not split either.
 */

export const DEFAULT_OUTPUT_CAP_BYTES = 64 * 1024;

/** Kept past the cap: longer than any secret format redaction recognises on one line. */
const EDGE_BYTES = 4096;

/** Characters that end a secret: quotes, brackets, separators and whitespace. */
const SECRET_ENDS = new Set([0x0a, 0x0d, 0x20, 0x09, 0x22, 0x27, 0x60, 0x2c, 0x3b, 0x3c, 0x3e, 0x28, 0x29, 0x5b, 0x5d, 0x7b, 0x7d, 0x7c]);

export class CappedOutput {
  private readonly chunks: Uint8Array[] = [];
  private kept = 0;
  private received = 0;
  private rendered: { received: number; text: string; cut: number } | undefined;

  constructor(private readonly capBytes = DEFAULT_OUTPUT_CAP_BYTES) {}

  push(chunk: Uint8Array): void {
    this.received += chunk.byteLength;
    const room = this.capBytes + EDGE_BYTES - this.kept;
    if (room <= 0) return;
    const taken = chunk.byteLength <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(taken);
    this.kept += taken.byteLength;
  }

  /** Bytes of output the text does not show. */
  get cut(): number {
    return this.render().cut;
  }

  /** The redacted output within the cap (a multi-byte character split by the cap becomes U+FFFD), plus the cut note. */
  text(): string {
    const { text, cut } = this.render();
    return cut > 0 ? `${text}\n[… ${cut} bytes cut]` : text;
  }

  private render(): { text: string; cut: number } {
    if (this.rendered?.received === this.received) return this.rendered;
    const bytes = new Uint8Array(this.kept);
    let offset = 0;
    for (const chunk of this.chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    const end = this.received > this.kept ? safeEnd(bytes, this.capBytes) : this.kept;
    const redacted = new TextEncoder().encode(redact(new TextDecoder('utf-8').decode(bytes.subarray(0, end))));
    const shown = Math.min(redacted.byteLength, this.capBytes);
    const text = new TextDecoder('utf-8').decode(redacted.subarray(0, shown));
    this.rendered = { received: this.received, text, cut: this.received - end + (redacted.byteLength - shown) };
    return this.rendered;
  }
}

/** Where the kept bytes may end: after the last line end past the cap, else the last character that ends a secret, else all of them. */
function safeEnd(bytes: Uint8Array, cap: number): number {
  const newline = bytes.lastIndexOf(0x0a);
  if (newline >= cap) return newline;
  for (let i = bytes.length - 1; i >= cap; i--) if (SECRET_ENDS.has(bytes[i]!)) return i;
  return bytes.length;
}
