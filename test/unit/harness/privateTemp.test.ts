import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type PrivateTemp = {
  withPrivateTemp: <T>(run: () => T | Promise<T>) => Promise<{ value: T; left: string[] }>;
};
type OfflineHost = { hostPaths: () => { node: string }; hostInstalled: () => boolean };

const load = async <T>(...parts: string[]) => (await import(pathToFileURL(path.join(__dirname, '..', '..', '..', ...parts)).href)) as T;

/** A Node that has the compile cache (≥ 22): this one, or the offline host's when it is installed. */
async function nodeWithCompileCache(): Promise<string | undefined> {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const host = await load<OfflineHost>('test', 'host', 'offlineHost.mjs');
  const node = host.hostPaths().node;
  return host.hostInstalled() && existsSync(node) ? node : undefined;
}

// Each `npm test` stage runs in a private temp folder that must come back empty (docs/testing.md).
describe('npm test stages: the private temp folder', () => {
  it('says what a stage left and removes the folder', async () => {
    const { withPrivateTemp } = await load<PrivateTemp>('scripts', 'privateTemp.mjs');
    let inside = '';
    const { value, left } = await withPrivateTemp(() => {
      inside = process.env.TMPDIR ?? '';
      spawnSync(process.execPath, ['-e', "require('node:fs').writeFileSync(require('node:path').join(require('node:os').tmpdir(), 'left.txt'), 'x')"]);
      return 7;
    });
    assert.equal(value, 7);
    assert.deepEqual(left, ['left.txt']);
    assert.equal(existsSync(inside), false, 'the folder is removed');
    assert.notEqual(process.env.TMPDIR, inside, 'TMPDIR is given back');
  });

  it('an npm the stage starts under Node ≥ 22 leaves no compile cache there', async function () {
    const node = await nodeWithCompileCache();
    if (node === undefined) this.skip(); // Node 20 has no compile cache, and the offline host (Node 22+) is not installed yet
    const { withPrivateTemp } = await load<PrivateTemp>('scripts', 'privateTemp.mjs');
    // The suite's own guard turns the cache off too; this checks the stage's folder on its own.
    const saved = process.env.NODE_DISABLE_COMPILE_CACHE;
    delete process.env.NODE_DISABLE_COMPILE_CACHE;
    try {
      const { value, left } = await withPrivateTemp(() =>
        spawnSync('npm', ['--version'], {
          encoding: 'utf8',
          env: { ...process.env, PATH: `${path.dirname(node!)}${path.delimiter}${process.env.PATH}` },
        }),
      );
      assert.equal(value.status, 0, value.stderr);
      assert.deepEqual(left, []);
    } finally {
      if (saved === undefined) delete process.env.NODE_DISABLE_COMPILE_CACHE;
      else process.env.NODE_DISABLE_COMPILE_CACHE = saved;
    }
  });
});
