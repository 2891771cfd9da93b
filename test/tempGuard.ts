import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { markTestRunning, removeTempFolders } from './tempFolder';

/**
 * Mocha root hooks (loaded by .mocharc.cjs, so `npx mocha` alone has them): tests leave nothing
 * in the temp folder. The run gets a private, empty temp folder (TMPDIR, TMP and TEMP, which
 * the processes a test starts inherit too); after each test the folders it made with
 * `tempFolder()` are removed, and anything else new there fails that test by its title, naming
 * what was left (then removed, so the next test is not blamed). What was made outside a test
 * and is still there when the run ends fails the run's last hook, and the folder goes.
 */

/**
 * tsx's compile cache, one per user (`tsx-<uid>`), which every test process that loads TypeScript
 * through tsx shares (this one made it before this file loaded): not something a test made. It
 * goes with the rest of the folder at the end.
 */
const tsxCache = `tsx-${process.geteuid?.() ?? os.userInfo().username}`;
const entriesOf = (folder: string) => readdirSync(folder).filter((name) => name !== tsxCache);

// `npm test` gives each stage one already (scripts/privateTemp.mjs): used as it is, not nested,
// so paths under it stay as short as a user's (a Unix socket's path must fit in about 100 bytes).
const given = process.env.TOOLSHED_PRIVATE_TEMP;
const reuse = given !== undefined && given === os.tmpdir() && entriesOf(given).length === 0;
const privateTemp = reuse ? given : mkdtempSync(path.join(os.tmpdir(), 'toolshed-'));
for (const name of ['TMPDIR', 'TMP', 'TEMP', 'TOOLSHED_PRIVATE_TEMP']) process.env[name] = privateTemp;
// As in scripts/privateTemp.mjs: an `npm` a test starts under Node ≥ 22 would leave its compile cache here.
process.env.NODE_DISABLE_COMPILE_CACHE = '1';
if (!reuse) process.once('exit', () => rmSync(privateTemp, { recursive: true, force: true }));

const entries = () => new Set(entriesOf(privateTemp));
let beforeTest = new Set<string>();
/** What was there after the last test's clean-up (undefined before the first test). */
let afterLastTest: Set<string> | undefined;
/** Where each entry made outside a test came from, for the run's last hook to say. */
const madeOutsideTests = new Map<string, string>();

function removeEntries(names: readonly string[]): void {
  for (const name of names) rmSync(path.join(privateTemp, name), { recursive: true, force: true, maxRetries: 3 });
}

export const mochaHooks = {
  beforeEach(this: Mocha.Context): void {
    beforeTest = entries();
    const title = this.currentTest?.fullTitle() ?? '';
    const where = afterLastTest ? `in a hook before "${title}"` : `at a test file's load or in a hook before "${title}"`;
    for (const name of beforeTest) if (!afterLastTest?.has(name) && !madeOutsideTests.has(name)) madeOutsideTests.set(name, where);
    markTestRunning(true);
  },
  afterEach(this: Mocha.Context): void {
    markTestRunning(false);
    removeTempFolders(true);
    const left = [...entries()].filter((name) => !beforeTest.has(name)).sort();
    removeEntries(left);
    afterLastTest = entries();
    if (left.length === 0) return;
    // A hook's error fails the test that just ran (mocha's runner), where a thrown one would skip every test after it.
    (this.test as Mocha.Hook).error(
      new Error(
        `this test left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder: ${left.join(', ')} (make temp folders with tempFolder() from test/tempFolder.ts, and give a process the test starts a folder the test removes)`,
      ),
    );
  },
  afterAll(): void {
    removeTempFolders(false);
    const left = [...entries()].sort();
    removeEntries([...left, tsxCache]);
    if (left.length > 0) {
      const named = left.map((name) => `${name} (made ${madeOutsideTests.get(name) ?? 'in a hook after the last test'})`);
      throw new Error(`left in the temp folder outside a test: ${named.join(', ')} (make temp folders with tempFolder() from test/tempFolder.ts)`);
    }
  },
};
