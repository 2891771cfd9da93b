import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { lineageOf } from '../../../src/core/learning/merge/lineage';
import { MAX_SNAPSHOT_BYTES, SnapshotError } from '../../../src/core/learning/snapshot/snapshot';
import type { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { pack, stepSkill, tempDir, writeTree } from '../skills/helpers';
import { makeLearning, turn } from './helpers';
import type { LearningHarness } from './helpers';

const WEATHER = 'fixture_weather_forecast';
const ISSUE = 'fixture_create_issue';
const DEPLOY = 'fixture_deploy_service';
const calls = (tool: string, n: number) => Array.from({ length: n }, (_, i) => ({ tool, input: { i }, ok: true }));
const weather = (request: string, sessionId: string) =>
  turn(request, [...calls(WEATHER, 2), { tool: ISSUE, input: { title: 'x' }, ok: true }], { sessionId, at: sessionId.length });

/** A store with: a merged learned skill (lineage 2) with counters, a plain learned skill, a pending proposal. */
async function populated(): Promise<LearningHarness> {
  const h = await makeLearning();
  const a = (await h.learning.ingest(weather('Check the weather forecast in Oslo and Bergen, then create an issue with the summary', 'a'))).proposal!;
  const b = (await h.learning.ingest(weather('check weather forecast for Oslo and Bergen then create issue with summary', 'bb'))).proposal!;
  const c = (await h.learning.ingest(turn('Deploy the billing service to staging and verify it', calls(DEPLOY, 2), { sessionId: 'ccc', at: 5 }))).proposal!;
  await h.learning.ingest(
    turn(
      'Rotate the API token of the mail service and restart it',
      [
        { tool: 'fixture_rotate_token', input: {}, ok: true },
        { tool: 'fixture_restart', input: {}, ok: true },
      ],
      { sessionId: 'dddd', at: 6 },
    ),
  );
  await h.learning.approve(a.id);
  await h.learning.approve(b.id);
  await h.learning.approve(c.id);
  await h.learning.recordOutcome([a.candidate.name], 'helpful');
  await h.learning.recordOutcome([a.candidate.name, c.candidate.name], 'harmful');
  return h;
}

function storeBytes(bytes: MemoryByteStore): Map<string, string> {
  return new Map([...bytes.entries].map(([key, value]) => [key, Buffer.from(value).toString('base64')]));
}

const encode = (text: string) => new TextEncoder().encode(text);

describe('learned-skill snapshots: export → import, refusals that change nothing', () => {
  it('export → import into an empty store keeps every field, counter and lineage entry', async () => {
    const source = await populated();
    const exported = source.learning.exportSnapshot('9.9.9');
    assert.equal(exported.learned, 2);
    const header = JSON.parse(exported.text.split('\n')[0]!);
    assert.deepEqual(
      { format: header.format, version: header.version, toolshed_version: header.toolshed_version, counts: header.counts },
      { format: 'toolshed-learned-skills', version: 1, toolshed_version: '9.9.9', counts: { learned: 2, proposals: 4 } },
    );

    const target = await makeLearning();
    const report = await target.learning.importSnapshot(encode(exported.text));
    assert.equal(report.added.length, 2);
    assert.deepEqual(report.conflicts, []);
    const sort = (records: ReturnType<typeof source.service.learnedSkills>) => [...records].sort((x, y) => x.name.localeCompare(y.name));
    assert.deepEqual(sort(target.service.learnedSkills()), sort(source.service.learnedSkills()));
    const merged = target.service.learnedSkills().find((r) => lineageOf(r));
    assert.equal(lineageOf(merged!)!.source_hashes.length, 2);
    for (const record of source.service.learnedSkills()) assert.deepEqual(target.learning.counters(record.name), source.learning.counters(record.name));
    assert.deepEqual(target.learning.proposals(), source.learning.proposals());
    const byId = (list: ReturnType<typeof source.learning.approvedLessons>) => [...list].sort((x, y) => x.id.localeCompare(y.id));
    assert.deepEqual(byId(target.learning.approvedLessons()), byId(source.learning.approvedLessons()));
    // And the imported lineage still undoes.
    const hash = lineageOf(merged!)!.merged_from[0]!.source_hash;
    assert.ok(await target.learning.unmerge(merged!.name, hash));
    assert.equal(lineageOf(target.service.inspect(merged!.name)!), undefined);
  });

  it('importing the same snapshot twice changes nothing the second time; a paraphrase here merges', async () => {
    const source = await populated();
    const text = source.learning.exportSnapshot('1').text;
    const target = await makeLearning();
    await target.learning
      .ingest(weather('Check the weather forecast in Oslo and Bergen, then create an issue with the summary', 'zz'))
      .then(({ proposal }) => target.learning.approve(proposal!.id, { name: 'my-weather' }));
    const first = await target.learning.importSnapshot(encode(text));
    assert.deepEqual(
      first.merged.map((m) => m.into),
      ['my-weather'],
    );
    const after = storeBytes(target.bytes);
    const second = await target.learning.importSnapshot(encode(text));
    assert.equal(second.added.length + second.merged.length, 0, JSON.stringify(second));
    assert.equal(second.proposalsAdded, 0);
    assert.deepEqual(storeBytes(target.bytes), after);
  });

  async function refused(text: string | Uint8Array, message: RegExp, setup?: (h: LearningHarness) => Promise<void>): Promise<void> {
    const h = await populated();
    await setup?.(h);
    await h.service.save();
    await h.store.save();
    const before = storeBytes(h.bytes);
    await assert.rejects(h.learning.importSnapshot(typeof text === 'string' ? encode(text) : text), (error: Error) => {
      assert.ok(error instanceof SnapshotError, `a SnapshotError, got ${error.name}`);
      assert.match(error.message, message);
      return true;
    });
    assert.deepEqual(storeBytes(h.bytes), before, 'store bytes unchanged');
  }

  it('a truncated snapshot is refused and the store is byte-for-byte unchanged', async () => {
    const text = (await populated()).learning.exportSnapshot('1').text;
    await refused(text.slice(0, Math.floor(text.length * 0.6)), /not valid JSON|truncated/);
    const lines = text.split('\n');
    await refused(`${lines.slice(0, -2).join('\n')}\n`, /truncated or incomplete: its header lists 2 learned skill\(s\) and 4 proposal\(s\)/);
  });

  it('a corrupt line, a non-snapshot, a damaged header: one clear message each, store unchanged', async () => {
    const text = (await populated()).learning.exportSnapshot('1').text;
    const lines = text.split('\n');
    await refused(
      [lines[0], '{"kind":"learned","record":{"name":42}}', ...lines.slice(2)].join('\n'),
      /Line 2 of the snapshot is not a learned skill or proposal/,
    );
    await refused('{"hello":"world"}\n', /not a Toolshed learned-skills snapshot/);
    await refused(`${JSON.stringify({ ...JSON.parse(lines[0]!), counts: 'many' })}\n`, /header is damaged \(counts/);
    await refused(new Uint8Array([0xff, 0xfe, 0x00, 0x41]), /not UTF-8/);
  });

  it('a snapshot from a newer version is refused, naming both versions', async () => {
    const text = (await populated()).learning.exportSnapshot('1').text;
    const lines = text.split('\n');
    await refused(
      [JSON.stringify({ ...JSON.parse(lines[0]!), version: 2, toolshed_version: '3.0.0' }), ...lines.slice(1)].join('\n'),
      /format version 2 \(written by Toolshed 3\.0\.0\); this Toolshed reads up to version 1\. Update Toolshed/,
    );
  });

  it('duplicate names inside one snapshot are refused', async () => {
    const text = (await populated()).learning.exportSnapshot('1').text;
    const lines = text.split('\n');
    const header = JSON.parse(lines[0]!);
    const doubled = [JSON.stringify({ ...header, counts: { ...header.counts, learned: 3 } }), lines[1], lines[1], ...lines.slice(2)].join('\n');
    await refused(doubled, /names a learned skill twice in one scope: /);
  });

  it('a 50 MB snapshot is refused before it is parsed', async () => {
    const big = new Uint8Array(50 * 1024 * 1024).fill(0x20);
    assert.ok(big.byteLength > MAX_SNAPSHOT_BYTES);
    await refused(big, /50\.0 MB; the limit is 32 MB/);
  });

  it('names that collide with pack skills are refused (pack skills are never overwritten)', async () => {
    const source = await populated();
    const text = source.learning.exportSnapshot('1').text;
    const name = source.service.learnedSkills()[0]!.name;
    await refused(text, new RegExp(`pack skill is already named "${name}"`), async (h) => {
      await h.service.removeLearnedSkill(name);
      const root = tempDir();
      writeTree(root, { 'p.skill.yaml': stepSkill(name, 'a pack skill', ['Pack step.']) });
      await h.service.loadPacks([pack('team', root)]);
    });
  });

  it('property: hostile bytes either import cleanly or are refused with a SnapshotError and no change', async () => {
    const h = await makeLearning();
    const valid = (await populated()).learning.exportSnapshot('1').text;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc
            .tuple(fc.nat(valid.length), fc.nat(valid.length), fc.string({ maxLength: 20 }))
            .map(([at, cut, junk]) => encode(valid.slice(0, Math.min(at, cut)) + junk + valid.slice(Math.max(at, cut) + 1))),
        ),
        async (bytes) => {
          const before = storeBytes(h.bytes);
          try {
            await h.learning.importSnapshot(bytes);
          } catch (error) {
            assert.ok(error instanceof SnapshotError, String(error));
            assert.deepEqual(storeBytes(h.bytes), before);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
