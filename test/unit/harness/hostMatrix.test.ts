import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface HostMatrix {
  SMOKE_TESTS: readonly string[];
  SMOKE_UNTRUSTED_TESTS: readonly string[];
  SMOKE_PAGE_CHECKS: readonly string[];
  OLDEST_HOST_PINS: { codeServer: string };
  HOST_PINS: { codeServer: string };
  titlesGrep(titles: readonly string[]): string;
  pickTests<T extends { fullTitle: string }>(tests: T[], titles: readonly string[]): T[];
  declaredMinimumVSCode(): string | undefined;
  hostVersionsToRun(env: Record<string, string | undefined>): { newest: boolean; oldest: boolean };
}

const HOST_DIR = path.join(__dirname, '..', '..', 'host');
const load = async () => (await import(pathToFileURL(path.join(HOST_DIR, 'hostMatrix.mjs')).href)) as HostMatrix;

// code-server 4.N.x is VS Code 1.N.x.
const vscodeMinorOf = (codeServer: string) => Number(codeServer.split('.')[1]);

describe('host-version matrix', () => {
  it('the smoke host is the oldest VS Code engines.vscode allows, and older than the newest host', async () => {
    const m = await load();
    const declared = m.declaredMinimumVSCode();
    assert.ok(declared, 'engines.vscode is an exact ^x.y.z range');
    assert.equal(Number(declared.split('.')[1]), vscodeMinorOf(m.OLDEST_HOST_PINS.codeServer));
    assert.ok(vscodeMinorOf(m.OLDEST_HOST_PINS.codeServer) < vscodeMinorOf(m.HOST_PINS.codeServer));
    const pkg = JSON.parse(readFileSync(path.join(HOST_DIR, '..', '..', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    assert.equal(pkg.devDependencies['@types/vscode'], `^${declared}`, '@types/vscode follows engines.vscode, so tsc rejects newer API');
  });

  it('every smoke title names a test of the host suite (a renamed test cannot drop out silently)', async () => {
    const m = await load();
    const suiteDir = path.join(HOST_DIR, 'suite');
    const sources = readdirSync(suiteDir)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => readFileSync(path.join(suiteDir, f), 'utf8'))
      .join('\n');
    for (const title of [...m.SMOKE_TESTS, ...m.SMOKE_UNTRUSTED_TESTS]) {
      // A title starts a quoted string (a smoke entry may name a suite by the start of its title).
      const quoted = [`'${title.replace(/'/g, "\\'")}`, `"${title}`];
      assert.ok(
        quoted.some((q) => sources.includes(q)),
        `no suite or test titled ${title}`,
      );
    }
  });

  it('every smoke page check is a page check of test/host/ui', async () => {
    const m = await load();
    const uiDir = path.join(HOST_DIR, 'ui');
    const sources = readdirSync(uiDir)
      .filter((f) => f.endsWith('.mjs'))
      .map((f) => readFileSync(path.join(uiDir, f), 'utf8'))
      .join('\n');
    for (const name of m.SMOKE_PAGE_CHECKS) assert.ok(sources.includes(`export async function ${name}(`), name);
  });

  it('the grep matches exactly the smoke titles, whatever characters they hold', async () => {
    const m = await load();
    const titles = ['a (b) [c] $d', 'x.y*z?', "one rule: it's | this"];
    const grep = new RegExp(m.titlesGrep(titles));
    for (const title of titles) assert.ok(grep.test(`suite ${title}`), title);
    assert.ok(!grep.test('a b c d'));
    assert.ok(!grep.test('xxyzz'));
    const tests = [{ fullTitle: 'suite x.y*z? more' }, { fullTitle: 'other' }];
    assert.deepEqual(m.pickTests(tests, titles), [tests[0]]);
  });

  it('TOOLSHED_HOST_VERSIONS picks one side or both, and rejects anything else', async () => {
    const m = await load();
    assert.deepEqual(m.hostVersionsToRun({}), { newest: true, oldest: true });
    assert.deepEqual(m.hostVersionsToRun({ TOOLSHED_HOST_VERSIONS: 'newest' }), { newest: true, oldest: false });
    assert.deepEqual(m.hostVersionsToRun({ TOOLSHED_HOST_VERSIONS: 'oldest' }), { newest: false, oldest: true });
    assert.throws(() => m.hostVersionsToRun({ TOOLSHED_HOST_VERSIONS: 'both' }), /all, newest or oldest/);
  });
});
