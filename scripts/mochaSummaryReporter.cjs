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
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test) => failedTitles.push(test.fullTitle()));
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const output = process.env.TOOLSHED_MOCHA_SUMMARY;
      if (output) writeFileSync(output, JSON.stringify({ ...this.stats, failedTitles }));
    });
  }
}

module.exports = SummaryReporter;
