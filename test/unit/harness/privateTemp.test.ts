import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempFolder } from '../../tempFolder';

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

  it('Ctrl-C while a stage runs: the folder goes and the run stops with the signal', async () => {
    const scratch = tempFolder('toolshed-signal-');
    const seen = path.join(scratch, 'stage-temp.txt');
    const script = path.join(scratch, 'stage.mjs');
    // The stage's process writes where its temp folder is, then the terminal's Ctrl-C reaches both
    // processes (the runner and the stage), as it does in a shell.
    const stage = `require('fs').writeFileSync(${JSON.stringify(seen)}, require('os').tmpdir()); process.kill(process.ppid, 'SIGINT'); process.kill(process.pid, 'SIGINT');`;
    writeFileSync(
      script,
      [
        `import { withPrivateTemp } from ${JSON.stringify(pathToFileURL(path.join(__dirname, '..', '..', '..', 'scripts', 'privateTemp.mjs')).href)};`,
        `import { spawnSync } from 'node:child_process';`,
        `await withPrivateTemp(() => spawnSync(process.execPath, ['-e', ${JSON.stringify(stage)}]));`,
        `console.log('the next stage started');`,
      ].join('\n'),
    );
    const runner = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    runner.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const [code] = (await once(runner, 'exit')) as [number | null];
    assert.equal(code, 130, out);
    assert.equal(out, '', 'nothing ran after the signal');
    const folder = readFileSync(seen, 'utf8');
    assert.match(path.basename(folder), /^toolshed-/);
    assert.equal(existsSync(folder), false, 'the stage temp folder is removed');
  });
});
