import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The one way a test (or a bench that shares test code) makes a temp folder. Tests ran by the
 * thousand a day: every folder one leaves behind stays in the user's temp folder for good, so
 * each is removed when the test that made it ends (in a test or its `beforeEach`), or when the
 * run ends if made outside a test (a file's load, a `before` hook), and at the latest when the
 * process exits. The unit and runtime suites' root hooks (test/tempGuard.ts) do the first two.
 */

interface Made {
  folder: string;
  /** Made while a test (or its `beforeEach`) ran: removed when that test ends. */
  inTest: boolean;
}

const made: Made[] = [];
let testRunning = false;
let exitHookSet = false;

const remove = (folder: string) => rmSync(folder, { recursive: true, force: true, maxRetries: 3 });

/** A new empty folder `<temp>/<prefix>XXXXXX`, removed for you (see above). */
export function tempFolder(prefix = 'toolshed-test-'): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push({ folder, inTest: testRunning });
  if (!exitHookSet) {
    exitHookSet = true;
    process.once('exit', () => removeTempFolders(false));
  }
  return folder;
}

/** Called by the root hooks: from here to `removeTempFolders(true)` a test runs. */
export function markTestRunning(running: boolean): void {
  testRunning = running;
}

/** Removes the folders made during the test that just ended (`onlyTests`), or all of them. */
export function removeTempFolders(onlyTests: boolean): void {
  for (let i = made.length - 1; i >= 0; i--) {
    const entry = made[i];
    if (!entry || (onlyTests && !entry.inTest)) continue;
    remove(entry.folder);
    made.splice(i, 1);
  }
}
