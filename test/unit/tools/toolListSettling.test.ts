import * as assert from 'node:assert/strict';
import { ToolListSettling } from '../../../src/core/tools/toolListSettling';

describe('tool list settling (MCP servers publishing tools)', () => {
  it('is settling for quietMs after each change, and not before the first one', () => {
    let now = 1_000;
    const settling = new ToolListSettling(800, () => now);
    assert.equal(settling.isSettling, false, 'no change seen yet');
    settling.recordChange();
    assert.equal(settling.isSettling, true);
    now += 500;
    settling.recordChange();
    now += 799;
    assert.equal(settling.isSettling, true, 'the quiet period restarts at every change');
    now += 1;
    assert.equal(settling.isSettling, false, 'quiet for 800 ms');
  });
});
