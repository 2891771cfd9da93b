import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { compose, lineageOf, mergeRecords, NO_COUNTERS, sourcesOf, undoMerge, unite } from '../../../src/core/learning/merge/lineage';
import type { MergedSource } from '../../../src/core/learning/merge/lineage';
import { sourceHash } from '../../../src/core/learning/extraction/learnedCandidate';
import { MergeIndex } from '../../../src/core/learning/merge/mergeIndex';
import { similarity, termVector } from '../../../src/core/learning/merge/similarity';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import { learnedRecord, skillId } from '../../../src/core/skills/store/skillRecords';
import { makeScope } from '../../../src/core/skills/store/skillScope';

function learned(name: string, trigger: string, steps: string[], extra: Partial<SkillRecord> = {}): SkillRecord {
  const record = learnedRecord(
    {
      name,
      trigger,
      task_type: 'api',
      tags: ['t'],
      steps,
      failure_modes: ['Never push to main.'],
      extra: { source_hash: sourceHash(trigger, steps, 'api') },
      origin_ref: `learning:${name}`,
    },
    makeScope('project', undefined, 'p1'),
    1000,
  );
  return { ...record, id: skillId('learned', name), ...extra };
}

function source(name: string, steps: string[], at = 2000, counters = NO_COUNTERS): MergedSource {
  return { ...sourcesOf(learned(name, 'check the forecast and file an issue', steps), counters, `pr_${name}`)[0]!, merged_at: at };
}

const base = () =>
  learned('weather', 'check the forecast and file an issue', ['Call weather for each city.', 'Call create_issue with a summary.'], { use_count: 3 });

