import { randomUUID } from 'node:crypto';
import type { CountedFields } from './countedFields';
import { TextAnalyzer } from './textAnalysis';
import type { TermIds } from './textAnalysis';
import { TermVocabulary } from './termStore';

/**
 * Terms counted on another thread, made this thread's. A parser thread analyses what it parsed
 * with a vocabulary of its own (ids handed out densely from 0 as it meets terms) and sends each
 * reply's counted fields in its ids, with the terms it met first while making that reply. A
 * `TermSession` is this thread's view of one such vocabulary (one worker's life): it learns the
 * terms as replies arrive and gives each counted document in the ids of the dictionary the
 * document is stored with (`TermIds`, the skill store's vocabulary), asking that dictionary once
 * per term. Same terms, same counts: only the ids are relabelled (and each field's run sorted by
 * the new ids, as `countIds` gives them).
 */
export class TermSession {
  /** The other thread's id → term. */
  private readonly terms: string[] = [];
  /** The other thread's id → the id in `owner` (−1: not asked yet), valid while its generation is `generation`. */
  private mapped = new Int32Array(0);
  private owner: TermIds | undefined;
  private generation = -1;

  constructor(readonly id: string) {}

  /** Terms the other thread gave ids while making one reply (before any reply that uses them is read). */
  learn(added: ReadonlyArray<readonly [number, string]>): void {
    for (const [id, term] of added) this.terms[id] = term;
  }

  /** `counted` (the other thread's ids) in `ids`' ids, each field's run by ascending id; new arrays. */
  relabel(counted: CountedFields, ids: TermIds): CountedFields {
    if (this.owner !== ids || this.generation !== ids.generation) {
      this.owner = ids;
      this.generation = ids.generation;
      this.mapped = new Int32Array(0);
    }
    if (this.mapped.length < this.terms.length) {
      const grown = new Int32Array(Math.max(this.terms.length, 2 * this.mapped.length)).fill(-1);
      grown.set(this.mapped);
      this.mapped = grown;
    }
    const n = counted.ids.length;
    const out: CountedFields = { ids: new Uint32Array(n), counts: counted.counts.slice(), fieldEnds: counted.fieldEnds.slice() };
    let start = 0;
    for (const end of counted.fieldEnds) {
      let ascending = true;
      for (let i = start; i < end; i++) {
        const theirs = counted.ids[i] as number;
        let own = this.mapped[theirs] ?? -1;
        if (own < 0) {
          const term = this.terms[theirs];
          if (term === undefined) throw new Error(`term ${theirs} of the parser thread was never sent`);
          this.mapped[theirs] = own = ids.idOf(term);
        }
        out.ids[i] = own;
        if (i > start && own < (out.ids[i - 1] as number)) ascending = false;
      }
      if (!ascending) sortRun(out, start, end);
      start = end;
    }
    return out;
  }
}

/** Sorts `counted`'s entries from `start` up to `end` by id, each count kept with its id. */
function sortRun(counted: CountedFields, start: number, end: number): void {
  // Id and count in one number (ids < 2^32, counts ≤ 2^20): exact in a double, sorted by id first.
  const keys = new Float64Array(end - start);
  for (let i = start; i < end; i++) keys[i - start] = (counted.ids[i] as number) * COUNT_SPAN + (counted.counts[i] as number);
  keys.sort();
  for (let i = start; i < end; i++) {
    const key = keys[i - start] as number;
    const id = Math.floor(key / COUNT_SPAN);
    counted.ids[i] = id;
    counted.counts[i] = key - id * COUNT_SPAN;
  }
}

/** Above any count of one term in one field (a field holds at most 2^20 occurrences: termStore.ts). */
const COUNT_SPAN = 2 ** 21;

/** A document's counted terms as another thread's vocabulary gave them: stored after `session.relabel`. */
export interface CountedElsewhere {
  session: TermSession;
  counted: CountedFields;
}

/**
 * The other thread's side: its analyser and its own vocabulary (one per thread's life, named by
 * `session`), whose terms met first go out with the reply that met them (`added`).
 */
export class ThreadTermCounter {
  readonly session = randomUUID();
  readonly analyzer = new TextAnalyzer();
  private readonly vocabulary = new TermVocabulary();

  /** The ids to count with (given out densely from 0). */
  get ids(): TermIds {
    return this.vocabulary;
  }

  /** The terms given ids since the last call, with their ids: what `TermSession.learn` takes. */
  added(): Array<[number, string]> {
    return this.vocabulary.takePending();
  }
}
