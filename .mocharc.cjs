// @ts-check
/**
 * Unit tests: mocha + tsx. `npx mocha` runs every unit test; `npx mocha <files>` runs only those
 * files (a spec in the config would otherwise be added to the files named on the command line).
 */
const namesFiles = process.argv.slice(2).some((arg) => /\.test\.[cm]?[jt]s$/.test(arg) || (/^(\.\/)?test\//.test(arg) && !arg.endsWith('.cjs')));

module.exports = {
  ...(namesFiles ? {} : { spec: ['test/unit/**/*.test.ts'] }),
  require: ['tsx/cjs'],
  extension: ['ts'],
  timeout: 60000,
  reporter: 'spec',
};
