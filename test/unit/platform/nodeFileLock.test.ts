import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { NodeFileLock } from '../../../src/core/platform/nodeFileLock';
import { tempFolder } from '../../tempFolder';

const LOCK = 'shared-skills.lock';

function folderWithLock(content: string, ageMs: number): string {
  const dir = tempFolder('toolshed-lock-');
  const file = path.join(dir, LOCK);
  writeFileSync(file, content);
  const at = (Date.now() - ageMs) / 1000;
  utimesSync(file, at, at);
  return dir;
}

describe('shared store lock: leftovers of a crash never block writes for good', () => {
  it('an empty lock file an hour old (a crash between create and write) is broken: the write goes through', async () => {
    const dir = folderWithLock('', 60 * 60 * 1000);
    const lock = new NodeFileLock(dir, LOCK, { timeoutMs: 2000 });
    assert.equal(await lock.withLock(async () => 'written'), 'written');
    assert.deepEqual(readdirSync(dir), [], 'the leftover and our own lock are both gone');
  });

  it('property: any unparseable content, once old, is broken; a fresh one is respected (someone may be writing it)', async () => {
    const unreadable = fc.oneof(
      fc.constant(''),
      fc.string({ maxLength: 40 }).filter((text) => !isLockRecord(text)),
      fc.constantFrom('{"pid":', 'null', '[]', '{"pid":"1","at":"x","token":1}', '\u0000\u0000'),
    );
    await fc.assert(
      fc.asyncProperty(unreadable, async (content) => {
        const old = folderWithLock(content, 10 * 60 * 1000);
        assert.equal(await new NodeFileLock(old, LOCK, { timeoutMs: 2000 }).withLock(async () => 'ok'), 'ok');
        const fresh = folderWithLock(content, -60 * 1000);
        await assert.rejects(
          new NodeFileLock(fresh, LOCK, { timeoutMs: 50 }).withLock(async () => 'ok'),
          /a lock file with no readable owner\) for too long/,
        );
        assert.ok(existsSync(path.join(fresh, LOCK)), 'a lock that may be in use is never removed');
      }),
      { numRuns: 25 },
    );
  });

  it('a FIFO at the lock path fails at once with a clear error instead of blocking in open()', async () => {
    const dir = tempFolder('toolshed-lock-');
    execFileSync('mkfifo', [path.join(dir, LOCK)]);
    await assert.rejects(
      new NodeFileLock(dir, LOCK, { timeoutMs: 60_000 }).withLock(async () => 'never'),
      /is a FIFO, socket or device, not a lock file.*Delete it/,
    );
  });

  it('a folder at the lock path is a clear error too', async () => {
    const dir = tempFolder('toolshed-lock-');
    mkdirSync(path.join(dir, LOCK));
    await assert.rejects(
      new NodeFileLock(dir, LOCK, { timeoutMs: 60_000 }).withLock(async () => 'never'),
      /is a folder, not a lock file/,
    );
  });
});

function isLockRecord(text: string): boolean {
  try {
    const value = JSON.parse(text) as Record<string, unknown> | null;
    return !!value && typeof value.pid === 'number' && typeof value.at === 'number' && typeof value.token === 'string';
  } catch {
    return false;
  }
}
