import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import * as path from 'node:path';
import { skillsConfigSchema } from '../../../src/core/config/settingsSchema';
import { resolveSkillPacks } from '../../../src/core/skills/packs/skillPackSources';
import type { SkillRequestContext } from '../../../src/core/skills/skillService';
import type { ToolGate } from '../../../src/core/skills/render/toolReferenceGate';
import { ToolReferenceGate } from '../../../src/core/skills/render/toolReferenceGate';
import { makeService, pack, stepSkill, tempDir, writeTree } from './helpers';

async function scopedService() {
  const roots = { a: tempDir(), b: tempDir(), t1: tempDir(), g: tempDir(), ws: tempDir() };
  writeTree(roots.a, { 'x.skill.yaml': stepSkill('proj.a.deploy', 'Deploy project alpha') });
  writeTree(roots.b, { 'x.skill.yaml': stepSkill('proj.b.deploy', 'Deploy project beta') });
  writeTree(roots.t1, { 'x.skill.yaml': stepSkill('tenant.one.deploy', 'Deploy for tenant one') });
  writeTree(roots.g, { 'x.skill.yaml': stepSkill('global.deploy', 'Deploy anything') });
  writeTree(roots.ws, { 'x.skill.yaml': stepSkill('ws.deploy', 'Deploy from the workspace pack') });
  const h = await makeService();
  await h.service.loadPacks([
    pack('a', roots.a, { scopeMode: 'project', projectId: 'A', tenantId: 'T1' }),
    pack('b', roots.b, { scopeMode: 'project', projectId: 'B', tenantId: 'T2' }),
    pack('t1', roots.t1, { scopeMode: 'tenant', tenantId: 'T1' }),
    pack('g', roots.g, { scopeMode: 'global' }),
    pack('ws', roots.ws, { scopeMode: 'global', workspace: true }),
  ]);
  return h;
}

async function everything(h: Awaited<ReturnType<typeof scopedService>>, ctx: SkillRequestContext): Promise<string> {
  const s = h.service;
  const parts = [
    await s.search({ query: 'deploy project tenant anything workspace', limit: 20 }, ctx),
    await s.search({ query: 'deploy', search_type: 'regex', limit: 20 }, ctx),
    await s.list({ page_size: 50 }, ctx),
    await s.directory(ctx),
    await s.getRelevant({ task: 'deploy project alpha beta tenant one workspace', top_k: 10, max_tokens: 5000 }, ctx),
    await s.get({ names: ['global.deploy', 'proj.x.deploy', 'tenant.onee.deploy', 'ws.deplo'] }, ctx),
  ];
  return JSON.stringify(parts);
}

describe('skills: scope (no cross-project / cross-tenant leakage) and trust', () => {
  it('project A in tenant T1 sees its project, its tenant and global skills only', async () => {
    const h = await scopedService();
    const out = await everything(h, { scope: { tenantId: 'T1', projectId: 'A' }, includeWorkspacePacks: true });
    for (const visible of ['proj.a.deploy', 'tenant.one.deploy', 'global.deploy', 'ws.deploy']) assert.ok(out.includes(visible), visible);
    assert.ok(!out.includes('proj.b.deploy'), 'project B leaked');
  });

  it('project B in tenant T2 never sees project A or tenant T1 skills (also not as suggestions)', async () => {
    const h = await scopedService();
    const out = await everything(h, { scope: { tenantId: 'T2', projectId: 'B' }, includeWorkspacePacks: true });
    assert.ok(out.includes('proj.b.deploy'));
    assert.ok(!out.includes('proj.a.deploy'), 'project A leaked');
    assert.ok(!out.includes('tenant.one.deploy'), 'tenant T1 leaked');
  });

  it('a request without scope sees global skills only', async () => {
    const h = await scopedService();
    const out = await everything(h, { includeWorkspacePacks: true });
    for (const hidden of ['proj.a.deploy', 'proj.b.deploy', 'tenant.one.deploy']) assert.ok(!out.includes(hidden), hidden);
    assert.ok(out.includes('global.deploy'));
  });

  it('untrusted workspace: skills of workspace packs are neither returned, injected nor suggested', async () => {
    const h = await scopedService();
    const out = await everything(h, { scope: { tenantId: 'T1', projectId: 'A' }, includeWorkspacePacks: false });
    assert.ok(!out.includes('ws.deploy'));
    assert.ok(out.includes('global.deploy'));
  });
});

describe('skills: pack sources', () => {
  it('resolves built-in, settings and agent-skill folders, marking workspace packs', () => {
    const config = skillsConfigSchema.parse({
      packs: [
        { name: 'team', path: 'skills' },
        { name: 'shared', path: '/opt/shared-skills', scopeMode: 'global' },
      ],
    });
    const packs = resolveSkillPacks({
      config,
      extensionPath: '/ext',
      builtInPackNames: ['core'],
      workspaceFolders: [{ name: 'My App', path: '/ws/app' }],
      homeDir: '/home/u',
      tenantId: 'T',
    });
    const rows = packs.map((p) => [p.name, p.root, p.source, p.workspace, p.scopeMode, p.projectId ?? '']);
    assert.deepEqual(rows, [
      ['core', path.join('/ext', 'skill-packs', 'core'), 'builtin', false, 'global', ''],
      ['team', path.join('/ws/app', 'skills'), 'settings', true, 'project', '/ws/app'],
      ['shared', '/opt/shared-skills', 'settings', false, 'global', '/ws/app'],
      ['ws-my-app-github', path.join('/ws/app', '.github/skills'), 'workspace-agent-folder', true, 'project', '/ws/app'],
      ['ws-my-app-claude', path.join('/ws/app', '.claude/skills'), 'workspace-agent-folder', true, 'project', '/ws/app'],
      ['ws-my-app-agents', path.join('/ws/app', '.agents/skills'), 'workspace-agent-folder', true, 'project', '/ws/app'],
      ['home-copilot', path.join('/home/u', '.copilot/skills'), 'home-agent-folder', false, 'global', ''],
      ['home-claude', path.join('/home/u', '.claude/skills'), 'home-agent-folder', false, 'global', ''],
      ['home-agents', path.join('/home/u', '.agents/skills'), 'home-agent-folder', false, 'global', ''],
    ]);
    const off = resolveSkillPacks({
      config: skillsConfigSchema.parse({ includeAgentSkillFolders: false, includeBuiltInPacks: false }),
      workspaceFolders: [{ name: 'a', path: '/ws/a' }],
      homeDir: '/home/u',
    });
    assert.deepEqual(off, []);
  });
});