describe('merge with lineage: similarity, union, idempotence, order, undo', () => {
  it('similarity: a paraphrase of trigger and steps scores high, an unrelated skill low; identical = 1', () => {
    const a = termVector('Check the weather forecast in Oslo, then create an issue', [
      'Call weather_forecast for each city.',
      'Call create_issue with the summary.',
    ]);
    const b = termVector('check weather forecasts for Oslo and create issues', ['Call weather_forecast for every city', 'Call create_issue with a summary']);
    const c = termVector('Rotate the database password', ['Call vault_rotate.', 'Restart the service.']);
    assert.equal(similarity(a, a), 1);
    assert.ok(similarity(a, b) >= 0.9, `paraphrase ${similarity(a, b)}`);
    assert.ok(similarity(a, c) < 0.2, `unrelated ${similarity(a, c)}`);
    assert.equal(similarity(a, b), similarity(b, a));
    assert.equal(similarity(termVector('', []), termVector('', [])), 0);
  });

  it('steps, preconditions and failure modes are united without repeats; warnings kept; use_count summed; lineage recorded', () => {
    const target = base();
    const merged = mergeRecords(target, [
      source('weather-2', ['call weather for each city', 'Warning: never post the API key in the issue.', 'Call create_issue with a summary.'], 2000, {
        helpful: 2,
        harmful: 1,
        use_count: 4,
      }),
    ]);
    assert.deepEqual(merged.steps, ['Call weather for each city.', 'Call create_issue with a summary.', 'Warning: never post the API key in the issue.']);
    assert.deepEqual(merged.failure_modes, ['Never push to main.']);
    assert.equal(merged.use_count, 7);
    assert.equal(merged.name, 'weather');
    assert.equal(merged.id, target.id);
    const lineage = lineageOf(merged)!;
    assert.deepEqual(
      lineage.merged_from.map((s) => s.name),
      ['weather-2'],
    );
    assert.equal(lineage.source_hashes.length, 2);
    assert.equal(lineage.origin_ref, 'learning:weather');
    assert.deepEqual(lineage.base, target);
    assert.notEqual(merged.content_hash, target.content_hash);
  });

  const stepList = fc.array(fc.constantFrom('Call a.', 'call a', 'Call b.', 'Never delete prod.', 'Run tests.', 'Warning: slow.', 'Open the PR.'), {
    minLength: 1,
    maxLength: 4,
  });
  const sources = fc
    .uniqueArray(
      fc.record({ name: fc.constantFrom('s1', 's2', 's3', 's4', 's5'), steps: stepList, at: fc.integer({ min: 1000, max: 9000 }), use: fc.nat(5) }),
      { selector: (s) => s.name, maxLength: 5 },
    )
    .map((list) => list.map((s) => source(s.name, s.steps, s.at, { helpful: s.use, harmful: 0, use_count: s.use })));

  it('property: merging is idempotent and independent of order', () => {
    fc.assert(
      fc.property(sources, fc.integer(), (list, seed) => {
        const once = mergeRecords(base(), list);
        assert.deepEqual(mergeRecords(once, list), once, 'same sources again change nothing');
        const shuffled = [...list].sort((a, b) => ((a.name.charCodeAt(1) * seed) % 7) - ((b.name.charCodeAt(1) * seed) % 7));
        const oneByOne = shuffled.reduce((record, s) => mergeRecords(record, [s]), base());
        assert.deepEqual(oneByOne, once, 'one at a time, any order, same record');
      }),
      { numRuns: 200 },
    );
  });

  it('property: undoing every merge restores the exact original record; undoing one equals never merging it', () => {
    fc.assert(
      fc.property(sources, (list) => {
        const original = base();
        let record = mergeRecords(original, list);
        for (let i = 1; i < list.length; i++) {
          const without = undoMerge(mergeRecords(original, list), list[i]!.source_hash, list[i]!.name)!.record;
          assert.deepEqual(
            without,
            mergeRecords(
              original,
              list.filter((_, j) => j !== i),
            ),
          );
        }
        for (const s of [...list].reverse()) record = undoMerge(record, s.source_hash, s.name)!.record;
        assert.deepEqual(record, original);
      }),
      { numRuns: 200 },
    );
  });

  it('undo of a hash that was never merged is refused (undefined), and a source identical to the base is a no-op', () => {
    const original = base();
    assert.equal(undoMerge(original, 'nope'), undefined);
    const same = sourcesOf(original, NO_COUNTERS)[0]!;
    assert.equal(compose(original, [same]), original);
  });

  it('merging a merged skill brings its base and its own merges along (lineage flattened)', () => {
    const a = mergeRecords(base(), [source('s1', ['Run tests.'])]);
    const other = mergeRecords(learned('other', 'check the forecast and file an issue', ['Open the PR.']), [source('s2', ['Warning: slow.'])]);
    const merged = mergeRecords(a, sourcesOf(other, { helpful: 0, harmful: 0, use_count: 0 }));
    assert.deepEqual(
      lineageOf(merged)!
        .merged_from.map((s) => s.name)
        .sort(),
      ['other', 's1', 's2'],
    );
    assert.ok(merged.steps.includes('Warning: slow.') && merged.steps.includes('Open the PR.'));
  });

  it('unite keeps first spelling and drops blank lines', () => {
    assert.deepEqual(unite(['Run tests.', ' '], ['run  tests', 'Deploy']), ['Run tests.', 'Deploy']);
  });

  it('merge index: identical hash wins, pack skills are never targets, below threshold is no match', () => {
    const index = new MergeIndex();
    const target = base();
    const pack = { ...learned('pack-one', target.trigger, target.steps), origin: 'pack' as const };
    const candidate = { trigger: target.trigger, steps: target.steps, source_hash: String(target.extra.source_hash) };
    index.sync([pack]);
    assert.equal(index.best(candidate, 0.9), undefined);
    index.sync([pack, target]);
    const match = index.best(candidate, 0.9);
    assert.equal(match?.record.name, 'weather');
    assert.equal(match?.identical, true);
    assert.equal(
      index.best(candidate, 0.9, (r) => r.name !== 'weather'),
      undefined,
      'accept filter (scope) honoured',
    );
    assert.equal(index.best({ trigger: 'rotate secrets', steps: ['Call vault.'], source_hash: 'x' }, 0.9), undefined);
    index.sync([]);
    assert.equal(index.best(candidate, 0.9), undefined, 'a removed record is gone');
  });

  it('property: the prefix-filtered index finds exactly what scoring every record finds', () => {
    const words = ['deploy', 'service', 'forecast', 'issue', 'create', 'weather', 'token', 'rotate', 'city', 'summary', 'branch', 'test'];
    const text = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
    const skill = fc.record({ trigger: text, steps: fc.array(text, { minLength: 1, maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(skill, { maxLength: 25 }), skill, fc.constantFrom(0.5, 0.7, 0.9, 1), (skills, query, threshold) => {
        const records = skills.map((s, i) => learned(`s${i}`, s.trigger, s.steps, { created_at: i }));
        const index = new MergeIndex();
        index.sync(records);
        const got = index.best({ ...query, source_hash: 'none' }, threshold);
        const q = termVector(query.trigger, query.steps);
        const scores = records.map((r) => similarity(q, termVector(r.trigger, r.steps))).filter((x) => x >= threshold);
        assert.equal(got?.score, scores.length ? Math.max(...scores) : undefined);
      }),
      { numRuns: 300 },
    );
  });
});
