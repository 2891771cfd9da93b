// @ts-check
// Lists the entries of a zip file (a VSIX) from its central directory, so the packaging check
// needs no unzip binary and no extra dependency; `readZipEntry` inflates one entry (stored or
// deflated, the two methods vsce writes).
import { inflateRawSync } from 'node:zlib';

/** @param {Buffer} buffer */
export function readZipEntries(buffer) {
  const EOCD = 0x06054b50;
  const CENTRAL = 0x02014b50;
  let eocd = -1;
  for (let i = buffer.length - 22; i >= Math.max(0, buffer.length - 22 - 0xffff); i--) {
    if (buffer.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file (no end-of-central-directory record)');
  const count = buffer.readUInt16LE(eocd + 10);
  let offset = buffer.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buffer.readUInt32LE(offset) !== CENTRAL) throw new Error(`corrupt zip central directory at entry ${n}`);
    const compressedSize = buffer.readUInt32LE(offset + 20);
    const size = buffer.readUInt32LE(offset + 24);
    const nameLength = buffer.readUInt16LE(offset + 28);
    const extraLength = buffer.readUInt16LE(offset + 30);
    const commentLength = buffer.readUInt16LE(offset + 32);
    const localHeader = buffer.readUInt32LE(offset + 42);
    const method = buffer.readUInt16LE(offset + 10);
    const name = buffer.toString('utf8', offset + 46, offset + 46 + nameLength);
    entries.push({ name, size, compressedSize, method, localHeader });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The bytes of one entry, or undefined when the zip has no entry of that name.
 * @param {Buffer} buffer
 * @param {string} name
 */
export function readZipEntry(buffer, name) {
  const entry = readZipEntries(buffer).find((e) => e.name === name);
  if (!entry) return undefined;
  const at = entry.localHeader;
  if (buffer.readUInt32LE(at) !== 0x04034b50) throw new Error(`corrupt local header of ${name}`);
  const start = at + 30 + buffer.readUInt16LE(at + 26) + buffer.readUInt16LE(at + 28);
  const data = buffer.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return Buffer.from(data);
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`${name}: unsupported compression method ${entry.method}`);
}
