import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { LearningStore } from '../../../src/core/learning/learningStore';
import { nullLogger } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { canonicalJson } from '../../../src/core/platform/canonicalJson';
import { engine, TestClock } from '../skills/helpers';
import { makeLearning, turn } from './helpers';

/**
 * What the faster import must keep: it writes the learned-skill journal before the database, so
 * a crash after the journal loses none of the imported skills; a journal written by an older
 * Toolshed (checksums over the canonical record) is still verified; batched counters add up
 * exactly as one-by-one ones.
 */

/** Memory storage that "crashes" at the first write of one key once armed: that write never lands or returns. */
class CrashingWrites extends MemoryByteStore {
  armed = false;
  private crash!: () => void;
  readonly crashed = new Promise<void>((resolve) => {
    this.crash = resolve;
  });
  constructor(private readonly key: string) {
    super();
  }
  override async write(key: string, bytes: Uint8Array): Promise<void> {
    if (this.armed && key === this.key) {
      this.armed = false;
      this.crash();
      return new Promise<void>(() => undefined);
    }
    return super.write(key, bytes);
  }
}

const JOURNAL = 'skills.db.learned.jsonl';
const sortedByName = <T extends { name: string }>(records: T[]) => [...records].sort((a, b) => (a.name < b.name ? -1 : 1));

describe('learned-skill snapshots at scale: crash safety, journal compatibility, batched counters', () => {
  it('an import that crashes while saving the database (after the journal) loses no imported skill: reopening replays them', async () => {
    const source = await makeLearning();
    for (const [i, request] of ['Deploy the billing service to staging and verify it', 'Rotate the API token of the mail service and restart it'].entries()) {
      const proposal = (
        await source.learning.ingest(
          turn(
            request,
            [
              { tool: `fixture_step_${i}`, input: {}, ok: true },
              { tool: `fixture_check_${i}`, input: {}, ok: true },
            ],
            { sessionId: `s${i}`, at: i },
          ),
        )
      ).proposal!;
      await source.learning.approve(proposal.id);
    }
    const exported = source.learning.exportSnapshot('9.9.9');
    assert.equal(exported.learned, 2);

    const bytes = new CrashingWrites('skills.db');
    const target = await makeLearning({ bytes });
    const before = bytes.entries.get('skills.db');
    bytes.armed = true;
    void target.learning.importSnapshot(new TextEncoder().encode(exported.text));
    await bytes.crashed;
    assert.equal(bytes.entries.get('skills.db'), before, 'the database on disk is the one from before the import');

    const reopened = await makeLearning({ bytes });
    const strip = (records: ReturnType<typeof source.service.learnedSkills>) => sortedByName(records).map(({ use_count: _u, last_used: _l, ...rest }) => rest);
    assert.deepEqual(strip(reopened.service.learnedSkills()), strip(source.service.learnedSkills()));
  });

  it('a journal line checksummed the older way (canonical record) is still trusted; altered, it is skipped', async () => {
    const bytes = new MemoryByteStore();
    const first = await makeLearning({ bytes });
    const proposal = (
      await first.learning.ingest(
        turn(
          'Deploy the billing service to staging and verify it',
          [
            { tool: 'fixture_deploy', input: {}, ok: true },
            { tool: 'fixture_verify', input: {}, ok: true },
          ],
          { sessionId: 's', at: 1 },
        ),
      )
    ).proposal!;
    await first.learning.approve(proposal.id);
    const [record] = first.service.learnedSkills();
    await first.service.dispose();
    const oldLine = (r: typeof record) => JSON.stringify({ ...r, _check: createHash('sha256').update(canonicalJson(r)).digest('hex').slice(0, 32) });

    const old = new MemoryByteStore();
    await old.write(JOURNAL, new TextEncoder().encode(`${oldLine(record!)}\n`));
    const fromOld = await makeLearning({ bytes: old });
    assert.equal(fromOld.service.learnedSkills()[0]?.trigger, record!.trigger);
    await fromOld.service.dispose();

    const altered = new MemoryByteStore();
    await altered.write(JOURNAL, new TextEncoder().encode(`${oldLine(record!).replace(record!.trigger, 'Altered trigger')}\n`));
    const fromAltered = await makeLearning({ bytes: altered });
    assert.deepEqual(fromAltered.service.learnedSkills(), []);
    assert.match(fromAltered.logger.lines.map((e) => e.message).join('\n'), /1 unreadable or damaged entry skipped/);
  });

  it('property: counters added in one batch equal counters added one by one (repeats, zero clamps, timestamps)', async () => {
    const delta = fc.record({
      name: fc.constantFrom('a', 'b', 'c'),
      helpful: fc.integer({ min: -2, max: 5 }),
      harmful: fc.integer({ min: -2, max: 5 }),
      use_count: fc.integer({ min: -2, max: 9 }),
      last_used: fc.nat({ max: 100 }),
      last_validated: fc.nat({ max: 100 }),
    });
    const open = async () => LearningStore.open({ engine: await engine(), store: new MemoryByteStore(), logger: nullLogger, clock: new TestClock() });
    await fc.assert(
      fc.asyncProperty(fc.array(delta, { maxLength: 12 }), fc.array(delta, { maxLength: 250 }), fc.boolean(), async (before, deltas, nonNegative) => {
        const batch = nonNegative
          ? deltas.map((d) => ({ ...d, helpful: Math.abs(d.helpful), harmful: Math.abs(d.harmful), use_count: Math.abs(d.use_count) }))
          : deltas;
        const [one, many] = [await open(), await open()];
        for (const store of [one, many]) for (const d of before) store.addCounters(d.name, d);
        for (const d of batch) one.addCounters(d.name, d);
        many.addCountersMany(batch);
        const sorted = (store: LearningStore) => store.allCounters().sort((x, y) => x.name.localeCompare(y.name));
        assert.deepEqual(sorted(many), sorted(one));
      }),
      { numRuns: 60 },
    );
  });
});
