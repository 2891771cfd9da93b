import { strict as assert } from 'node:assert';
import { loadProgressReporter } from '../../../src/vscode/skills/loadProgress';

describe('a skill load reports progress to the workbench', () => {
  const run = (total: number, msPerFile: number) => {
    const reports: Array<{ message?: string; increment?: number }> = [];
    let clock = 0;
    const onProgress = loadProgressReporter({ report: (value) => reports.push(value) }, () => clock);
    for (let done = 1; done <= total; done++) {
      clock += msPerFile;
      onProgress(done, total, `/skills/s-${done}/SKILL.md`);
    }
    return reports;
  };
  const percentReported = (reports: ReadonlyArray<{ increment?: number }>) => reports.reduce((sum, r) => sum + (r.increment ?? 0), 0);

  it('a first load of 10,000 files sends about one report per percent, not one per file, and they add up to 100 %', () => {
    const reports = run(10_000, 0.3);
    // 3 s of loading: 100 percents, and a few more to name the file between them.
    assert.ok(reports.length >= 100 && reports.length <= 115, `${reports.length} reports`);
    assert.equal(percentReported(reports), 100);
    assert.equal(reports.at(-1)?.message, '10000/10000 SKILL.md');
  });

  it('between two percents of a long load, the file it reached is named every quarter of a second', () => {
    // 1,000,000 files at 0.05 ms each: a percent every 0.5 s, so one more report between each two.
    const reports = run(1_000_000, 0.05);
    assert.ok(reports.length >= 190 && reports.length <= 210, `${reports.length} reports`);
    assert.equal(percentReported(reports), 100);
  });

  it('a load of a few files reports each of them', () => {
    const reports = run(3, 1);
    assert.deepEqual(
      reports.map((r) => [r.message, r.increment]),
      [
        ['1/3 SKILL.md', 33],
        ['2/3 SKILL.md', 33],
        ['3/3 SKILL.md', 34],
      ],
    );
  });
});
