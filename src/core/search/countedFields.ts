/**
 * How `FieldStats` (bm25f.ts) packs one document, and the counted form a store that keeps its
 * terms counted (the skill store's term blobs) hands it, so that a document is packed without
 * expanding term lists or looking a term up by name.
 *
 * Packed layout: the field lengths (occurrences per field), then per distinct term, by ascending
 * term id, the id and the per-field counts, two 16-bit counts per word (`packedStride` words).
 */

/**
 * A document's analysed terms counted per field. Field f's run is `ids`/`counts` from
 * `fieldEnds[f − 1]` (0 for the first field) up to `fieldEnds[f]`; within a run ids should
 * ascend (a run that does not is sorted, and a repeated id's counts are added, when packed).
 */
export interface CountedFields {
  ids: Uint32Array;
  counts: Uint32Array;
  fieldEnds: Uint32Array;
}

/** Per-field frequencies are 16-bit; more occurrences of one term in one field count as 65,535. */
export const MAX_FREQUENCY = 0xffff;

/** Words per term entry of a packed document with that many fields. */
export function packedStride(fields: number): number {
  return 1 + Math.ceil(fields / 2);
}

/** A packed document from its distinct (term id × fields + field) codes, ascending, their counts and the field lengths. */
export function packCodes(codes: Uint32Array, counts: Uint32Array, lengths: ArrayLike<number>, n: number): Uint32Array {
  const stride = packedStride(n);
  let distinct = 0;
  let previousId = -1;
  for (let i = 0; i < codes.length; i++) {
    const id = Math.floor((codes[i] as number) / n);
    if (id !== previousId) distinct++;
    previousId = id;
  }
  const packed = new Uint32Array(n + distinct * stride);
  for (let f = 0; f < n; f++) packed[f] = lengths[f] as number;
  let at = n - stride;
  previousId = -1;
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] as number;
    const id = Math.floor(code / n);
    const f = code - id * n;
    if (id !== previousId) {
      at += stride;
      packed[at] = id;
      previousId = id;
    }
    packed[at + 1 + (f >> 1)] |= store(f, counts[i] as number);
  }
  return packed;
}

/** Scratch for `packCounted` (a document's largest possible packed form), reused: it runs once per stored document on every start. */
let scratch = new Uint32Array(4096);
/** Scratch for `packCounted`'s other fields' entries and the field lengths, reused the same way. */
let restScratch = new Float64Array(1024);
let lengthScratch = new Float64Array(8);

/**
 * A packed document from counted fields (`fieldEnds.length` fields): the longest field's run
 * (a skill's body) is merged by term id with the other fields' entries, sorted natively (few:
 * names, descriptions, tags) — no per-term allocation, no comparison callback. A view of scratch
 * memory, as `packMerged`'s.
 */
export function packCounted(counted: CountedFields): Uint32Array {
  const { ids, counts, fieldEnds } = normalised(counted);
  const n = fieldEnds.length;
  let longest = 0;
  let longestSize = -1;
  for (let f = 0; f < n; f++) {
    const size = (fieldEnds[f] as number) - (f === 0 ? 0 : (fieldEnds[f - 1] as number));
    if (size > longestSize) {
      longest = f;
      longestSize = size;
    }
  }
  // The other fields' entries as (term id × fields + field) × 2^16 + capped count: ascending by term id once sorted.
  const restSize = ids.length - Math.max(longestSize, 0);
  if (restScratch.length < restSize) restScratch = new Float64Array(restSize * 2);
  const rest = restScratch.subarray(0, restSize);
  if (lengthScratch.length < n) lengthScratch = new Float64Array(n);
  const lengths = lengthScratch;
  lengths.fill(0, 0, n);
  let r = 0;
  let at = 0;
  for (let f = 0; f < n; f++) {
    for (const end = fieldEnds[f] as number; at < end; at++) {
      const count = counts[at] as number;
      lengths[f] += count;
      if (f !== longest) rest[r++] = ((ids[at] as number) * n + f) * 0x10000 + Math.min(count, MAX_FREQUENCY);
    }
  }
  rest.sort();
  return packMerged(ids, counts, longest === 0 ? 0 : (fieldEnds[longest - 1] as number), fieldEnds[longest] as number, longest, rest, r, lengths, n);
}

