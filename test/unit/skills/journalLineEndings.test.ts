import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import type { ByteStore } from '../../../src/core/platform/ports';
import type { LearnedSkillInput } from '../../../src/core/skills/store/skillRecords';
import { ctx, makeService } from './helpers';

const JOURNAL = 'skills.db.learned.jsonl';
const NAMES = ['restore-one', 'restore-two', 'restore-three'];

function learned(name: string): LearnedSkillInput {
  return { name, trigger: `Restore ${name} after a rebuild`, steps: [`Do ${name}.`, 'Check it.'], scope_mode: 'global' };
}

/** The journal three learned skills leave behind (skills.db dropped: only the journal survives). */
async function journalOfThree(): Promise<Uint8Array> {
  const { service, bytes } = await makeService();
  for (const name of NAMES) await service.addLearnedSkill(learned(name));
  await service.dispose();
  return bytes.entries.get(JOURNAL)!;
}

async function learnedNames(bytes: ByteStore): Promise<string[]> {
  const { service } = await makeService({ bytes: bytes as MemoryByteStore });
  const listed = await service.list({ page_size: 50, origin: 'learned' }, ctx);
  return listed.skills.map((s) => s.name).sort();
}

/** Reads of the journal fail (an unreadable file); everything else is a memory store. */
class UnreadableJournal extends MemoryByteStore {
  override async read(key: string): Promise<Uint8Array | undefined> {
    if (key === JOURNAL && this.entries.has(JOURNAL)) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    return super.read(key);
  }
}

describe('learned-skill journal: line endings and unreadable journals', () => {
  it('property: a journal re-saved with CRLF, trailing spaces or a BOM replays every learned skill into a rebuilt store', async () => {
    const original = new TextDecoder().decode(await journalOfThree());
    const lines = original.split('\n').filter(Boolean);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('\n', '\r\n', ' \n', '\t\r\n', '  \r\n'), { minLength: lines.length, maxLength: lines.length }),
        fc.boolean(),
        async (endings, bom) => {
          const bytes = new MemoryByteStore();
          bytes.entries.set(JOURNAL, new TextEncoder().encode(`${bom ? '\uFEFF' : ''}${lines.map((line, i) => line + endings[i]).join('')}`));
          assert.deepEqual(await learnedNames(bytes), [...NAMES].sort());
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a journal with a damaged line is kept (as it was) before the next write replaces it', async () => {
    const lines = new TextDecoder()
      .decode(await journalOfThree())
      .split('\n')
      .filter(Boolean);
    const damaged = [lines[0], lines[1]!.replace('Restore', 'Re-store'), lines[2]].join('\n');
    const bytes = new MemoryByteStore();
    bytes.entries.set(JOURNAL, new TextEncoder().encode(damaged));
    const { service, logger } = await makeService({ bytes });
    await service.addLearnedSkill(learned('after-damage'));
    await service.dispose();
    const copies = [...bytes.entries.keys()].filter((key) => key.startsWith(`${JOURNAL}.unreadable-`));
    assert.equal(copies.length, 1, [...bytes.entries.keys()].join(', '));
    assert.equal(new TextDecoder().decode(bytes.entries.get(copies[0]!)), damaged, 'the damaged line survives in the copy');
    assert.ok(
      logger.lines.some((l) => l.level === 'warn' && l.message.includes(copies[0]!)),
      JSON.stringify(logger.lines),
    );
  });

  it('a journal that could not be read is moved aside, never overwritten, by the next write', async () => {
    const journal = await journalOfThree();
    const bytes = new UnreadableJournal();
    bytes.entries.set(JOURNAL, journal);
    const { service } = await makeService({ bytes });
    await service.addLearnedSkill(learned('after-damage'));
    await service.dispose();
    const aside = [...bytes.entries.keys()].filter((key) => key.startsWith(`${JOURNAL}.unreadable-`));
    assert.equal(aside.length, 1, [...bytes.entries.keys()].join(', '));
    assert.deepEqual(bytes.entries.get(aside[0]!), journal, 'the unreadable journal is kept byte for byte');
    assert.match(new TextDecoder().decode(bytes.entries.get(JOURNAL)), /after-damage/);
  });
});
