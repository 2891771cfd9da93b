import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { OFF_THREAD_MIN_CHARS, OffThreadSkillParser } from '../../../src/core/skills/packs/document/offThreadParser';
import { parseSkillDocument } from '../../../src/core/skills/packs/document/skillDocumentParser';

/**
 * Large skill files parse on a real worker thread (the bundle VS Code loads, built here the way
 * esbuild.mjs builds it): same result as inline, and the event loop keeps turning meanwhile.
 */
describe('skill files parsed off the main thread', function () {
  this.timeout(60_000);
  let folder: string;
  let script: string;

  before(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'toolshed-parse-worker-'));
    script = path.join(folder, 'skillParseWorker.js');
    await esbuild.build({ entryPoints: [path.join(__dirname, '../../../src/core/skills/packs/document/skillParseWorker.ts')], outfile: script, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'silent' });
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  // 20,000 unknown keys: ~0.3 s of YAML parsing, and problems with spans to carry back.
  const hostile = `trigger: Rotate the keys\nsteps: [Rotate them.]\n${Array.from({ length: 20_000 }, (_, i) => `k${i}: v`).join('\n')}\n`;

  it('gives the inline parser\'s result while the event loop keeps turning', async () => {
    const parser = new OffThreadSkillParser(script, new MemoryLogger());
    try {
      let turns = 0;
      const ticker = setInterval(() => turns++, 0);
      const result = await parser.parse(hostile, 'keys.skill.yaml', { packName: 'p' });
      clearInterval(ticker);
      assert.ok(turns > 0, 'timers ran while the file was parsed');
      assert.deepEqual(result, parseSkillDocument(hostile, 'keys.skill.yaml', { packName: 'p' }));
      assert.equal(result.skills.length, 1);
      assert.ok(result.problems.length > 0, 'the unknown keys are reported');
    } finally {
      parser.dispose();
    }
  });

  it('parses small files inline, and everything inline when the worker script is missing (logged once)', async () => {
    const logger = new MemoryLogger();
    const parser = new OffThreadSkillParser(path.join(folder, 'missing.js'), logger);
    const small = 'trigger: Small\nsteps: [Do it.]\n';
    assert.ok(small.length < OFF_THREAD_MIN_CHARS);
    assert.deepEqual(await parser.parse(small, 'a.skill.yaml', {}), parseSkillDocument(small, 'a.skill.yaml', {}));
    assert.deepEqual(await parser.parse(hostile, 'b.skill.yaml', {}), parseSkillDocument(hostile, 'b.skill.yaml', {}));
    await parser.parse(hostile, 'c.skill.yaml', {});
    assert.equal(logger.lines.filter((e) => e.level === 'warn' && /main thread/.test(e.message)).length, 1);
    parser.dispose();
  });

  it('a parse that outlives the timeout ends the worker and becomes an error on that file; the next file parses', async () => {
    const logger = new MemoryLogger();
    const parser = new OffThreadSkillParser(script, logger, 1);
    try {
      const result = await parser.parse(hostile, 'slow.skill.yaml', {});
      assert.deepEqual(result.skills, []);
      assert.match(result.problems[0]?.message ?? '', /took longer than .* and was stopped/);
      assert.equal(result.problems[0]?.file, 'slow.skill.yaml');
      const relaxed = new OffThreadSkillParser(script, logger);
      assert.equal((await relaxed.parse(hostile, 'next.skill.yaml', {})).skills.length, 1);
      relaxed.dispose();
    } finally {
      parser.dispose();
    }
  });

  it('concurrent files each get their own result', async () => {
    const parser = new OffThreadSkillParser(script, new MemoryLogger());
    try {
      const texts = [0, 1, 2].map((n) => `name: skill-${n}\ntrigger: Task ${n}\nsteps: [Do ${n}.]\n${'# padding\n'.repeat(8_000)}`);
      const results = await Promise.all(texts.map((text, n) => parser.parse(text, `s${n}.skill.yaml`, {})));
      assert.deepEqual(results.map((r) => r.skills.map((s) => s.name)), [['skill-0'], ['skill-1'], ['skill-2']]);
    } finally {
      parser.dispose();
    }
  });
});
