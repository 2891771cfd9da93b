// @ts-check
// A private, empty temp folder for one stage of `npm test` or one bench (TMPDIR, TMP and TEMP,
// which every process the stage starts inherits), and what the stage left in it. Tests and
// benches run many times a day: whatever one leaves in the user's temp folder stays there, so
// a stage that leaves anything fails, naming it (docs/testing.md), and the folder is removed.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// TOOLSHED_PRIVATE_TEMP tells the unit suite's guard (test/tempGuard.ts) the folder is private already.
// NODE_DISABLE_COMPILE_CACHE: npm ≥ 10 under Node ≥ 22 turns on Node's compile cache, which is
// kept in <temp>/node-compile-cache; in a stage that is this folder, which must come back empty.
// The cache only speeds up the next start of the same scripts, so the stage runs without it.
const NAMES = /** @type {const} */ (['TMPDIR', 'TMP', 'TEMP', 'TOOLSHED_PRIVATE_TEMP', 'NODE_DISABLE_COMPILE_CACHE']);

/**
 * Runs `run` with the temp folder pointed at a new empty folder; returns its value and the
 * entries left in that folder (sorted), after removing the folder.
 * @template T
 * @param {() => T | Promise<T>} run
 * @returns {Promise<{ value: T, left: string[] }>}
 */
export async function withPrivateTemp(run) {
  // A short name: paths under it stay about as short as under the temp folder itself.
  const folder = mkdtempSync(path.join(os.tmpdir(), 'toolshed-'));
  const remove = () => rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  // Ctrl-C (or a kill) while a stage runs: the folder goes too, then the run stops as the signal
  // asked (Node would otherwise exit at once, leaving it). A stage's processes get the terminal's
  // signal themselves.
  /** @param {NodeJS.Signals} signal */
  const stop = (signal) => {
    remove();
    process.exit(128 + (os.constants.signals[signal] ?? 1));
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  const saved = NAMES.map((name) => process.env[name]);
  for (const name of NAMES) process.env[name] = name === 'NODE_DISABLE_COMPILE_CACHE' ? '1' : folder;
  try {
    const value = await run();
    return { value, left: readdirSync(folder).sort() };
  } finally {
    NAMES.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
    remove();
    // A signal that came while a synchronous child ran (spawnSync) reaches its listener when the
    // event loop next polls, the turn after this one: handled now, before the next stage starts.
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    for (const signal of STOP_SIGNALS) process.off(signal, stop);
  }
}

/** @type {NodeJS.Signals[]} */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * The line a stage prints (and its failed title) when it left something behind.
 * @param {string} stage
 * @param {string[]} left
 */
export const leftBehind = (stage, left) =>
  `${stage} left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder: ${left.slice(0, 20).join(', ')}${left.length > 20 ? ', …' : ''}`;
