import { createHash } from 'node:crypto';
import type { ByteStore, Logger } from '../../../platform/ports';
import { skillRecordSchema } from '../../skillSchema';
import type { SkillRecord } from '../../skillSchema';
import { canonicalJson } from '../../../platform/canonicalJson';
import type { SkillStore } from '../skillStore';

/**
 * Learned skills are what a user taught; they must survive a corrupt or rebuilt database. Every
 * change rewrites a JSONL export of all learned skills beside the database (atomically, through
 * the ByteStore); on open, any learned skill missing from the store is replayed from it.
 *
 * Each line carries a checksum of its record (`_check`): a line damaged on disk is skipped (the
 * database's copy stays) instead of overwriting a good skill with garbage. Lines written before
 * checksums existed are read as they are, when they hold the record's keys and no other. Line
 * endings and trailing whitespace are not part of a line (a journal edited or synced on Windows
 * comes back as CRLF), and neither is a leading BOM.
 *
 * The next write replaces the file with the store's skills, so a journal that was not read in
 * full is kept first: one with skipped lines is copied to `<key>.unreadable-<hash>`, one that
 * could not be read at all is moved aside before the write, and if that fails too the write is
 * refused — what could not be read is never overwritten.
 *
 * A write takes the learned records from the store's in-memory copy (SkillStore.learnedRecords)
 * and reuses the line of every record unchanged since the last write: after an import of 10,000
 * skills it neither reads the table back nor hashes every skill again.
 *
 * Writes are serialised: one runs at a time, and it takes its snapshot of the store when it
 * starts, so every change made before a `write()` call is in the file once that call resolves.
 * Callers arriving while a write is queued (not yet started) share it.
 */
export class LearnedSkillJournal {
  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  /** Journal line of each record already written (see writeNow). */
  private readonly lines = new WeakMap<SkillRecord, string>();
  /** Why the journal could not be read on open; set until it has been moved aside. */
  private unreadable: string | undefined;

  constructor(
    private readonly bytes: ByteStore,
    private readonly key: string,
    private readonly logger: Logger,
  ) {}

  write(store: SkillStore): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.writeNow(store);
      });
    this.queued = next;
    this.running = next;
    return next;
  }

  private async writeNow(store: SkillStore): Promise<void> {
    if (this.unreadable !== undefined && !(await this.moveUnreadableAside())) return;
    // The store hands out the same record object until that skill changes, so a line (and its
    // checksum, the costly part) is computed once per change, not once per write.
    const lines = store.learnedRecords().map((record) => {
      let line = this.lines.get(record);
      if (line === undefined) {
        line = journalLine(record);
        this.lines.set(record, line);
      }
      return line;
    });
    await this.bytes.write(this.key, new TextEncoder().encode(lines.length ? `${lines.join('\n')}\n` : ''));
  }

  /**
   * Inserts journaled learned skills the store lacks (or holds damaged); returns how many. Bad
   * lines are skipped and reported in one warning; one entry that cannot be stored costs itself.
   */
  async replayInto(store: SkillStore): Promise<number> {
    let raw: Uint8Array | undefined;
    try {
      raw = await this.bytes.read(this.key);
    } catch (error) {
      this.unreadable = error instanceof Error ? error.message : String(error);
      this.logger.warn(
        `Learned-skill journal ${this.key} could not be read (${this.unreadable}); it is kept, and moved aside before the journal is written again.`,
      );
      return 0;
    }
    if (!raw || raw.byteLength === 0) return 0;
    const text = new TextDecoder('utf-8').decode(raw).replace(/^\uFEFF/, '');
    let restored = 0;
    const skipped: number[] = [];
    store.transaction(() => {
      text.split('\n').forEach((untrimmed, i) => {
        const line = untrimmed.trimEnd();
        if (!line) return;
        const record = readLine(line);
        if (!record) {
          skipped.push(i + 1);
          return;
        }
        try {
          if (this.replayOne(store, record)) restored++;
        } catch {
          skipped.push(i + 1);
        }
      });
    });
    if (skipped.length) {
      const kept = await this.keepCopy(raw);
      this.logger.warn(
        `Learned-skill journal ${this.key}: ${skipped.length} unreadable or damaged entr${skipped.length === 1 ? 'y' : 'ies'} skipped (line${skipped.length === 1 ? '' : 's'} ${skipped.slice(0, 10).join(', ')}${skipped.length > 10 ? ', …' : ''}); ${kept ? `the journal as it was is kept as ${kept}` : 'it could not be copied, so it will not be rewritten'}.`,
      );
    }
    return restored;
  }

  /** Copies the journal's bytes beside it (named by their hash: the same damage is kept once); the key, or undefined when it failed. */
  private async keepCopy(raw: Uint8Array): Promise<string | undefined> {
    const copy = `${this.key}.unreadable-${createHash('sha256').update(raw).digest('hex').slice(0, 12)}`;
    try {
      await this.bytes.write(copy, raw);
      return copy;
    } catch (error) {
      this.unreadable = error instanceof Error ? error.message : String(error);
      return undefined;
    }
  }

  /** Moves a journal that could not be read out of the way of the next write; false (and no write) when that fails. */
  private async moveUnreadableAside(): Promise<boolean> {
    const aside = `${this.key}.unreadable-${Date.now()}`;
    try {
      await this.bytes.rename(this.key, aside);
      this.unreadable = undefined;
      this.logger.info(`Learned-skill journal ${this.key} could not be read; it was moved to ${aside} and a new journal written.`);
      return true;
    } catch (error) {
      this.logger.warn(
        `Learned-skill journal ${this.key} was not rewritten: it could not be read (${this.unreadable}) nor moved aside (${error instanceof Error ? error.message : String(error)}).`,
      );
      return false;
    }
  }

  private replayOne(store: SkillStore, record: SkillRecord): boolean {
    const existing = store.get(record.name, record);
    if (existing?.origin === 'learned' && sameContent(existing, record)) return false;
    // Missing, shadowed by a pack skill, or damaged in the database: the journal wins. Usage
    // counts are not journaled, so a surviving row keeps its own.
    const usage = existing?.origin === 'learned' ? { use_count: existing.use_count, last_used: existing.last_used } : {};
    store.transaction(() => {
      if (existing) store.delete(existing);
      store.upsert({ ...record, ...usage, origin: 'learned' });
    });
    return true;
  }
}

