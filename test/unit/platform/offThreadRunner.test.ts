import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { OFF_THREAD_MIN_CHARS, OffThreadRunner } from '../../../src/core/platform/offThreadRunner';
import { offThreadSkillParse, SKILL_PARSE_JOB } from '../../../src/core/skills/packs/document/offThreadParser';
import { parseSkillDocument } from '../../../src/core/skills/packs/document/skillDocumentParser';
import { offThreadToolExamplesParse } from '../../../src/core/tools/examples/offThreadExamples';
import { parseToolExamplesFile } from '../../../src/core/tools/examples/toolExamples';
import { buildParseWorker } from './parseWorkerBuild';
import { tempFolder } from '../../tempFolder';

/**
 * Large skill and tool-example files parse on a real worker thread (the bundle VS Code loads,
 * built here the way esbuild.mjs builds it): same result as inline, and the event loop keeps
 * turning meanwhile.
 */
describe('parsing large files off the main thread', function () {
  this.timeout(60_000);
  let folder: string;
  let script: string;

  before(async () => {
    folder = tempFolder('toolshed-parse-worker-');
    script = await buildParseWorker(folder);
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  // 20,000 unknown keys: ~0.3 s of YAML parsing, and problems with spans to carry back.
  // Runners that are not about the timeout get one no loaded machine reaches (the default, 15 s,
  // was passed by the relaxed parse at load 39): these tests check results, not speed.
  const UNHURRIED_MS = 600_000;
  const hostile = `trigger: Rotate the keys\nsteps: [Rotate them.]\n${Array.from({ length: 20_000 }, (_, i) => `k${i}: v`).join('\n')}\n`;
  const examples = `examples:\n${Array.from({ length: 6_000 }, (_, i) => `  tool_${i % 5_000}:\n    - args: { q: "x${i}" }\n`).join('')}`;

  /** Runs `work` with a zero-delay timer beside it; how many times the timer fired meanwhile. */
  async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    try {
      return { result: await work(), turns };
    } finally {
      clearInterval(ticker);
    }
  }

  it("a skill file: the inline parser's result, while the event loop keeps turning", async () => {
    const runner = new OffThreadRunner(script, new MemoryLogger(), UNHURRIED_MS);
    try {
      const { result, turns } = await turnsDuring(() => offThreadSkillParse(runner)(hostile, 'keys.skill.yaml', { packName: 'p' }));
      assert.ok(turns > 0, 'timers ran while the file was parsed');
      assert.deepEqual(result, parseSkillDocument(hostile, 'keys.skill.yaml', { packName: 'p' }));
      assert.equal(result.skills.length, 1);
      assert.ok(result.problems.length > 0, 'the unknown keys are reported');
      assert.equal(runner.offThreadCount, 1);
    } finally {
      runner.dispose();
    }
  });

  it("a *.tools.yaml: the inline parser's result (duplicates reported), while the event loop keeps turning", async () => {
    const runner = new OffThreadRunner(script, new MemoryLogger(), UNHURRIED_MS);
    try {
      assert.ok(examples.length > OFF_THREAD_MIN_CHARS);
      const { result, turns } = await turnsDuring(() => offThreadToolExamplesParse(runner)(examples, 'big.tools.yaml'));
      assert.ok(turns > 0);
      assert.deepEqual(result, parseToolExamplesFile(examples, 'big.tools.yaml'));
      assert.equal(Object.keys(result.examples).length, 5_000);
      assert.match(result.problems[0] ?? '', /1000 tools are listed twice/);
    } finally {
      runner.dispose();
    }
  });

  it('small files parse inline; without the worker script everything parses inline (logged once)', async () => {
    const logger = new MemoryLogger();
    const runner = new OffThreadRunner(path.join(folder, 'missing.js'), logger);
    const parse = offThreadSkillParse(runner);
    const small = 'trigger: Small\nsteps: [Do it.]\n';
    assert.deepEqual(await parse(small, 'a.skill.yaml', {}), parseSkillDocument(small, 'a.skill.yaml', {}));
    assert.deepEqual(await parse(hostile, 'b.skill.yaml', {}), parseSkillDocument(hostile, 'b.skill.yaml', {}));
    await parse(hostile, 'c.skill.yaml', {});
    assert.equal(runner.offThreadCount, 0);
    assert.equal(logger.lines.filter((e) => e.level === 'warn' && /main thread/.test(e.message)).length, 1);
    runner.dispose();
  });

  it('a parse that outlives the timeout ends the worker and becomes an error on that file; the next file parses', async () => {
    const logger = new MemoryLogger();
    const hasty = new OffThreadRunner(script, logger, 1);
    const relaxed = new OffThreadRunner(script, logger, UNHURRIED_MS);
    try {
      const result = await offThreadSkillParse(hasty)(hostile, 'slow.skill.yaml', {});
      assert.deepEqual(result.skills, []);
      assert.match(result.problems[0]?.message ?? '', /took longer than .* and was stopped/);
      assert.equal(result.problems[0]?.file, 'slow.skill.yaml');
      assert.equal((await offThreadSkillParse(relaxed)(hostile, 'next.skill.yaml', {})).skills.length, 1);
    } finally {
      hasty.dispose();
      relaxed.dispose();
    }
  });

  it("a worker ended after a timeout does not take its successor's jobs: each file is parsed once, on the new thread", async () => {
    const runner = new OffThreadRunner(script, new MemoryLogger(), UNHURRIED_MS);
    let inlineParses = 0;
    const job = (file: string, timeoutMs?: number) => ({
      kind: SKILL_PARSE_JOB,
      args: [hostile, file, {}],
      inline: () => {
        inlineParses++;
        return parseSkillDocument(hostile, file, {});
      },
      timedOut: () => undefined,
      timeoutMs,
    });
    try {
      // The first parse times out: its worker is being ended when the next file arrives, so the
      // next file goes to a new worker while the old one's exit is still to come.
      assert.equal(await runner.run(job('slow.skill.yaml', 1)), undefined);
      const next = await runner.run(job('next.skill.yaml'));
      assert.equal(next?.skills.length, 1);
      assert.equal(runner.offThreadCount, 1, 'the new worker answered');
      assert.equal(inlineParses, 0, 'nothing was parsed a second time on the main thread');
    } finally {
      runner.dispose();
    }
  });

  it('concurrent files each get their own result', async () => {
    const runner = new OffThreadRunner(script, new MemoryLogger(), UNHURRIED_MS);
    try {
      const texts = [0, 1, 2].map((n) => `name: skill-${n}\ntrigger: Task ${n}\nsteps: [Do ${n}.]\n${'# padding\n'.repeat(8_000)}`);
      const parse = offThreadSkillParse(runner);
      const results = await Promise.all(texts.map((text, n) => parse(text, `s${n}.skill.yaml`, {})));
      assert.deepEqual(
        results.map((r) => r.skills.map((s) => s.name)),
        [['skill-0'], ['skill-1'], ['skill-2']],
      );
      assert.equal(runner.offThreadCount, 3);
    } finally {
      runner.dispose();
    }
  });
});
