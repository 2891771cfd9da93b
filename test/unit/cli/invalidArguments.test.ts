import * as assert from 'node:assert/strict';
import { cli } from './helpers';

/** An option the engine's schema refuses is a mistake in the call: one sentence, the usage line, exit 2 — not zod's issue list as JSON. */
describe('CLI: an option value out of range', () => {
  it('search skills --limit 50 names the option and its limit, with the usage line, exit 2', async () => {
    const run = await cli('search', 'skills', '--packs', 'skill-packs/core', '--limit', '50', 'write tests');
    assert.equal(run.code, 2);
    assert.match(run.err, /^toolshed search skills: limit: Too big: expected number to be <=20\n/);
    assert.match(run.err, /\nUsage: toolshed search skills /);
    assert.doesNotMatch(run.err, /"code"|\[\\n/);
    assert.equal(run.out, '');
  });
});