describe('skills: tool-reference gating', () => {
  it('rewrites denied names in text and drops them from tool lists', () => {
    const gate = new ToolReferenceGate((name) => (name === 'mcp_github_delete_repo' || name === 'Bash' ? 'denied' : 'visible'));
    assert.equal(gate.text('Call `mcp_github_delete_repo` then tool_search.'), 'Call a suitable tool (find it with tool_search) then tool_search.');
    assert.equal(gate.text('Use Bash(git push:*) here', ['Bash']), 'Use a suitable tool (find it with tool_search) here');
    assert.deepEqual(
      gate.filterNames(['Bash(git:*)', 'Read'], (n) => n.replace(/\(.*/, '')),
      ['Read'],
    );
    const noSearch = new ToolReferenceGate((name) => (name === 'tool_search' || name === 'x_y' ? 'denied' : 'visible'));
    assert.equal(noSearch.text('use x_y'), 'use a suitable tool');
  });

  it('randomized: no denied tool name ever appears in any output', async () => {
    const toolName = fc
      .tuple(
        fc.constantFrom('mcp', 'gh', 'db', 'fs', 'web', 'jira'),
        fc.constantFrom('_', '.', '-'),
        fc.constantFrom('delete', 'drop', 'push', 'create', 'query', 'wipe'),
        fc.constantFrom('_repo', '_table', '_issue', 'All', '_v2', 'Force'),
      )
      .map(([a, sep, b, c]) => `${a}${sep}${b}${c}`);
    const plainTool = fc.constantFrom('Bash', 'Write', 'Terminal');
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.oneof(toolName, plainTool), { minLength: 2, maxLength: 6 }),
        fc.integer({ min: 0, max: 1000 }),
        async (tools, seed) => {
          const denied = new Set(tools.filter((_, i) => (seed >> i) % 2 === 0 || i === 0));
          const root = tempDir();
          const t = (i: number) => tools[(seed + i) % tools.length]!;
          const md = [
            '---',
            'name: pack.r.danger',
            'title: Use tools',
            `trigger: "Use ${t(0)} when needed"`,
            'tools:',
            ...tools.map((tool) => `  - tool: ${tool}\n    note: "prefer ${t(1)}"`),
            `allowed-tools: "${tools.map((x) => `${x}(arg:*)`).join(' ')}"`,
            'steps:',
            `  - "Run \`${t(0)}\` first."`,
            `  - "Then ${t(1)} and ${t(2)}(x) with care."`,
            `  - "If ${t(3)} fails, retry."`,
            'preconditions:',
            `  - "${t(4)} is configured"`,
            'failure_modes:',
            `  - "${t(5)} times out"`,
            '---',
            `Body mentions ${tools.join(', ')} and \`${t(2)}\`.`,
            '',
          ].join('\n');
          writeTree(root, {
            'danger.skill.md': md,
            [`${t(0)
              .toLowerCase()
              .replace(/[^a-z]/g, '')}-notes.skill.yaml`]: stepSkill('pack.r.other', `Other skill using ${t(1)}`, [`Call ${t(2)}`]),
          });
          const h = await makeService();
          await h.service.loadPacks([pack('r', root)]);
          const gate: ToolGate = (name) => (denied.has(name) ? 'denied' : 'visible');
          const ctx: SkillRequestContext = { includeWorkspacePacks: true, toolGate: gate, knownToolNames: tools };
          const outputs = [
            await h.service.getRelevant({ task: `use tools ${tools.join(' ')} needed`, max_tokens: 3000, top_k: 5 }, ctx),
            await h.service.get({ names: ['pack.r.danger', 'pack.r.other', ...[...denied].slice(0, 3)] }, ctx),
            await h.service.get({ names: ['pack.r.danger'], format: 'raw', max_tokens: 200 }, ctx),
            await h.service.search({ query: `use ${tools.join(' ')}` }, ctx),
            await h.service.search({ query: [...denied][0]!, search_type: 'regex' }, ctx),
            await h.service.list({}, ctx),
            await h.service.directory({ ...ctx, pinnedNames: ['pack.r.danger'] }),
          ];
          const text = JSON.stringify(outputs);
          for (const name of denied)
            assert.ok(!new RegExp(`(?<![A-Za-z0-9_$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_$])`).test(text), `denied ${name} leaked`);
          // Allowed tools are still mentioned.
          for (const name of tools.filter((n) => !denied.has(n))) assert.ok(text.includes(name), `allowed ${name} vanished`);
        },
      ),
      { numRuns: 30 },
    );
  });
});
