import type { ByteStore } from './ports';

/** In-memory ByteStore for tests and for runs without persistence. */
export class MemoryByteStore implements ByteStore {
  readonly entries = new Map<string, Uint8Array>();
  async read(key: string): Promise<Uint8Array | undefined> {
    const bytes = this.entries.get(key);
    return bytes ? bytes.slice() : undefined;
  }
  async write(key: string, bytes: Uint8Array | readonly Uint8Array[]): Promise<void> {
    this.entries.set(key, bytes instanceof Uint8Array ? bytes.slice() : joined(bytes));
  }
  async rename(fromKey: string, toKey: string): Promise<void> {
    const bytes = this.entries.get(fromKey);
    if (!bytes) return;
    this.entries.set(toKey, bytes);
    this.entries.delete(fromKey);
  }
  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }
}

/** The parts as one plain array (not a Buffer, whose `slice` would share it with each reader). */
function joined(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
