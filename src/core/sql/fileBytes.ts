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

/**
 * A fresh database's first bytes (`seed`: an empty database) in a buffer of `room` bytes, handed
 * over so that sql.js's file system keeps the whole buffer as the file's storage. It grows a file
 * by a copy into a new array an eighth larger each time (past 1 MB): a cold load that writes
 * 30 MB made 29 such copies — 270 MB of arrays allocated, zeroed and copied, ≈ 0.2 s of CPU —
 * and each left the last one as garbage. With room reserved nothing is copied until the file
 * outgrows it. Pages of the room not written yet take no memory (the buffer is zeroed lazily by
 * the system), though Node counts the whole buffer as external memory.
 */
export function seededWithRoom(seed: Uint8Array, room: number): Uint8Array {
  const buffer = new ArrayBuffer(Math.max(room, seed.byteLength));
  new Uint8Array(buffer).set(seed);
  return new RoomyBytes(buffer, seed.byteLength);
}

class RoomyBytes extends Uint8Array {
  constructor(buffer: ArrayBuffer, length: number) {
    super(buffer, 0, length);
  }

  override slice(start?: number, end?: number): Uint8Array<ArrayBuffer> {
    // The whole buffer, the file's bytes first: the file system keeps it and writes past them without growing.
    return start === 0 && end === this.length ? new Uint8Array(this.buffer as ArrayBuffer) : super.slice(start, end);
  }
}
