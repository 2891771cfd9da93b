/**
 * The bytes sql.js keeps as a database's file.
 *
 * sql.js opens a database from bytes by writing them into its in-memory file system, which keeps
 * `bytes.slice(0, length)` — a copy — as the file, and SQLite then reads and writes its pages
 * there. Opening a stored database therefore held two copies of the file (the bytes read from
 * disk, garbage once opened, and the file system's), 30 MB each for 10,000 skills; a large
 * short-lived buffer that V8 frees on a background thread after a collection, so a process's
 * memory "after a GC" held it or not from run to run.
 *
 * Bytes handed over answer that whole-range `slice` with a view of themselves: the file system
 * keeps them as the file, and nothing is copied. A build of sql.js that copies some other way
 * still copies (correct, only larger). The caller must not use the bytes afterwards: SQLite
 * writes into them.
 */
class HandedOverBytes extends Uint8Array {
  override slice(start?: number, end?: number): Uint8Array<ArrayBuffer> {
    // A plain view of the same memory: what the file system makes of it (a view per page read) stays a plain Uint8Array.
    return start === 0 && end === this.length ? new Uint8Array(this.buffer, this.byteOffset, this.length) : super.slice(start, end);
  }
}

/** `bytes` to open a database on, kept by sql.js as the file itself (see above): do not use them afterwards. */
export function handOver(bytes: Uint8Array): Uint8Array {
  const buffer = bytes.buffer;
  // Shared memory is never handed over (sql.js copies it, as before).
  if (!(buffer instanceof ArrayBuffer)) return bytes;
  return new HandedOverBytes(buffer, bytes.byteOffset, bytes.byteLength);
}
