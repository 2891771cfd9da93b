import { strict as assert } from 'node:assert';
import { collectGarbage } from '../../../src/core/platform/heapCollection';

describe('collectGarbage (a full collection for the processes Toolshed owns)', () => {
  it('frees an object nothing refers to any more, in this thread’s heap', async () => {
    let garbage: { payload: number[] } | undefined = { payload: Array.from({ length: 1000 }, (_, i) => i) };
    const ref = new WeakRef(garbage);
    garbage = undefined;
    // A WeakRef keeps its target for the rest of the turn that made or read it: the next one.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(collectGarbage(), true);
    assert.equal(ref.deref(), undefined);
  });

  it('keeps what is still referred to', async () => {
    const kept = { payload: [1, 2, 3] };
    const ref = new WeakRef(kept);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(collectGarbage(), true);
    assert.equal(ref.deref(), kept);
  });
});
