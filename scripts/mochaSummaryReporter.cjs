// @ts-check
// Mocha's spec output plus a machine-readable summary, so scripts/test-all.mjs can count the
// unit layer and name its failing tests (hooks included). The summary goes to the file named by
// TOOLSHED_MOCHA_SUMMARY: mocha's stats plus `failedTitles`.
const { writeFileSync } = require('node:fs');
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  /**
   * @param {import('mocha').Runner} runner
   * @param {import('mocha').MochaOptions} options
   */
  constructor(runner, options) {
    super(runner, options);
    /** @type {string[]} */
    const failedTitles = [];
    // A test that passed and then failed in a root afterEach hook (test/tempGuard.ts: it left
    // something in the temp folder) is counted by mocha as both: here it counts as failed only.
    /** @type {Set<unknown>} */
    const passed = new Set();
    let passedThenFailed = 0;
    runner.on(Mocha.Runner.constants.EVENT_TEST_PASS, (test) => passed.add(test));
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test) => {
      failedTitles.push(test.fullTitle());
      if (passed.delete(test)) passedThenFailed += 1;
    });
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const output = process.env.TOOLSHED_MOCHA_SUMMARY;
      const stats = this.stats && { ...this.stats, passes: this.stats.passes - passedThenFailed };
      if (output) writeFileSync(output, JSON.stringify({ ...stats, failedTitles }));
    });
  }
}

module.exports = SummaryReporter;
