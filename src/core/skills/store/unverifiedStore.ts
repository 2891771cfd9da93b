import type { Logger } from '../../platform/ports';
import type { SqlDatabase } from '../../sql/sqlDatabase';

/**
 * What the skill store forgets when its file's bytes are not the ones it last wrote or checked
 * (persistentDatabase's `distrust`: damaged, written by something else, or a write cut short).
 * SQLite's integrity check finds damage in pages and indexes, not a changed byte inside a row's
 * text (a row's trigger, a folder listing's entry name, a fingerprint's count), so on such bytes
 * nothing that would let a load skip a file or folder is kept, and nothing derived from a row
 * is served unchecked:
 *
 * - file fingerprints (`skill_files`) and folder listings (`skill_folders`): the next load lists
 *   every folder and reads every file, as a cold load does, and until it ends every answer waits
 *   for it (earlyAnswers.ts: no folder of the store was walked);
 * - each pack skill's content hash, set to UNVERIFIED_CONTENT_HASH: no skill a file defines hashes
 *   to it, so that load rewrites every pack row from its file (keeping its id and usage counts)
 *   instead of keeping a stored row whose hash still matches the file;
 * - the stored terms of learned skills (they have no file): the store analyses them again on open,
 *   and the learned-skill journal then replaces any learned row whose content differs from its
 *   checked journal line.
 *
 * Rows of a file the load no longer finds are removed by it as always. The cost falls on such
 * opens only: bytes whose digest matches skip this and SQLite's check alike.
 */

/** A pack skill's content hash while its row is unverified: the next load rewrites the row from its file. */
export const UNVERIFIED_CONTENT_HASH = '';

export function forgetUnverifiable(db: SqlDatabase, logger: Logger, key: string): void {
  logger.info(
    `Skill store "${key}" holds bytes it did not write last (damaged, written by something else, or a write cut short): the next load reads every skill file again.`,
  );
  db.transaction(() => {
    db.exec(`
      DELETE FROM skill_files;
      DELETE FROM skill_folders;
      UPDATE skills SET content_hash = '${UNVERIFIED_CONTENT_HASH}' WHERE origin = 'pack';
      DELETE FROM skill_terms WHERE doc_id IN (SELECT doc_id FROM skills WHERE origin = 'learned');`);
  });
}
