import * as assert from 'node:assert/strict';
import { HostSlices, SLICE_MS } from '../../../src/core/platform/hostSlices';

/**
 * Loads that read thousands of files synchronously pause between slices (platform/hostSlices.ts):
 * within a slice a pause returns at once; once the slice is used up the host gets a turn of the
 * event loop, and workers of one load that pause meanwhile all wait for that same turn.
 */
describe('platform: host slices', () => {
  /** Whether a pause settles before an immediate queued just before it has run (i.e. without giving the host a turn). */
  async function settlesWithinTurn(pause: () => Promise<void>): Promise<boolean> {
    let hostRan = false;
    setImmediate(() => {
      hostRan = true;
    });
    await pause();
    return !hostRan;
  }

  it('a pause inside the slice returns without a turn; one past it gives the host a turn, then a new slice starts', async () => {
    let clock = 1000;
    const slices = new HostSlices(() => clock);
    clock += SLICE_MS - 1;
    assert.equal(await settlesWithinTurn(() => slices.pause()), true, 'still inside the slice');
    clock += 1;
    assert.equal(await settlesWithinTurn(() => slices.pause()), false, 'the slice is used up: the host ran first');
    assert.equal(await settlesWithinTurn(() => slices.pause()), true, 'a new slice started after the turn');
  });

  it('workers of one load share the slice: after a turn they go on together, and the host gets its next turn once their work adds up to a slice', async () => {
    let clock = 0;
    const slices = new HostSlices(() => clock);
    clock = SLICE_MS;
    const order: string[] = [];
    setImmediate(() => {
      order.push('host');
      setImmediate(() => order.push('host again'));
    });
    // Each worker does half a slice of work between its pauses.
    const workers = ['a', 'b', 'c'].map(async (name) => {
      await slices.pause();
      order.push(name);
      clock += SLICE_MS / 2;
      await slices.pause();
      order.push(`${name} again`);
    });
    await Promise.all(workers);
    // a's second pause falls inside the shared slice; b's and c's come after it is used up.
    assert.deepEqual(order, ['host', 'a', 'b', 'c', 'a again', 'host again', 'b again', 'c again']);
  });

  it('a message that needs several turns of the event loop crosses a long load within 5 ms of its work per turn', async () => {
    // A call from the workbench crosses the extension host in several turns (the socket's read, its
    // inflate, the call; the reply's deflate and write). While a load runs, each turn waits for the
    // slice under way: with 20 ms slices the first tool call of a warm start reached Toolshed only
    // after the load's check had ended.
    let clock = 0;
    const slices = new HostSlices(() => clock);
    const turns = 5;
    let crossedAt: number | undefined;
    const hop = (left: number) =>
      setImmediate(() => {
        if (left > 1) hop(left - 1);
        else crossedAt = clock;
      });
    hop(turns);
    // The load: 1 ms of synchronous work per file, pausing between files, 1,000 files.
    for (let file = 0; file < 1000; file++) {
      clock += 1;
      await slices.pause();
    }
    assert.ok(crossedAt !== undefined, 'the message crossed during the load');
    assert.ok(crossedAt <= turns * 5, `it crossed after ${crossedAt} ms of the load's work (at most ${turns * 5})`);
  });
});
