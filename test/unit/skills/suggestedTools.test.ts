import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ToolGate, ToolGateVerdict } from '../../../src/core/skills/render/toolReferenceGate';
import { ToolReferenceGate } from '../../../src/core/skills/render/toolReferenceGate';
import type { SkillRequestContext } from '../../../src/core/skills/skillService';
import { MAX_SUGGESTED_TOOLS, suggestedTools } from '../../../src/core/skills/suggestedTools';
import { makeService, pack, tempDir, writeTree } from './helpers';

const SKILL = [
  'name: gh.triage',
  'trigger: "Triage new GitHub issues"',
  'tools:',
  '  - tool: mcp_github_list_issues',
  '    note: read the queue',
  '  - mcp_github_add_label',
  '  - tool_search',
  '  - secret_admin_tool',
  '  - not_a_tool_here',
  'allowed-tools: "Bash(git:*) mcp_github_list_issues copilot_readFile"',
  'steps:',
  '  - "List the open issues."',
  '  - "Label each one."',
  '',
].join('\n');

const VERDICTS: Record<string, ToolGateVerdict> = {
  mcp_github_list_issues: 'visible',
  mcp_github_add_label: 'activatable',
  tool_search: 'visible',
  secret_admin_tool: 'denied',
  copilot_readFile: 'activatable',
  Bash: 'denied',
};
const gate: ToolGate = (name) => VERDICTS[name] ?? 'unknown';

async function triageService() {
  const root = tempDir();
  writeTree(root, { 'triage.skill.yaml': SKILL });
  const h = await makeService();
  await h.service.loadPacks([pack('gh', root)]);
  return h;
}

describe('tools from skills: suggested_tools', () => {
  const ctx: SkillRequestContext = { includeWorkspacePacks: true, toolGate: gate, knownToolNames: Object.keys(VERDICTS) };

  it('skill_search, skill_get and pre-flight suggest the usable tools a skill names, in declaration order', async () => {
    const { service } = await triageService();
    const expected = ['mcp_github_list_issues', 'mcp_github_add_label', 'copilot_readFile'];
    assert.deepEqual((await service.search({ query: 'triage github issues' }, ctx)).suggested_tools, expected);
    assert.deepEqual((await service.get({ names: ['gh.triage'] }, ctx)).suggested_tools, expected);
    assert.deepEqual((await service.getRelevant({ task: 'triage the new github issues', max_tokens: 3000 }, ctx)).suggested_tools, expected);
  });

  it("denied, unknown and Toolshed's own tools are never suggested; without a tool gate nothing is", async () => {
    const { service } = await triageService();
    const output = JSON.stringify(await service.get({ names: ['gh.triage'] }, ctx));
    assert.ok(!output.includes('secret_admin_tool'));
    const suggested = (await service.search({ query: 'triage github issues' }, ctx)).suggested_tools ?? [];
    for (const name of ['secret_admin_tool', 'not_a_tool_here', 'tool_search', 'Bash']) assert.ok(!suggested.includes(name), name);
    const ungated = await service.search({ query: 'triage github issues' }, { includeWorkspacePacks: true });
    assert.equal(ungated.suggested_tools, undefined);
    assert.deepEqual((await service.getRelevant({ task: 'triage the new github issues' }, { includeWorkspacePacks: true })).suggested_tools, []);
  });

  it('property: a suggestion is always a tool the gate calls visible or activatable, at most MAX_SUGGESTED_TOOLS, no repeats', () => {
    const name = fc.constantFrom('a_tool', 'b.tool', 'c-tool', 'Bash', 'tool_search', 'skill_get', 'x_y', 'dup', ' dup ', '');
    const verdict = fc.constantFrom<ToolGateVerdict>('visible', 'activatable', 'denied', 'unknown');
    const record = fc.record({
      tools: fc.array(fc.record({ tool: name }), { maxLength: 8 }),
      allowed_tools: fc.array(
        fc.oneof(
          name,
          name.map((n) => `${n}(arg:*)`),
        ),
        { maxLength: 8 },
      ),
    });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 5 }), fc.dictionary(name, verdict), fc.boolean(), (records, verdicts, throws) => {
        const callback: ToolGate = (tool) => {
          if (throws && tool === 'x_y') throw new Error('policy failed');
          return verdicts[tool] ?? 'unknown';
        };
        const out = suggestedTools(records, new ToolReferenceGate(callback));
        assert.ok(out.length <= MAX_SUGGESTED_TOOLS);
        assert.equal(new Set(out).size, out.length);
        for (const tool of out) {
          assert.ok(verdicts[tool] === 'visible' || verdicts[tool] === 'activatable', `${tool} is ${verdicts[tool]}`);
          assert.ok(!['tool_search', 'skill_get'].includes(tool));
          if (throws) assert.notEqual(tool, 'x_y');
        }
      }),
      { numRuns: 400 },
    );
  });

  it('randomized through the service: no denied tool is ever suggested by any path', async () => {
    const tools = ['mcp_a_read', 'mcp_a_write', 'mcp_b_delete', 'web.fetch', 'db-query', 'runTask'];
    const root = tempDir();
    writeTree(root, {
      'all.skill.yaml': [
        'name: all.tools',
        'trigger: "Use every tool for the report"',
        'tools:',
        ...tools.map((t) => `  - ${t}`),
        `allowed-tools: "${tools.join(' ')}"`,
        'steps:',
        '  - "Do it."',
        '',
      ].join('\n'),
    });
    const { service } = await makeService();
    await service.loadPacks([pack('all', root)]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<ToolGateVerdict>('visible', 'activatable', 'denied', 'unknown'), { minLength: tools.length, maxLength: tools.length }),
        async (verdicts) => {
          const byName = new Map(tools.map((t, i) => [t, verdicts[i]!]));
          const request: SkillRequestContext = { includeWorkspacePacks: true, toolGate: (n) => byName.get(n) ?? 'unknown', knownToolNames: tools };
          const outputs = [
            (await service.search({ query: 'report every tool' }, request)).suggested_tools ?? [],
            (await service.get({ names: ['all.tools'] }, request)).suggested_tools ?? [],
            (await service.getRelevant({ task: 'use every tool for the report', max_tokens: 3000 }, request)).suggested_tools,
          ];
          const usable = tools.filter((t) => byName.get(t) === 'visible' || byName.get(t) === 'activatable');
          for (const out of outputs) assert.deepEqual(out, usable);
        },
      ),
      { numRuns: 40 },
    );
  });
});
