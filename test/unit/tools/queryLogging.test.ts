import { strict as assert } from 'node:assert';
import { makeService as makeToolService, SAMPLE_TOOLS } from './helpers';
import { makeService as makeSkillService, pack, stepSkill, tempDir, writeTree } from '../skills/helpers';

// A model can type anything into a query: a denied tool's exact name, a secret pasted from the
// conversation. Queries reach the output channel through the search events, so they are logged
// the way every output is shown: redacted, and without names the request may not see.
const SECRET = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';

describe('search events never log a denied tool name or a secret from the query', () => {
  it('tool_search (exact, regex and fts queries)', async () => {
    const { service, events } = await makeToolService({ tools: SAMPLE_TOOLS, toolSearch: { deny: ['run_in_terminal'] } });
    const run = await service.startRun({ sessionId: 's', isVisible: () => false });
    for (const [query, search_type] of [
      ['run_in_terminal', 'exact'],
      ['run_in_terminal|weather', 'regex'],
      [`weather token ${SECRET}`, 'fts'],
    ] as const) {
      run.search({ query, search_type });
    }
    run.end();
    const logged = events.ofType('tool_search_query').map((e) => String((e.payload as { query: string }).query));
    assert.equal(logged.length, 3);
    for (const query of logged) {
      assert.ok(!query.includes('run_in_terminal'), `denied name logged: ${query}`);
      assert.ok(!query.includes(SECRET), `secret logged: ${query}`);
    }
    assert.match(logged[2]!, /weather/, 'the rest of the query is still logged');
  });

  it('skill_search', async () => {
    const root = tempDir();
    writeTree(root, { 'a.skill.yaml': stepSkill('deploy-preview', 'When deploying a preview environment.') });
    const { service, events } = await makeSkillService();
    await service.loadPacks([pack('team', root)]);
    const ctx = {
      includeWorkspacePacks: true,
      toolGate: (name: string) => (name === 'mcp_admin_wipe' ? ('denied' as const) : ('visible' as const)),
      knownToolNames: ['mcp_admin_wipe'],
    };
    await service.search({ query: `deploy with mcp_admin_wipe and ${SECRET}` }, ctx);
    const [event] = events.ofType('skill_search_query');
    const query = String((event!.payload as { query: string }).query);
    assert.ok(!query.includes('mcp_admin_wipe'), query);
    assert.ok(!query.includes(SECRET), query);
    assert.match(query, /deploy/);
  });
});