/**
 * A document as `packMerged` takes it, from the start of `ids`: one field's run (`ids`/`counts`
 * up to `end`, ids strictly ascending) and the other fields' first `r` entries in `rest` —
 * (term id × fields + field) × 2^16 + capped count, ascending — with every field's length.
 */
export interface MergedDocument {
  ids: ArrayLike<number>;
  counts: ArrayLike<number>;
  end: number;
  field: number;
  rest: ArrayLike<number>;
  r: number;
  lengths: ArrayLike<number>;
}

/**
 * A packed document from one field's entries (`ids`/`counts` from `start` to `end`, ids strictly
 * ascending) merged with the other fields' first `r` entries in `rest` — (term id × n + field) ×
 * 2^16 + capped count, ascending, no (term, field) twice — given every field's length (occurrences).
 * The document is a view of a scratch array that the next call overwrites (the statistics copy
 * it into their own array at once): a store's open packs every stored document this way, and a
 * copy each was 9,000 short-lived buffers (23 MB at 10,000 real skills) that the allocator kept
 * resident after they were freed.
 */
export function packMerged(
  ids: ArrayLike<number>,
  counts: ArrayLike<number>,
  start: number,
  end: number,
  field: number,
  rest: ArrayLike<number>,
  r: number,
  lengths: ArrayLike<number>,
  n: number,
): Uint32Array {
  const stride = packedStride(n);
  const bound = n + (end - start + r) * stride;
  if (scratch.length < bound) scratch = new Uint32Array(bound * 2);
  const out = scratch;
  for (let f = 0; f < n; f++) out[f] = lengths[f] as number;
  let i = start;
  const fieldWord = 1 + (field >> 1);
  let j = 0;
  // The next of the other fields' entries: its code and term id (Infinity when none is left).
  let restCode = r > 0 ? Math.floor((rest[0] as number) / 0x10000) : 0;
  let restId = r > 0 ? Math.floor(restCode / n) : Infinity;
  let p = n - stride;
  let previousId = -1;
  while (i < end || j < r) {
    let id: number;
    let word: number;
    let value: number;
    if (i < end && (ids[i] as number) <= restId) {
      id = ids[i] as number;
      word = fieldWord;
      value = store(field, counts[i++] as number);
    } else {
      id = restId;
      const f = restCode - restId * n;
      word = 1 + (f >> 1);
      value = store(f, (rest[j++] as number) - restCode * 0x10000);
      restCode = j < r ? Math.floor((rest[j] as number) / 0x10000) : 0;
      restId = j < r ? Math.floor(restCode / n) : Infinity;
    }
    if (id !== previousId) {
      p += stride;
      out[p] = id;
      for (let w = 1; w < stride; w++) out[p + w] = 0;
      previousId = id;
    }
    out[p + word] |= value;
  }
  return out.subarray(0, p + stride);
}

/** A count in its half of the field pair's word. */
function store(f: number, count: number): number {
  const capped = Math.min(count, MAX_FREQUENCY);
  return f & 1 ? capped << 16 : capped;
}

/** The same fields with every run strictly ascending (a run out of order is sorted, repeated ids merged); the input itself when already so. */
function normalised(counted: CountedFields): CountedFields {
  const { ids, counts, fieldEnds } = counted;
  let start = 0;
  let ordered = true;
  for (let f = 0; f < fieldEnds.length && ordered; f++) {
    const end = fieldEnds[f] as number;
    for (let i = start + 1; i < end; i++) {
      if ((ids[i] as number) <= (ids[i - 1] as number)) {
        ordered = false;
        break;
      }
    }
    start = end;
  }
  if (ordered) return counted;
  const outIds: number[] = [];
  const outCounts: number[] = [];
  const outEnds = new Uint32Array(fieldEnds.length);
  start = 0;
  for (let f = 0; f < fieldEnds.length; f++) {
    const end = fieldEnds[f] as number;
    const run = new Map<number, number>();
    for (let i = start; i < end; i++) run.set(ids[i] as number, (run.get(ids[i] as number) ?? 0) + (counts[i] as number));
    for (const id of [...run.keys()].sort((a, b) => a - b)) {
      outIds.push(id);
      outCounts.push(run.get(id) as number);
    }
    outEnds[f] = outIds.length;
    start = end;
  }
  return { ids: Uint32Array.from(outIds), counts: Uint32Array.from(outCounts), fieldEnds: outEnds };
}
