/**
 * The bundled word-vector file: a small header, the vocabulary (analysed terms, one a line,
 * sorted by corpus frequency), one float32 weight per word (its inverse document frequency in
 * the training corpus: rare words say more about a text), one float32 scale per word and one
 * int8 vector per word (value × scale = component). Vectors are unit length before
 * quantisation, so int8 loses little.
 *
 *   "TSWV" | u32 version | u32 dims | u32 words | u32 vocabulary bytes | vocabulary (UTF-8)
 *   | zero padding to 4 | f32 weight × words | f32 scale × words | i8 × words × dims  (little-endian)
 */

const MAGIC = 0x56575354; // "TSWV" read as a little-endian u32
const VERSION = 1;
const HEADER_BYTES = 20;

export interface WordVectors {
  dims: number;
  /** Analysed terms, index = row. */
  words: readonly string[];
  weights: Float32Array;
  scales: Float32Array;
  /** words × dims, row-major. */
  values: Int8Array;
}

export class WordVectorsFormatError extends Error {}

/** Float vectors (rows × dims) → file bytes; each row is normalised, then quantised. */
export function encodeWordVectors(input: { dims: number; words: readonly string[]; weights: Float32Array; vectors: Float32Array }): Uint8Array {
  const { dims, words, weights, vectors } = input;
  if (weights.length !== words.length) throw new WordVectorsFormatError(`expected ${words.length} weights, got ${weights.length}`);
  if (vectors.length !== words.length * dims) throw new WordVectorsFormatError(`expected ${words.length * dims} values, got ${vectors.length}`);
  if (words.some((w) => w.length === 0 || w.includes('\n'))) throw new WordVectorsFormatError('a word is empty or holds a line break');
  const vocabulary = new TextEncoder().encode(words.join('\n'));
  const weightsAt = HEADER_BYTES + vocabulary.length + ((4 - (vocabulary.length % 4)) % 4);
  const scalesAt = weightsAt + 4 * words.length;
  const valuesAt = scalesAt + 4 * words.length;
  const bytes = new Uint8Array(valuesAt + words.length * dims);
  const view = new DataView(bytes.buffer);
  [MAGIC, VERSION, dims, words.length, vocabulary.length].forEach((v, i) => view.setUint32(4 * i, v, true));
  bytes.set(vocabulary, HEADER_BYTES);
  for (let w = 0; w < words.length; w++) {
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += vectors[w * dims + d] ** 2;
    norm = Math.sqrt(norm) || 1;
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(vectors[w * dims + d] / norm));
    const scale = max / 127 || 1;
    view.setFloat32(weightsAt + 4 * w, weights[w], true);
    view.setFloat32(scalesAt + 4 * w, scale, true);
    for (let d = 0; d < dims; d++) view.setInt8(valuesAt + w * dims + d, Math.round(vectors[w * dims + d] / norm / scale));
  }
  return bytes;
}

/** File bytes → vectors; a truncated, foreign or inconsistent file is a WordVectorsFormatError. */
export function decodeWordVectors(bytes: Uint8Array): WordVectors {
  if (bytes.length < HEADER_BYTES) throw new WordVectorsFormatError(`word-vector file too short (${bytes.length} bytes)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [magic, version, dims, count, vocabularyBytes] = [0, 1, 2, 3, 4].map((i) => view.getUint32(4 * i, true));
  if (magic !== MAGIC) throw new WordVectorsFormatError('not a word-vector file');
  if (version !== VERSION) throw new WordVectorsFormatError(`word-vector file version ${version} (expected ${VERSION})`);
  if (dims === 0 || dims > 4096) throw new WordVectorsFormatError(`implausible dimension ${dims}`);
  const weightsAt = HEADER_BYTES + vocabularyBytes + ((4 - (vocabularyBytes % 4)) % 4);
  const scalesAt = weightsAt + 4 * count;
  const valuesAt = scalesAt + 4 * count;
  if (valuesAt + count * dims !== bytes.length)
    throw new WordVectorsFormatError(`word-vector file is ${bytes.length} bytes; its header says ${valuesAt + count * dims}`);
  const words = count === 0 ? [] : new TextDecoder().decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + vocabularyBytes)).split('\n');
  if (words.length !== count) throw new WordVectorsFormatError(`word-vector file lists ${words.length} words; its header says ${count}`);
  const weights = new Float32Array(count);
  const scales = new Float32Array(count);
  for (let w = 0; w < count; w++) {
    weights[w] = view.getFloat32(weightsAt + 4 * w, true);
    scales[w] = view.getFloat32(scalesAt + 4 * w, true);
  }
  const values = new Int8Array(bytes.buffer, bytes.byteOffset + valuesAt, count * dims);
  return { dims, words, weights, scales, values };
}
