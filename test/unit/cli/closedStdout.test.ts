import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';

const CLI = path.resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

/**
 * A reader that stops early (`toolshed ledger | head`) closes the pipe before the CLI has written
 * everything: the command ends quietly with its own exit code, never with Node's "Unhandled
 * 'error' event … EPIPE" stack. The reading end is closed before the CLI writes its first byte,
 * so every write meets a closed pipe, whatever its size. Needs `node esbuild.mjs` first.
 */
describe('the CLI when its reader has gone (real process)', () => {
  it('stdout closed before anything is written: exit 0, nothing on stderr', async () => {
    const child = spawn(process.execPath, [CLI, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });
});
