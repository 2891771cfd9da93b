import { strict as assert } from 'node:assert';
import { queryIdParity } from '../../../src/cli/commands/benchTools';

describe('bench tools --half: BFCL tuning / held-out split', () => {
  it('splits by the query number within its set, whatever the id shape', () => {
    assert.equal(queryIdParity('simple_python_7'), 'odd');
    assert.equal(queryIdParity('multiple_10'), 'even');
    assert.equal(queryIdParity('live_multiple_13-4-0'), 'odd');
    assert.equal(queryIdParity('live_simple_0-0-1'), 'even');
    assert.equal(queryIdParity(undefined), undefined);
    assert.equal(queryIdParity('no-number-here'), undefined);
  });
});
