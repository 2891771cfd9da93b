import { strict as assert } from 'node:assert';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { OffThreadRunner } from '../../../src/core/platform/offThreadRunner';
import type { CountedFields } from '../../../src/core/search/countedFields';
import { TextAnalyzer } from '../../../src/core/search/textAnalysis';
import { TermVocabulary } from '../../../src/core/search/termStore';
import { TermSession, ThreadTermCounter } from '../../../src/core/search/threadTerms';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import { offThreadSkillTerms } from '../../../src/core/skills/packs/offThreadSkillTerms';
import { countedTerms } from '../../../src/core/skills/store/skillRows';
import { ctx, engine, pack, skillRecord, tempDir, writeTree } from './helpers';
import { buildParseWorker } from '../platform/parseWorkerBuild';
import { tempFolder } from '../../tempFolder';

/**
 * A load whose skills' terms are counted on a parser thread (offThreadSkillTerms.ts), in that
 * thread's own vocabulary, then relabelled to the store's. What a user relies on: the same
 * skills, problems and search answers as a load that analyses them itself.
 */

/** Each field's terms and counts by name (field order kept): what a counted document says, whatever its ids. */
function byTerm(counted: CountedFields, vocabulary: TermVocabulary): Array<Array<[string, number]>> {
  const out: Array<Array<[string, number]>> = [];
  let at = 0;
  for (const end of counted.fieldEnds) {
    const field: Array<[string, number]> = [];
    for (; at < end; at++) field.push([vocabulary.term(counted.ids[at] as number) as string, counted.counts[at] as number]);
    out.push(field.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  }
  return out;
}

function ascendingRuns(counted: CountedFields): boolean {
  let at = 0;
  for (const end of counted.fieldEnds) {
    for (at++; at < end; at++) if ((counted.ids[at] as number) <= (counted.ids[at - 1] as number)) return false;
    at = end;
  }
  return true;
}

const words = fc.constantFrom('deploy', 'Deploys', 'the', 'review', 'pull', 'request', 'getUserById', 'café', 'of', 'PDF', 'x86_64', 'zeta', 'alpha');
const sentence = fc.array(words, { maxLength: 10 }).map((w) => w.join(' '));
const skill = fc.record({ name: sentence, title: sentence, trigger: sentence, description: sentence, body: sentence, tags: fc.array(words, { maxLength: 3 }) });

describe('terms counted on another thread (TermSession)', () => {
  it('relabelled, are the terms and counts the store would count itself, each field by ascending id (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(skill, { minLength: 1, maxLength: 8 }), fc.array(words, { maxLength: 6 }), fc.nat(7), (drawn, known, clearAt) => {
        // The other thread: its own analyser and vocabulary, each reply's new terms sent with it.
        const theirs = new ThreadTermCounter();
        const session = new TermSession(theirs.session);
        // Here: a store vocabulary that already holds terms (in another order), cleared once on the way.
        const own = new TermVocabulary();
        for (const word of known) own.idOf(word.toLowerCase());
        const ownAnalyzer = new TextAnalyzer();
        drawn.forEach((fields, i) => {
          const record = skillRecord(fields);
          const counted = countedTerms(record, theirs.analyzer, theirs.ids);
          session.learn(theirs.added());
          if (i === clearAt) own.clear();
          const relabelled = session.relabel(counted, own);
          assert.ok(ascendingRuns(relabelled), 'each field by ascending id, as the stored form needs');
          const here = countedTerms(record, ownAnalyzer, own);
          assert.deepEqual(byTerm(relabelled, own), byTerm(here, own));
          assert.deepEqual([...relabelled.fieldEnds], [...here.fieldEnds]);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses an id whose term was never sent (the store then analyses the skill itself)', () => {
    const session = new TermSession('worker-1');
    const counted = { ids: Uint32Array.of(3), counts: Uint32Array.of(1), fieldEnds: Uint32Array.of(1) };
    assert.throws(() => session.relabel(counted, new TermVocabulary()), /never sent/);
  });
});

describe('a load with its terms counted on the parser thread', function () {
  this.timeout(60_000);
  let folder: string;
  let script: string;

  before(async () => {
    folder = tempFolder('toolshed-load-worker-');
    script = await buildParseWorker(folder);
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  const skillMd = (name: string, description: string, body: string, extra = '') =>
    `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\n${body}\n`;

  /** A library with what a real one holds: plain skills, warnings, errors, a duplicate, a binary file, a link, shared and rare words. */
  function library(root: string): void {
    const files: Record<string, string | Uint8Array> = {};
    for (let i = 0; i < 40; i++) {
      files[`repo-${i % 3}/skill-${i}/SKILL.md`] = skillMd(
        `skill-${i}`,
        `Deploy the service number ${i} and review the pull request`,
        `Run the build. Check getUserById for user ${i}. Word${i} café PDF x86_64.`,
        i % 5 === 0 ? `unknown_${i}: yes\n` : '',
      );
    }
    files['repo-0/dupe/SKILL.md'] = skillMd('skill-3', 'A second definition of skill-3', 'Other body.');
    files['repo-1/broken/SKILL.md'] = '---\nname: broken\ndescription: [unterminated\n---\nbody\n';
    files['repo-1/no-description/SKILL.md'] = '---\nname: no-description\n---\nJust a body.\n';
    files['repo-2/binary/SKILL.md'] = Uint8Array.of(0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01);
    writeTree(root, files);
    symlinkSync(path.join(root, 'repo-0', 'skill-0', 'SKILL.md'), path.join(root, 'repo-2', 'linked.md'));
    writeFileSync(path.join(root, 'repo-2', 'linked-skill.md'), skillMd('linked-skill', 'Rotate the signing keys', 'Rotate them.'));
  }

  async function load(root: string, runner?: OffThreadRunner) {
    const service = await createHeadlessSkillService({
      engine: await engine(),
      store: new MemoryByteStore(),
      config: { redactPii: false },
      ...(runner ? { countTerms: offThreadSkillTerms(runner) } : {}),
      loadBatchFiles: 4,
    });
    const summary = await service.loadPacks([pack('lib', root)]);
    const answers = [];
    for (const query of ['deploy the service', 'review a pull request for user 7', 'word12 café', 'rotate signing keys', 'x86_64 pdf build']) {
      answers.push(await service.search({ query, limit: 10 }, ctx));
    }
    const names = [...Array.from({ length: 40 }, (_, i) => `skill-${i}`), 'linked-skill', 'broken', 'no-description'];
    const records = names.map((name) => service.inspect(name)).filter((r) => r !== undefined);
    await service.dispose();
    return { problems: summary.problems, packs: summary.packs, answers, records: records.map((r) => ({ ...r, created_at: 0, updated_at: 0 })) };
  }

  it('stores the same skills, reports the same problems and answers every search as a load that analyses them itself', async () => {
    const root = tempDir();
    library(root);
    const runner = new OffThreadRunner(script, new MemoryLogger(), 600_000);
    try {
      const here = await load(root);
      const there = await load(root, runner);
      assert.ok(runner.offThreadCount >= 10, `the terms were counted on the parser thread, a job per batch of 4 files (${runner.offThreadCount} jobs)`);
      assert.ok(here.records.length >= 40 && here.problems.length > 0, 'the library loads skills and problems');
      assert.deepEqual(there.problems, here.problems);
      assert.deepEqual(there.packs, here.packs);
      assert.deepEqual(there.records, here.records);
      assert.deepEqual(there.answers, here.answers);
    } finally {
      runner.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('without its script (no thread starts), loads the same on this thread', async () => {
    const root = tempDir();
    library(root);
    const logger = new MemoryLogger();
    const runner = new OffThreadRunner(path.join(folder, 'missing.js'), logger);
    try {
      const here = await load(root);
      const fallback = await load(root, runner);
      assert.equal(runner.offThreadCount, 0);
      assert.deepEqual(fallback.records, here.records);
      assert.deepEqual(fallback.answers, here.answers);
    } finally {
      runner.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
