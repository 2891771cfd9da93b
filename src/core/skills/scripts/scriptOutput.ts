/**
 * Collects a process stream up to a byte cap and counts the rest, so a script that prints
 * 100 MB costs 64 KB of memory and the model reads "N bytes cut" instead of the flood.
 */

export const DEFAULT_OUTPUT_CAP_BYTES = 64 * 1024;

export class CappedOutput {
  private readonly chunks: Uint8Array[] = [];
  private kept = 0;
  private cutBytes = 0;

  constructor(private readonly capBytes = DEFAULT_OUTPUT_CAP_BYTES) {}

  push(chunk: Uint8Array): void {
    const room = this.capBytes - this.kept;
    if (room <= 0) {
      this.cutBytes += chunk.byteLength;
      return;
    }
    const taken = chunk.byteLength <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(taken);
    this.kept += taken.byteLength;
    this.cutBytes += chunk.byteLength - taken.byteLength;
  }

  get cut(): number {
    return this.cutBytes;
  }

  /** The kept bytes as text (a multi-byte character split by the cap becomes U+FFFD), plus the cut note. */
  text(): string {
    const bytes = new Uint8Array(this.kept);
    let offset = 0;
    for (const chunk of this.chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    const text = new TextDecoder('utf-8').decode(bytes);
    return this.cutBytes > 0 ? `${text}\n[… ${this.cutBytes} bytes cut]` : text;
  }
}
