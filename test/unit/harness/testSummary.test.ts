import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempFolder } from '../../tempFolder';

const SCRIPTS = path.join(__dirname, '..', '..', '..', 'scripts');

interface Layer {
  layer: string;
  passed: number;
  failed: number;
  failedTitles?: string[];
}
async function summary(): Promise<{ summaryLines(layers: Layer[]): string[] }> {
  return (await import(pathToFileURL(path.join(SCRIPTS, 'testSummary.mjs')).href)) as { summaryLines(layers: Layer[]): string[] };
}

// `npm test` once ended "684 passed, 3 failed" and nothing else: nobody could tell what broke.
describe('npm test: the final summary names the failing tests', () => {
  it('lists every failing test of every layer, and the summary line names them', async () => {
    const { summaryLines } = await summary();
    const lines = summaryLines([
      { layer: 'lint', passed: 1, failed: 0 },
      { layer: 'unit', passed: 500, failed: 1, failedTitles: ['skills: store › keeps every skill'] },
      { layer: 'host', passed: 180, failed: 2, failedTitles: ['in-host › chat › answers', 'page check › chat.mjs › chatShowsAnswer'] },
      { layer: 'package', passed: 3, failed: 0 },
    ]);
    assert.deepEqual(lines, [
      'Failed:',
      '  ✗ unit: skills: store › keeps every skill',
      '  ✗ host: in-host › chat › answers',
      '  ✗ host: page check › chat.mjs › chatShowsAnswer',
      '684 passed, 3 failed — unit: skills: store › keeps every skill; host: in-host › chat › answers; host: page check › chat.mjs › chatShowsAnswer',
    ]);
  });

  it('a failure without a name (a crashed layer) is counted and said; all green is one line', async () => {
    const { summaryLines } = await summary();
    assert.deepEqual(summaryLines([{ layer: 'unit', passed: 0, failed: 1 }]), ["0 passed, 1 failed — 1 without a test name (see that layer's output)"]);
    assert.deepEqual(
      summaryLines([
        { layer: 'unit', passed: 7, failed: 0 },
        { layer: 'package', passed: 3, failed: 0 },
      ]),
      ['10 passed, 0 failed'],
    );
  });

  it("the unit layer's reporter writes the failing tests' full titles (hooks too) for the summary", () => {
    const dir = tempFolder('toolshed-reporter-');
    const spec = path.join(dir, 'sample.spec.js');
    writeFileSync(
      spec,
      `describe('area', () => {
      it('works', () => {});
      it('breaks', () => { throw new Error('no'); });
      describe('setup', () => { before(() => { throw new Error('hook'); }); it('never runs', () => {}); });
    });`,
    );
    const output = path.join(dir, 'summary.json');
    const mocha = path.join(path.dirname(require.resolve('mocha/package.json')), 'bin', 'mocha.js');
    spawnSync(process.execPath, [mocha, '--no-config', '--reporter', path.join(SCRIPTS, 'mochaSummaryReporter.cjs'), spec], {
      env: { ...process.env, TOOLSHED_MOCHA_SUMMARY: output },
      encoding: 'utf8',
    });
    const written = JSON.parse(readFileSync(output, 'utf8')) as { passes: number; failures: number; failedTitles: string[] };
    assert.equal(written.passes, 1);
    assert.deepEqual(written.failedTitles, ['area breaks', 'area setup "before all" hook for "never runs"']);
    assert.equal(written.failures, written.failedTitles.length);
  });
});
