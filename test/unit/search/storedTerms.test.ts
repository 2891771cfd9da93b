import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { FieldStats } from '../../../src/core/search/bm25f';
import { packCounted } from '../../../src/core/search/countedFields';
import { TermVocabulary, decodeCounted, encodeCounted, countIds } from '../../../src/core/search/termStore';

/**
 * A store's open decodes each stored term blob straight into the packed document the search
 * statistics keep (`TermVocabulary.packStored`). It must give exactly what decoding, relabelling
 * and packing one step after another gives (`packCounted(relabel(decodeCounted(…)))`, the path it
 * replaced), whatever the blob holds and whatever the search dictionary already holds (on open it
 * is empty; a rollback's reload fills it again in another order), and fail the same way on a
 * damaged blob — the check on open relies on that to rebuild a damaged store.
 */

const FIELDS = ['name', 'title', 'trigger', 'description', 'tags', 'content'] as const;
const WORDS = ['git', 'commit', 'issue', 'review', 'test', 'api', 'deploy', 'token', 'user', 'find', 'pdf', 'lint', 'docker', 'sql', 'chart'];

const word = fc.constantFrom(...WORDS);
/** One document's term occurrences per field (repeats allowed: counts above 1). */
const doc = fc.tuple(...FIELDS.map(() => fc.array(word, { maxLength: 12 })));

/** A vocabulary loaded from stored rows, and blobs written with another instance that made those rows. */
function stored(docs: ReadonlyArray<readonly string[][]>): { rows: Array<[number, string]>; blobs: Uint8Array[] } {
  const writer = new TermVocabulary();
  const blobs = docs.map((fields) => encodeCounted(countIds(fields.map((terms) => Uint32Array.from(terms, (t) => writer.idOf(t))))));
  return { rows: writer.takePending(), blobs };
}

/** Both paths over the same rows and blobs, each with its own search dictionary seeded with `seeded` (in that order). */
function bothWays(rows: Array<[number, string]>, blobs: readonly Uint8Array[], seeded: readonly string[]) {
  const run = (pack: (vocabulary: TermVocabulary, blob: Uint8Array, intern: (t: string) => number) => Uint32Array) => {
    const vocabulary = new TermVocabulary();
    vocabulary.load(rows);
    const stats = new FieldStats<(typeof FIELDS)[number], number>(FIELDS);
    for (const term of seeded) stats.internTerm(term);
    const intern = (t: string) => stats.internTerm(t);
    return blobs.map((blob) => {
      try {
        return Array.from(pack(vocabulary, blob, intern));
      } catch (error) {
        return `throws: ${(error as Error).message}`;
      }
    });
  };
  return {
    oneStep: run((vocabulary, blob, intern) => vocabulary.packStored(blob, FIELDS.length, intern)),
    stepByStep: run((vocabulary, blob, intern) => packCounted(vocabulary.relabel(decodeCounted(blob, vocabulary, FIELDS.length), intern))),
  };
}

