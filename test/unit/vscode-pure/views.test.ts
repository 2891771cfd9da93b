import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ActivationEntry } from '../../../src/vscode/state/activityRegistry';
import { activatedSummary, activationNode, sessionNode } from '../../../src/vscode/views/activatedToolsModel';
import type { PackView, SkillView } from '../../../src/vscode/views/skillDirectorySource';
import { directorySummary, packNode, skillChatReference, skillNode, taskTypeIcon } from '../../../src/vscode/views/skillTreeModel';
import { searchRow, toolChatReference } from '../../../src/vscode/palette/searchItemModel';
import { toolDetailsMarkdown } from '../../../src/vscode/views/toolDetails';

const skill = (over: Partial<SkillView> = {}): SkillView => ({
  name: 'lint-fix',
  title: 'Fix lint errors',
  trigger: 'When lint fails',
  description: '',
  taskType: 'code',
  tags: ['lint'],
  status: 'active',
  packName: 'team',
  sourceFile: '/ws/skills/lint-fix.skill.md',
  sourceLine: 1,
  ...over,
});

describe('views: skill tree model', () => {
  it('shows title, name and trigger, with a task-type icon', () => {
    const node = skillNode(skill(), false);
    assert.equal(node.label, 'Fix lint errors');
    assert.equal(node.description, 'lint-fix — When lint fails');
    assert.equal(node.icon, 'code');
    assert.equal(node.contextValue, 'skill.unpinned.active.file');
    assert.match(node.tooltip, /\*When:\* When lint fails/);
  });

  it('a merged learned skill shows its lineage in the tooltip (escaped); others show none', () => {
    const merged = skillNode(
      skill({ lineage: ['Merged from 2 learned skills (origin learning:pr_1):', '- weather_2 (learning:pr_2, source 0123456789ab)'] }),
      false,
    );
    assert.ok(merged.tooltip.includes('*Lineage:* Merged from 2 learned skills \\(origin learning:pr\\_1\\):'), merged.tooltip);
    assert.ok(merged.tooltip.includes('\\- weather\\_2 \\(learning:pr\\_2, source 0123456789ab\\)'), merged.tooltip);
    assert.doesNotMatch(skillNode(skill(), false).tooltip, /Lineage/);
  });

  it('a learned project or tenant skill offers "Promote" in its context menu (the manifest\'s `when` matches); a global or pack skill does not', () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: { menus: Record<string, Array<{ command: string; when: string }>> };
    };
    const menu = pkg.contributes.menus['view/item/context']?.find((m) => m.command === 'toolshed.promoteSkill');
    assert.ok(menu, 'toolshed.promoteSkill is in the Skill Directory context menu');
    const offers = (view: SkillView) =>
      [...menu.when.matchAll(/viewItem =~ \/(.+?)\/(?= |$)/g)].every((m) =>
        new RegExp((m[1] as string).replace(/\\\\/g, '\\')).test(skillNode(view, false).contextValue),
      );
    const learned = (scope_mode: 'project' | 'tenant' | 'global') =>
      skill({
        sourceFile: undefined,
        packName: 'learned',
        learnedScope: { scope_mode, scope_tenant_id: scope_mode === 'global' ? '' : 'acme', scope_project_id: scope_mode === 'project' ? 'web' : '' },
      });
    assert.equal(offers(learned('project')), true);
    assert.equal(offers(learned('tenant')), true);
    assert.equal(offers(learned('global')), false);
    assert.equal(offers(skill()), false);
    assert.match(skillNode(learned('project'), false).tooltip, /\*Scope:\* project web \\\(tenant acme\\\)/);
  });

  it('an active learned skill offers "Export as Skill Pack" in its context menu; a retired (exported) or pack skill does not', () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: { menus: Record<string, Array<{ command: string; when: string }>> };
    };
    const menu = pkg.contributes.menus['view/item/context']?.find((m) => m.command === 'toolshed.learning.exportAsSkillPack');
    assert.ok(menu, 'toolshed.learning.exportAsSkillPack is in the Skill Directory context menu');
    const offers = (view: SkillView, pinned = false) =>
      [...menu.when.matchAll(/viewItem =~ \/(.+?)\/(?= |$)/g)].every((m) =>
        new RegExp((m[1] as string).replace(/\\\\/g, '\\')).test(skillNode(view, pinned).contextValue),
      );
    const learned = (extra: Partial<SkillView> = {}) =>
      skill({ sourceFile: undefined, packName: 'learned', learnedScope: { scope_mode: 'global', scope_tenant_id: '', scope_project_id: '' }, ...extra });
    assert.equal(offers(learned()), true);
    assert.equal(offers(learned(), true), true);
    assert.equal(offers(learned({ status: 'inactive', statusReason: 'exported as pack skill "x"' })), false);
    assert.equal(offers(skill()), false);
  });

  it('Retire Skill is offered on active skills; a retired one shows as inactive and offers Restore Skill instead', () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: { menus: Record<string, Array<{ command: string; when: string }>> };
    };
    const offers = (command: string, view: SkillView) => {
      const menu = pkg.contributes.menus['view/item/context']?.find((m) => m.command === command && m.when.includes('toolshed.skillDirectory'));
      assert.ok(menu, `${command} is in the Skill Directory context menu`);
      return [...menu.when.matchAll(/viewItem =~ \/(.+?)\/(?= |$)/g)].every((m) =>
        new RegExp((m[1] as string).replace(/\\\\/g, '\\')).test(skillNode(view, false).contextValue),
      );
    };
    const retired = skill({ status: 'inactive', statusReason: 'retired in this workspace (Restore Skill brings it back)', retired: true });
    assert.deepEqual([offers('toolshed.retireSkill', skill()), offers('toolshed.restoreSkill', skill())], [true, false]);
    assert.deepEqual([offers('toolshed.retireSkill', retired), offers('toolshed.restoreSkill', retired)], [false, true]);
    assert.equal(skillNode(retired, false).icon, 'circle-slash');
    assert.match(skillNode(retired, false).description, /inactive: retired in this workspace/);
  });

  it('marks invalid and inactive skills with their reason', () => {
    const invalid = skillNode(skill({ status: 'invalid', statusReason: 'missing steps' }), false);
    assert.equal(invalid.icon, 'error');
    assert.match(invalid.description, /invalid: missing steps/);
    const inactive = skillNode(skill({ status: 'inactive', statusReason: 'needs GITHUB_TOKEN', title: '' }), true);
    assert.equal(inactive.description, 'inactive: needs GITHUB_TOKEN');
    assert.equal(inactive.contextValue, 'skill.pinned.inactive.file');
  });

  it('summarises packs and the directory', () => {
    const pack: PackView = { name: 'team', kind: 'workspace', skills: [skill(), skill({ name: 'b', status: 'invalid' })] };
    assert.equal(packNode(pack).description, 'workspace · 2 skills, 1 invalid');
    assert.deepEqual(directorySummary([pack]), {
      description: '1 skill · 1 pack · 1 invalid',
      badge: { count: 1, tooltip: '1 invalid skill to fix (1 skill loaded) — see Problems' },
    });
    assert.deepEqual(directorySummary([{ ...pack, skills: [skill()] }]), { description: '1 skill · 1 pack' }, 'no badge when nothing needs the user');
    const retired = skill({ name: 'learned.x', status: 'inactive', statusReason: 'exported as pack skill "x"' });
    assert.deepEqual(
      directorySummary([{ ...pack, skills: [skill(), retired] }]),
      { description: '1 skill · 1 pack · 1 inactive' },
      'a retired learned copy is not counted as a skill in use (as /skills counts)',
    );
    assert.equal(taskTypeIcon('nope'), 'lightbulb');
  });

  it('builds chat references', () => {
    assert.equal(skillChatReference(skill(), 'skills/lint-fix.skill.md'), '#file:skills/lint-fix.skill.md ');
    assert.equal(skillChatReference(skill(), undefined), '@toolshed /skill lint-fix ');
    assert.equal(toolChatReference({ name: 'github_issue', referenceName: 'issue' }), '#issue ');
  });
});

