import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { recordDoorDecision } from '../../../src/core/runtimes/doors/doorDecision';
import { temp } from './setupHelpers';

/**
 * What setup writes runs where only the bundle was installed, and keeps running once the
 * bundle is gone (an extension update deletes its old folder): the CLI is built here as
 * esbuild.mjs builds it, `setup` runs from that build, the build is deleted, and the entry's
 * command still answers — with sql.js's wasm, read from the launcher's copy.
 */

const ROOT = path.join(__dirname, '..', '..', '..');

async function buildCli(): Promise<string> {
  const dist = path.join(temp('toolshed-bundle-'), 'dist');
  mkdirSync(dist);
  const common = {
    bundle: true,
    platform: 'node' as const,
    format: 'cjs' as const,
    target: 'node20',
    logLevel: 'silent' as const,
    define: { __TOOLSHED_VERSION__: '"9.9.9"' },
  };
  await esbuild.build({ ...common, entryPoints: [path.join(ROOT, 'src/cli/main.ts')], outfile: path.join(dist, 'cliMain.js') });
  await esbuild.build({
    ...common,
    entryPoints: [path.join(ROOT, 'src/cli/entry.ts')],
    outfile: path.join(dist, 'cli.js'),
    external: ['./hookClient.js', './cliMain.js'],
  });
  await esbuild.build({ ...common, entryPoints: [path.join(ROOT, 'src/workers/parseWorker.ts')], outfile: path.join(dist, 'parseWorker.js') });
  copyFileSync(require.resolve('sql.js/dist/sql-wasm.wasm'), path.join(dist, 'sql-wasm.wasm'));
  copyFileSync(path.join(ROOT, 'src/core/search/vocabulary/related-terms.txt'), path.join(dist, 'related-terms.txt'));
  copyFileSync(path.join(ROOT, 'src/core/search/vocabulary/word-vectors.bin'), path.join(dist, 'word-vectors.bin'));
  return dist;
}

describe('the setup launcher', () => {
  it('runs after the bundle it was copied from is deleted', async function () {
    this.timeout(120_000);
    const dist = await buildCli();
    const home = temp('toolshed-launch-home-');
    const workspace = temp('toolshed-launch-ws-');
    const env = { ...process.env, HOME: home, USERPROFILE: home, TOOLSHED_HOME: path.join(home, '.toolshed') };
    const installed = spawnSync(process.execPath, [path.join(dist, 'cli.js'), 'setup', 'claude', '--workspace', workspace], { env, encoding: 'utf8' });
    assert.equal(installed.status, 0, installed.stderr);
    assert.match(installed.stdout, /Copied the CLI 9\.9\.9 to /);
    rmSync(path.dirname(dist), { recursive: true, force: true });

    const server = (JSON.parse(readFileSync(path.join(workspace, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> })
      .mcpServers.toolshed!;
    assert.equal(server.command, 'node');
    recordDoorDecision(
      workspace,
      { door: 'hook', runtime: 'claude', action: 'inject', request: 'r', injected: ['deploy-app'], searches: 1 },
      { home: env.TOOLSHED_HOME },
    );
    // The entry's program (the launcher's cli.js), asked for the ledger: it needs sql.js's wasm beside it.
    const ledger = spawnSync(process.execPath, [server.args[0]!, 'ledger', '--workspace', workspace, '--json'], { env, encoding: 'utf8' });
    assert.equal(ledger.status, 0, ledger.stderr);
    const report = JSON.parse(ledger.stdout) as { doors: Array<{ door: string; decisions: number }> };
    assert.deepEqual(
      report.doors.map((row) => [row.door, row.decisions]),
      [['hook', 1]],
    );
    const again = spawnSync(process.execPath, [server.args[0]!, 'setup', 'claude', '--workspace', workspace], { env, encoding: 'utf8' });
    assert.equal(again.status, 0, again.stderr);
    assert.equal(again.stdout, 'Nothing to change: the entries are already as setup writes them.\n', 'the launcher itself keeps the same entries');
  });
});
