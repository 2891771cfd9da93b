import { strict as assert } from 'node:assert';
import { runToolGate } from '../../../src/core/skills/render/toolReferenceGate';

describe('the tool gate of a run (what a skill may name in a request)', () => {
  const catalog = new Set(['mcp_git_status', 'mcp_git_push']);
  const known = new Set(['mcp_git_status', 'mcp_git_push', 'mcp_secret_wipe']);

  it('in a run: visible what it shows, activatable what it may activate, denied a tool it may not use, unknown the rest', () => {
    const run = { isVisible: (name: string) => name === 'mcp_git_status', isPermitted: (name: string) => name.startsWith('mcp_git_') };
    const gate = runToolGate(run, catalog, known);
    assert.deepEqual(['mcp_git_status', 'mcp_git_push', 'mcp_secret_wipe', 'not_a_tool'].map(gate), ['visible', 'activatable', 'denied', 'unknown']);
  });

  it('without a run (agent mode, commands): what the catalog holds is activatable, a listed tool outside it denied', () => {
    const gate = runToolGate(undefined, catalog, known);
    assert.deepEqual(['mcp_git_status', 'mcp_secret_wipe', 'not_a_tool'].map(gate), ['activatable', 'denied', 'unknown']);
  });
});