describe('views: activated tools model', () => {
  const entry: ActivationEntry = {
    toolName: 'github_create_issue',
    sessionId: 's1',
    sessionLabel: 'file a bug',
    scope: 'session',
    source: 'search',
    reason: 'create issue',
    at: Date.UTC(2025, 0, 1, 12),
    calls: 2,
  };
  it('describes an activation and its session', () => {
    const node = activationNode(entry, Date.UTC(2025, 0, 1, 13));
    assert.equal(node.label, 'github_create_issue');
    assert.match(node.description, /found by "create issue" · session · .* · 2 calls/);
    assert.equal(sessionNode({ sessionId: 's1', label: 'file a bug', entries: [entry] }).description, '1 tool, 2 calls');
    assert.deepEqual(activatedSummary([entry], 40), { count: 1, description: '1 activated tool · 40 deferred' });
  });
});

describe('palette: rows and tool details', () => {
  it('shows score, match type and loading mode', () => {
    const row = searchRow({ name: 'lint', title: 'Lint', score: 1.234, matchType: 'bm25', loadingMode: 'deferred', description: 'a\nb' }, 'tool');
    assert.equal(row.label, '$(tools) lint');
    assert.equal(row.description, 'Lint — score 1.23 · bm25 · deferred');
    assert.equal(row.detail, 'a b');
  });

  it('renders tool details as markdown', () => {
    const md = toolDetailsMarkdown({
      name: 't',
      description: 'does t',
      inputSchema: { type: 'object' },
      examples: [{ args: { q: 1 }, description: 'minimal' }],
    });
    assert.match(md, /^# t/);
    assert.match(md, /## Input schema\n\n```json\n\{\n {2}"type": "object"\n\}/);
    assert.match(md, /- minimal/);
  });
});
