import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { endTestWaits, testWaits } from './testWaits';

/** Shape of the results file the harness reads (`{passed, failed, tests:[…]}`). */
export interface SuiteTestResult {
  title: string;
  fullTitle: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
  error?: string;
  stack?: string;
}

export interface SuiteResults {
  passed: number;
  failed: number;
  pending: number;
  tests: SuiteTestResult[];
  vscodeVersion?: string;
  durationMs: number;
}

export interface RunSuiteOptions {
  /** Folder of bundled `*.test.js` files (out/host-suite). */
  suiteDir: string;
  /** Folder of the repo's mocha package; required by absolute path (the host has no node_modules of ours). */
  mochaPath: string;
  testTimeoutMs?: number;
  /** Only tests whose full title contains it (`a|b`: either); a leading `!` inverts (all tests that do NOT match). */
  grep?: string;
  vscodeVersion?: string;
}

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) return testFiles(full);
      return entry.name.endsWith('.test.js') ? [full] : [];
    })
    .sort();
}

interface MochaRunnable {
  title: string;
  fullTitle(): string;
  duration?: number;
}

/** Titles containing any of the `|`-separated texts (each taken literally). */
function titlePattern(grep: string): RegExp {
  return new RegExp(
    grep
      .split('|')
      .map((text) => text.replace(/[.*+?^${}()[\]\\]/g, '\\$&'))
      .join('|'),
  );
}

/** Runs mocha (tdd UI: suite/test/setup/teardown) over the bundled suite and collects results. */
export function runSuite(options: RunSuiteOptions): Promise<SuiteResults> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Mocha = require(options.mochaPath) as typeof import('mocha');
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    reporter: 'spec',
    timeout: options.testTimeoutMs ?? 30_000,
    ...(options.grep ? { grep: titlePattern(options.grep.replace(/^!/, '')), invert: options.grep.startsWith('!') } : {}),
  });
  // The suite is bundled with inline source maps. Node maps stack traces only where the host keeps
  // Node's default stack formatting (the VS Code extension host replaces it, so traces there point
  // at the readable, unminified bundle in the run folder's suite/).
  process.setSourceMapsEnabled?.(true);
  const files = testFiles(options.suiteDir);
  if (files.length === 0) throw new Error(`No *.test.js files in ${options.suiteDir} (was the suite built?)`);
  for (const file of files) mocha.addFile(file);

  const started = Date.now();
  const tests: SuiteTestResult[] = [];
  const record = (runnable: MochaRunnable, state: SuiteTestResult['state'], error?: Error) =>
    tests.push({
      title: runnable.title,
      fullTitle: runnable.fullTitle(),
      state,
      ...(runnable.duration === undefined ? {} : { durationMs: runnable.duration }),
      ...(error ? { error: String(error.message ?? error), stack: String(error.stack ?? '').slice(0, 4000) } : {}),
    });

  return new Promise((resolve, reject) => {
    try {
      // Synchronous file loading (require): keeps `require('vscode')` inside the tests on the
      // extension host's module interceptor.
      const runner = mocha.run();
      runner.on('pass', (test) => record(test, 'passed'));
      runner.on('fail', (test, error) => {
        // A test that timed out while waiting says what it waited for.
        const waiting = [...testWaits()].map((wait) => wait.describe());
        if (waiting.length > 0 && /^Timeout of/.test(String(error.message))) error.message += ` Still waiting for: ${waiting.join('; ')}.`;
        record(test, 'failed', error);
      });
      runner.on('test end', () => endTestWaits());
      runner.on('pending', (test) => record(test, 'pending'));
      runner.on('end', () =>
        resolve({
          passed: tests.filter((t) => t.state === 'passed').length,
          failed: tests.filter((t) => t.state === 'failed').length,
          pending: tests.filter((t) => t.state === 'pending').length,
          tests,
          vscodeVersion: options.vscodeVersion,
          durationMs: Date.now() - started,
        }),
      );
    } catch (error) {
      reject(error);
    }
  });
}