/** Whether a stored learned skill still says what the journal says (usage counts aside). */
export function sameContent(stored: SkillRecord, journaled: SkillRecord): boolean {
  const content = ({ use_count: _u, last_used: _l, ...rest }: SkillRecord) => canonicalJson(rest);
  return content(stored) === content(journaled);
}

const CHECK_KEY = '_check';

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/**
 * A record's line: its JSON with `_check` appended last, the hash of that very JSON text. Hashing
 * the text written (rather than a canonical form of the record, as older journals did — still
 * read) keeps a 10,000-skill journal write and read in the low hundreds of milliseconds.
 */
function journalLine(record: SkillRecord): string {
  const json = JSON.stringify(record);
  return `${json.slice(0, -1)},"${CHECK_KEY}":"${hash(json)}"}`;
}

/** Whether `check` is the line's own: of the JSON text before it (current), or of the canonical record (older journals). */
function checksumHolds(line: string, check: string, record: SkillRecord): boolean {
  const suffix = `,"${CHECK_KEY}":"${check}"}`;
  if (line.endsWith(suffix) && hash(`${line.slice(0, -suffix.length)}}`) === check) return true;
  return hash(canonicalJson(record)) === check;
}

/** A journal line's record, or undefined when it is not JSON, not a record, or fails its checksum. */
function readLine(line: string): SkillRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = skillRecordSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const check = (value as Record<string, unknown>)[CHECK_KEY];
  if (check === undefined) return onlyRecordKeys(value) ? parsed.data : undefined;
  if (typeof check !== 'string' || !checksumHolds(line, check, parsed.data)) return undefined;
  return parsed.data;
}

const RECORD_KEYS = new Set(Object.keys(skillRecordSchema.shape));

/**
 * Whether a line without a checksum holds the record's keys and nothing else, as every line did
 * before checksums. Any other key is damage: one flipped byte in `_check`'s name leaves the line
 * looking like an old one, whose record would then be trusted unchecked (and win over the
 * database's good copy).
 */
function onlyRecordKeys(value: unknown): boolean {
  return Object.keys(value as Record<string, unknown>).every((key) => RECORD_KEYS.has(key));
}
