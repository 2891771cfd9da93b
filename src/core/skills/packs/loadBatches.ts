import { collisions } from './unchangedFiles';
import type { UnchangedCheck, WorkItem } from './unchangedFiles';
import type { ParsedFile } from './skillPackWriter';

/**
 * The order a load reads and writes its files in: batches of files in load order, each written
 * (and its parse dropped) before the next is read, so a load holds one batch's parsed files, not
 * the library's — at 10,000 real SKILL.md files the parses of every file were most of a cold
 * load's peak memory.
 *
 * The first definition of a name in load order wins however the files are batched: the store's
 * rows are written in load order, and a name is claimed by the first file written with it. A warm
 * start's unchanged files (not read; `unchangedFiles.ts`) hold their names from the start. One of
 * them whose name a file read now also defines, or that lost a name to a file no longer trusted,
 * is read after all (`collisions`): a later one when the batches reach it (its names given up
 * first, so the earlier file being written claims them), an earlier one at once, with the batch
 * that found it and written before it. Such an earlier file cannot collide with a file written in
 * an earlier batch: that file's batch would have found it.
 */

interface BatchSteps {
  /** Reads and parses these files (work indices); undefined when the load was cancelled meanwhile. */
  read(indices: readonly number[]): Promise<Map<number, ParsedFile> | undefined>;
  /** An unchanged file is read after all: the names it held are given up before the batch is written. */
  untrust(index: number): void;
  /** Writes one batch's files (in load order) into the store. */
  write(batch: ReadonlyMap<number, ParsedFile>): Promise<void>;
}

/**
 * Reads and writes every file of `work` the check does not trust unchanged, `batchFiles` at a
 * time, with the unchanged files that must be read with them. False when cancelled: the batches
 * written before stay written.
 */
export async function readInBatches(work: readonly WorkItem[], check: UnchangedCheck, batchFiles: number, steps: BatchSteps): Promise<boolean> {
  let position = 0;
  const readNext = () => {
    const indices: number[] = [];
    for (; position < work.length && indices.length < batchFiles; position++) if (!check.unchanged.has(position)) indices.push(position);
    return indices.length === 0 ? undefined : steps.read(indices);
  };
  const first = readNext();
  let batch = first && (await first);
  if (first && !batch) return false;
  while (batch) {
    for (let fresh = [...batch.values()]; ;) {
      const colliding = collisions(check, fresh);
      if (colliding.length === 0) break;
      for (const index of colliding) steps.untrust(index);
      // Later files are read when the batches reach them; earlier ones now, with this batch.
      const more = await steps.read(colliding.filter((index) => index < position));
      if (!more) return false;
      for (const [index, file] of more) batch.set(index, file);
      fresh = [...more.values()];
    }
    // The next batch is read before this one is written, so a parser thread counts its terms
    // while this one is stored (the loader's write waits for this batch's). Its files are chosen
    // now, after this batch's collisions, as they would be after its write: the write changes
    // nothing the choice reads. A load cancelled meanwhile still writes this batch, as before.
    const reading = readNext();
    const next = reading && (await reading);
    await steps.write(new Map([...batch].sort((a, b) => a[0] - b[0])));
    if (reading && !next) return false;
    batch = next;
  }
  return true;
}
