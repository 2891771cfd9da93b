import type { ByteStore, Logger } from '../../platform/ports';
import { skillRecordSchema } from '../skillSchema';
import type { SkillRecord } from '../skillSchema';
import { canonicalJson } from './skillRecords';
import type { SkillStore } from './skillStore';

/**
 * Learned skills are what a user taught; they must survive a corrupt or rebuilt database. Every
 * change rewrites a JSONL export of all learned skills beside the database (atomically, through
 * the ByteStore); on open, any learned skill missing from the store is replayed from it.
 *
 * Writes are serialised: one runs at a time, and it takes its snapshot of the store when it
 * starts, so every change made before a `write()` call is in the file once that call resolves.
 * Callers arriving while a write is queued (not yet started) share it.
 */
export class LearnedSkillJournal {
  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;

  constructor(private readonly bytes: ByteStore, private readonly key: string, private readonly logger: Logger) {}

  write(store: SkillStore): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.running.catch(() => undefined).then(() => {
      this.queued = undefined;
      return this.writeNow(store);
    });
    this.queued = next;
    this.running = next;
    return next;
  }

  private async writeNow(store: SkillStore): Promise<void> {
    const lines = store.all().filter((r) => r.origin === 'learned').map((r) => JSON.stringify(r));
    await this.bytes.write(this.key, new TextEncoder().encode(lines.length ? `${lines.join('\n')}\n` : ''));
  }

  /** Inserts journaled learned skills the store lacks; returns how many. A bad line is logged and skipped. */
  async replayInto(store: SkillStore): Promise<number> {
    const raw = await this.bytes.read(this.key).catch(() => undefined);
    if (!raw || raw.byteLength === 0) return 0;
    const text = new TextDecoder('utf-8').decode(raw);
    let restored = 0;
    store.transaction(() => {
      text.split('\n').forEach((line, i) => {
        if (!line.trim()) return;
        let parsed;
        try {
          parsed = skillRecordSchema.safeParse(JSON.parse(line));
        } catch {
          parsed = undefined;
        }
        if (!parsed?.success) {
          this.logger.warn(`Learned-skill journal ${this.key}:${i + 1}: unreadable entry skipped.`);
          return;
        }
        const record = parsed.data;
        const existing = store.get(record.name, record);
        if (existing?.origin === 'learned' && sameContent(existing, record)) return;
        // Missing, shadowed by a pack skill, or damaged in the database: the journal wins. Usage
        // counts are not journaled, so a surviving row keeps its own.
        const usage = existing?.origin === 'learned' ? { use_count: existing.use_count, last_used: existing.last_used } : {};
        if (existing) store.delete(existing);
        store.upsert({ ...record, ...usage, origin: 'learned' });
        restored++;
      });
    });
    return restored;
  }
}

/** Whether a stored learned skill still says what the journal says (usage counts aside). */
function sameContent(stored: SkillRecord, journaled: SkillRecord): boolean {
  const content = ({ use_count: _u, last_used: _l, ...rest }: SkillRecord) => canonicalJson(rest);
  return content(stored) === content(journaled);
}
