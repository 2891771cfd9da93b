// @ts-check
/**
 * Unit tests: mocha + tsx. `npx mocha` runs every unit test; `npx mocha <files>` runs only those
 * files (a spec in the config would otherwise be added to the files named on the command line).
 * test/tempGuard.ts's root hooks give every run a private temp folder and fail a test that
 * leaves anything in it (docs/testing.md).
 */
const namesFiles = process.argv.slice(2).some((arg) => /\.test\.[cm]?[jt]s$/.test(arg) || (/^(\.\/)?test\//.test(arg) && !arg.endsWith('.cjs')));

module.exports = {
  ...(namesFiles ? {} : { spec: ['test/unit/**/*.test.ts'] }),
  require: ['tsx/cjs', './test/tempGuard.ts'],
  extension: ['ts'],
  timeout: 60000,
  reporter: 'spec',
};
