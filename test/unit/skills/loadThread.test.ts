import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import fc from 'fast-check';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { OffThreadRunner } from '../../../src/core/platform/offThreadRunner';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import { LOAD_THREAD_LIMITS } from '../../../src/core/skills/packs/offThreadLoad';
import type { ResolvedSkillPack } from '../../../src/core/skills/packs/skillPackSources';
import { ctx, engine, pack, tempDir, writeTree } from './helpers';

/**
 * A cold load reads, parses and analyses its next batch on a load thread (the worker script as
 * esbuild.mjs bundles it) while it writes this one (packs/offThreadLoad.ts). What it loads must
 * be what a load on one thread loads — the same records, problems, and search results and
 * scores (the terms) — and a thread that dies or hangs mid-load must cost nothing.
 */
describe('skills: a load that reads on a load thread', function () {
  this.timeout(120_000);
  let folder: string;
  let script: string;

  before(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'toolshed-load-thread-'));
    script = path.join(folder, 'parseWorker.js');
    await esbuild.build({
      entryPoints: [path.join(__dirname, '../../../src/workers/parseWorker.ts')],
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'silent',
    });
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  /** The worker script, answering its first `answered` jobs and then `then` at the next (a thread that dies or hangs mid-load). */
  function failingScript(answered: number, then: 'exit' | 'hang'): string {
    const file = path.join(folder, `failing-${answered}-${then}.js`);
    const fail = then === 'exit' ? 'process.exit(1)' : 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)';
    writeFileSync(
      file,
      `require(${JSON.stringify(script)});\nlet jobs = 0;\nrequire('node:worker_threads').parentPort.on('message', () => { if (++jobs > ${answered}) ${fail}; });\n`,
    );
    return file;
  }

  const NAMES = ['deploy', 'rotate-keys', 'archive', 'triage', 'release', 'backup', 'Ünïcode-naïve'];
  const WORDS = ['invoice', 'Rotate', 'keys', 'deployment', 'kubectl', 'pdf', 'forms', 'naïve', 'ﬁle', 'café', 'x2', 'camelCaseWord', 'the', 'a', '日本'];
  const QUERIES = ['rotate keys', 'deploy invoice pdf', 'naive cafe file', 'camel case word', 'triage backup x2', '日本 forms'];

  const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((words) => words.join(' '));
  const skillFile = fc.record({ name: fc.constantFrom(...NAMES), description: text, body: text, tags: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }) });
  /** Two packs of SKILL.md folders (a name defined twice is a duplicate: the first in load order wins). */
  const library = fc.array(fc.array(skillFile, { minLength: 1, maxLength: 14 }), { minLength: 2, maxLength: 2 });

  function writeLibrary(roots: readonly string[], lib: ReadonlyArray<ReadonlyArray<{ name: string; description: string; body: string; tags: string[] }>>) {
    lib.forEach((files, p) =>
      files.forEach((skill, i) =>
        writeTree(roots[p]!, {
          [`s${String(i).padStart(2, '0')}/SKILL.md`]: `---\nname: ${skill.name}\ndescription: ${JSON.stringify(skill.description || 'none')}\ntags: [${skill.tags.join(', ')}]\n---\n${skill.body}\n`,
          // Resource files are part of a skill's content hash.
          ...(i % 3 === 0 ? { [`s${String(i).padStart(2, '0')}/scripts/run.sh`]: 'echo run\n' } : {}),
        }),
      ),
    );
  }

  /** What a user sees of a load: problems, each name's record (no times), search results with scores. */
  async function load(packs: readonly ResolvedSkillPack[], roots: readonly string[], batchFiles: number, runner?: OffThreadRunner) {
    const service = await createHeadlessSkillService({
      engine: await engine(),
      store: new MemoryByteStore(),
      loadBatchFiles: batchFiles,
      ...(runner ? { loadThread: runner } : {}),
    });
    try {
      const summary = await service.loadPacks(packs);
      const rel = (s: string) => roots.reduce((t, root, p) => t.split(root).join(`<${p}>`), s);
      const problems = summary.problems.map((p) => rel(`${p.severity} ${p.code} ${p.file}:${p.line} ${p.message}`)).sort();
      const records = NAMES.map((name) => {
        const record = service.inspect(name);
        if (!record) return `${name} -`;
        const { created_at: _c, updated_at: _u, ...rest } = record;
        return rel(JSON.stringify(rest));
      });
      const searches = [];
      for (const query of QUERIES) searches.push((await service.search({ query, limit: 5 }, ctx)).skills.map((s) => `${s.name} ${JSON.stringify(s)}`));
      return { problems, records, searches, skillCount: summary.packs.reduce((n, p) => n + p.skillCount, 0) };
    } finally {
      await service.dispose();
    }
  }

  it('property: the same records, problems and search results (scores too) as a load on one thread', async () => {
    const runner = new OffThreadRunner(script, new MemoryLogger(), 600_000, LOAD_THREAD_LIMITS);
    try {
      await fc.assert(
        fc.asyncProperty(library, fc.integer({ min: 1, max: 3 }), async (lib, batchFiles) => {
          const roots = [tempDir(), tempDir()];
          try {
            writeLibrary(roots, lib);
            const packs = roots.map((root, p) => pack(`p${p}`, root));
            const before = runner.offThreadCount;
            const threaded = await load(packs, roots, batchFiles, runner);
            if (lib.flat().length >= 4 * batchFiles) assert.ok(runner.offThreadCount > before, 'the load read on its thread');
            assert.deepEqual(threaded, await load(packs, roots, batchFiles));
          } finally {
            for (const root of roots) rmSync(root, { recursive: true, force: true });
          }
        }),
        { numRuns: 20, timeout: 15000, endOnFailure: true },
      );
    } finally {
      runner.dispose();
    }
  });

  it('a cancelled load keeps the batches it wrote, and the next load (on its thread) reads only the rest', async () => {
    const root = tempDir();
    writeTree(
      root,
      Object.fromEntries(
        Array.from({ length: 40 }, (_, i) => [`s${String(i).padStart(2, '0')}/SKILL.md`, `---\nname: s${i}\ndescription: Skill ${i}\n---\nDo ${i}.\n`]),
      ),
    );
    // Written well before the loads: a warm start trusts them (a folder changed within 2 s is listed again).
    const when = new Date(Date.now() - 3_600_000);
    for (let i = 0; i < 40; i++) utimesSync(path.join(root, `s${String(i).padStart(2, '0')}`, 'SKILL.md'), when, when);
    const packs = [pack('t', root)];
    const bytes = new MemoryByteStore();
    const runner = new OffThreadRunner(script, new MemoryLogger(), 600_000, LOAD_THREAD_LIMITS);
    try {
      const first = await createHeadlessSkillService({ engine: await engine(), store: bytes, loadBatchFiles: 4, loadThread: runner });
      let progressed = 0;
      const cancelled = await first.loadPacks(packs, {
        onProgress: () => progressed++,
        cancellation: {
          get isCancellationRequested() {
            return progressed >= 10;
          },
        },
      });
      assert.equal(cancelled.cancelled, true);
      assert.ok(runner.offThreadCount > 0, 'the load read on its thread');
      const kept = Array.from({ length: 40 }, (_, i) => `s${i}`).filter((name) => first.inspect(name) !== undefined);
      // Batches of 4: the third batch's progress cancels the load, so the two before it are written.
      assert.deepEqual(kept, ['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7']);
      // No dispose: what the next start finds is what the cancelled load saved.
      const next = await createHeadlessSkillService({ engine: await engine(), store: bytes, loadBatchFiles: 4, loadThread: runner });
      const summary = await next.loadPacks(packs);
      assert.equal(summary.unchangedFiles, 8);
      assert.equal(summary.packs[0]?.skillCount, 40);
      assert.equal(next.inspect('s39')?.description, 'Skill 39');
      await next.dispose();
      await first.dispose();
    } finally {
      runner.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });

  for (const then of ['exit', 'hang'] as const) {
    it(`a thread that ${then === 'exit' ? 'dies' : 'hangs'} after its first batch loses nothing: the rest is read on the main thread`, async () => {
      const roots = [tempDir(), tempDir()];
      const lib = [
        NAMES.map((name, i) => ({ name, description: `${WORDS[i]} ${WORDS[i + 1]}`, body: WORDS.join(' '), tags: [WORDS[i + 2]!] })),
        NAMES.map((name, i) => ({ name, description: WORDS[i + 3]!, body: 'other', tags: [] })),
      ];
      writeLibrary(roots, lib);
      const packs = roots.map((root, p) => pack(`p${p}`, root));
      const logger = new MemoryLogger();
      // A hang is ended by the runner's timeout: short here, so the test does not wait long for it.
      const runner = new OffThreadRunner(failingScript(1, then), logger, then === 'hang' ? 1_000 : 600_000, LOAD_THREAD_LIMITS);
      try {
        const got = await load(packs, roots, 2, runner);
        assert.equal(runner.offThreadCount, 1, 'the first batch came from the thread');
        assert.deepEqual(got, await load(packs, roots, 2));
        assert.equal(got.skillCount, NAMES.length);
      } finally {
        runner.dispose();
        for (const root of roots) rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
