import * as assert from 'node:assert/strict';
import { ToolListSettling } from '../../../src/core/tools/toolListSettling';

describe('tool list settling (MCP servers publishing tools)', () => {
  it('is settling for quietMs after the names change, not before the first change nor on a reorder', () => {
    let now = 1_000;
    const settling = new ToolListSettling(800, () => now);
    settling.observe(['tool_search', 'a']);
    assert.equal(settling.isSettling, false, 'the first snapshot is no change');
    settling.observe(['a', 'tool_search']);
    assert.equal(settling.isSettling, false, 'order does not matter');
    now += 100;
    settling.observe(['a', 'tool_search', 'mcp_everything_echo']);
    assert.equal(settling.isSettling, true);
    now += 799;
    assert.equal(settling.isSettling, true);
    now += 1;
    assert.equal(settling.isSettling, false, 'quiet for 800 ms');
  });
});