describe('stored term blobs packed in one pass (TermVocabulary.packStored)', () => {
  it('give the packed document of decoding, relabelling and packing, into an empty or an already filled dictionary', () => {
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 12 }), fc.array(word, { maxLength: 10 }), (docs, seeded) => {
        const { rows, blobs } = stored(docs);
        const { oneStep, stepByStep } = bothWays(rows, blobs, seeded);
        assert.deepEqual(oneStep, stepByStep);
        for (const packed of oneStep) assert.equal(typeof packed, 'object');
      }),
      { numRuns: 400 },
    );
  });

  it('fail as the step-by-step path does on a damaged blob (a byte changed, cut or added), and agree when it still decodes', () => {
    fc.assert(
      fc.property(
        fc.array(doc, { minLength: 1, maxLength: 4 }),
        fc.array(fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }), kind: fc.constantFrom('set', 'cut', 'add') }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.array(word, { maxLength: 5 }),
        (docs, damage, seeded) => {
          const { rows, blobs } = stored(docs);
          const damaged = blobs.map((blob) => {
            let bytes = Array.from(blob);
            for (const { at, byte, kind } of damage) {
              const i = bytes.length === 0 ? 0 : at % bytes.length;
              if (kind === 'set' && bytes.length > 0) bytes[i] = byte;
              else if (kind === 'cut') bytes = bytes.slice(0, i);
              else bytes.splice(i, 0, byte);
            }
            return Uint8Array.from(bytes);
          });
          const { oneStep, stepByStep } = bothWays(rows, damaged, seeded);
          assert.deepEqual(oneStep, stepByStep);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('refuses a term id the vocabulary does not hold, and a count of zero', () => {
    const { rows } = stored([[['git'], [], [], [], [], []]]);
    const vocabulary = new TermVocabulary();
    vocabulary.load(rows);
    const stats = new FieldStats(FIELDS);
    const intern = (t: string) => stats.internTerm(t);
    // Six fields: one pair (id 5, count 1) in the name, then five empty fields.
    assert.throws(() => vocabulary.packStored(Uint8Array.of(1, 5, 1, 0, 0, 0, 0, 0), FIELDS.length, intern), /unknown term id 5/);
    assert.throws(() => vocabulary.packStored(Uint8Array.of(1, 0, 0, 0, 0, 0, 0, 0), FIELDS.length, intern), /unknown term id 0/);
    assert.deepEqual(Array.from(vocabulary.packStored(Uint8Array.of(1, 0, 2, 0, 0, 0, 0, 0), FIELDS.length, intern)), [2, 0, 0, 0, 0, 0, 0, 2, 0, 0]);
    // An id repeated in a field (a delta of 0; no writer makes one) counts once with both counts, in a short field and in the last.
    assert.deepEqual(Array.from(vocabulary.packStored(Uint8Array.of(2, 0, 1, 0, 3, 0, 0, 0, 0, 0), FIELDS.length, intern)), [4, 0, 0, 0, 0, 0, 0, 4, 0, 0]);
    assert.deepEqual(Array.from(vocabulary.packStored(Uint8Array.of(0, 0, 0, 0, 0, 2, 0, 1, 0, 3), FIELDS.length, intern)), [
      0,
      0,
      0,
      0,
      0,
      4,
      0,
      0,
      0,
      4 << 16,
    ]);
  });
});

describe('stored term blobs written straight into the statistics (TermVocabulary.storeInto, PackedDocuments.setMerged)', () => {
  type Stats = FieldStats<(typeof FIELDS)[number], number>;
  /** What a document is in the statistics: its words (from its size word), whatever its offset. */
  function state(stats: Stats, keys: readonly number[]) {
    const inside = stats as unknown as { words: Uint32Array; docs: Map<number, number>; docFreq: Int32Array; totalLength: Float64Array };
    return {
      docs: keys.map((key) => {
        const o = inside.docs.get(key);
        return o === undefined ? undefined : Array.from(inside.words.subarray(o, o + (inside.words[o] as number)));
      }),
      docFreq: Array.from(inside.docFreq),
      totalLength: Array.from(inside.totalLength),
      size: stats.size,
    };
  }

  /** Per field, distinct words with a count each: counts past 63 (two words), past 65,535 (capped) and terms in several fields. */
  const countedDoc = fc.tuple(
    ...FIELDS.map(() =>
      fc.uniqueArray(fc.tuple(word, fc.oneof(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 70_000 }))), {
        selector: ([w]) => w,
        maxLength: 8,
      }),
    ),
  );

  it('give the statistics packStored then setPacked give, added or replacing, into an empty or an already filled dictionary', () => {
    fc.assert(
      fc.property(
        fc.array(countedDoc, { minLength: 1, maxLength: 10 }),
        fc.array(word, { maxLength: 10 }),
        fc.array(fc.nat({ max: 4 }), { minLength: 1, maxLength: 10 }),
        (docs, seeded, keyOf) => {
          const writer = new TermVocabulary();
          const blobs = docs.map((fields) => {
            const ids: number[] = [];
            const counts: number[] = [];
            const fieldEnds: number[] = [];
            for (const pairs of fields) {
              for (const [id, count] of pairs.map(([w, c]) => [writer.idOf(w), c] as const).sort((a, b) => a[0] - b[0])) {
                ids.push(id);
                counts.push(count);
              }
              fieldEnds.push(ids.length);
            }
            return encodeCounted({ ids: Uint32Array.from(ids), counts: Uint32Array.from(counts), fieldEnds: Uint32Array.from(fieldEnds) });
          });
          const rows = writer.takePending();
          // Keys repeat: a later blob replaces an earlier document.
          const keys = blobs.map((_, i) => keyOf[i % keyOf.length] as number);
          const fill = (store: (vocabulary: TermVocabulary, stats: Stats, blob: Uint8Array, key: number, intern: (t: string) => number) => void) => {
            const vocabulary = new TermVocabulary();
            vocabulary.load(rows);
            const stats: Stats = new FieldStats(FIELDS);
            for (const term of seeded) stats.internTerm(term);
            const intern = (t: string) => stats.internTerm(t);
            blobs.forEach((blob, i) => store(vocabulary, stats, blob, keys[i] as number, intern));
            return state(stats, [0, 1, 2, 3, 4]);
          };
          const packed = fill((vocabulary, stats, blob, key, intern) => stats.setPacked(key, vocabulary.packStored(blob, FIELDS.length, intern)));
          const straight = fill((vocabulary, stats, blob, key, intern) => vocabulary.storeInto(blob, FIELDS.length, intern, stats, key));
          assert.deepEqual(straight, packed);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("countIds (a document's term ids counted per field)", () => {
  /** What it counts, written the plain way: each field's ids sorted, then counted in runs. */
  function reference(fields: ReadonlyArray<readonly number[]>) {
    const ids: number[] = [];
    const counts: number[] = [];
    const fieldEnds: number[] = [];
    for (const field of fields) {
      const sorted = [...field].sort((a, b) => a - b);
      for (let i = 0; i < sorted.length;) {
        let end = i + 1;
        while (end < sorted.length && sorted[end] === sorted[i]) end++;
        ids.push(sorted[i] as number);
        counts.push(end - i);
        i = end;
      }
      fieldEnds.push(ids.length);
    }
    return { ids, counts, fieldEnds };
  }

  it('gives each field its distinct ids ascending with their counts, call after call, small and large ids and fields (fast-check)', () => {
    // Ids up to 2^20 and fields of up to 6,000 occurrences: past the counting scratch's first room.
    const id = fc.oneof(fc.nat({ max: 40 }), fc.nat({ max: 1 << 20 }));
    const field = fc.oneof(fc.array(id, { maxLength: 30 }), fc.array(fc.nat({ max: 300 }), { minLength: 4_500, maxLength: 6_000 }));
    const document = fc.array(fc.oneof({ weight: 5, arbitrary: fc.array(id, { maxLength: 30 }) }, { weight: 1, arbitrary: field }), { maxLength: 6 });
    fc.assert(
      fc.property(fc.array(document, { minLength: 1, maxLength: 4 }), (documents) => {
        for (const fields of documents) {
          const counted = countIds(fields.map((f) => Uint32Array.from(f)));
          const expected = reference(fields);
          assert.deepEqual([...counted.ids], expected.ids);
          assert.deepEqual([...counted.counts], expected.counts);
          assert.deepEqual([...counted.fieldEnds], expected.fieldEnds);
        }
      }),
      { numRuns: 200 },
    );
  });
});
