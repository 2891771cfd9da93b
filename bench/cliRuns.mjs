// @ts-check
// What the benches that run the built CLI (dist/cli.js — the code users run) share: where the
// shared BFCL set is, and one CLI run whose last line of output is its JSON result.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const cli = path.join(root, 'dist', 'cli.js');

/** The shared BFCL tool-retrieval folder, beside the checkout (main) or two levels up (a worktree); undefined when neither has it. */
export const bfclFolder = [path.resolve(root, '..', 'shared'), path.resolve(root, '..', '..', 'shared')]
  .map((shared) => path.join(shared, 'benchmarks', 'tool-retrieval', 'bfcl'))
  .find((dir) => existsSync(path.join(dir, 'tools.jsonl')));

/**
 * One run of `dist/cli.js ARGS --json` in a child process; its JSON result (the last line printed).
 * @param {string[]} args
 * @param {string[]} [nodeFlags] flags for node itself (e.g. --expose-gc)
 * @returns {any}
 */
export function runCliJson(args, nodeFlags = []) {
  const out = execFileSync(process.execPath, [...nodeFlags, cli, ...args, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(out.trim().split('\n').pop() ?? '');
}
