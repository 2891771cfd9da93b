import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { toolshedSettingsSchema } from '../../../src/core/config/settingsSchema';
import { resolveSkillPacks } from '../../../src/core/skills/packs/skillPackSources';
import type { AgentSkillLocation } from '../../../src/core/skills/packs/skillPackSources';
import { makeService, tempDir, writeTree } from './helpers';

const skillMd = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\nFollow the ${name} steps.\n`;
const on = (...locations: string[]): AgentSkillLocation[] => locations.map((location) => ({ location, fromWorkspaceSettings: false }));

describe('agent-skill folders @toolshed loads: chat.agentSkillsLocations', () => {
  const skills = toolshedSettingsSchema.parse({}).skills;

  /** A workspace and a home folder with one SKILL.md skill in each folder named. */
  function machine(folders: Record<string, string[]>) {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (const [base, locations] of Object.entries(folders))
      for (const location of locations) {
        const name = `${base}-${location.replace(/[^a-z]+/g, '-').replace(/^-|-$/g, '')}`;
        files[path.join(base, location, name, 'SKILL.md')] = skillMd(name, `Use the ${name} skill for its folder`);
      }
    writeTree(root, files);
    return { ws: path.join(root, 'ws'), home: path.join(root, 'home') };
  }

  async function loadedNames(input: { ws: string; home: string; agentSkillLocations?: AgentSkillLocation[]; includeWorkspacePacks?: boolean }) {
    const packs = resolveSkillPacks({
      config: skills,
      workspaceFolders: [{ name: 'ws', path: input.ws }],
      homeDir: input.home,
      agentSkillLocations: input.agentSkillLocations,
    });
    const h = await makeService();
    await h.service.loadPacks(packs);
    const listed = await h.service.list({ page_size: 50 }, { includeWorkspacePacks: input.includeWorkspacePacks ?? true, scope: { projectId: input.ws } });
    return listed.skills.map((s) => s.name).sort();
  }

  it('by default: the six folders VS Code reads, ~/.agents/skills included', async () => {
    const m = machine({ ws: ['.github/skills', '.claude/skills', '.agents/skills'], home: ['.copilot/skills', '.claude/skills', '.agents/skills'] });
    assert.deepEqual(await loadedNames(m), [
      'home-agents-skills',
      'home-claude-skills',
      'home-copilot-skills',
      'ws-agents-skills',
      'ws-claude-skills',
      'ws-github-skills',
    ]);
  });

  it('custom entries are loaded, an entry turned off is not, relative per workspace folder and ~/ from home', async () => {
    const m = machine({ ws: ['team/skills', '.claude/skills', '.github/skills'], home: ['shared-skills'] });
    const names = await loadedNames({ ...m, agentSkillLocations: on('.github/skills', 'team/skills', '~/shared-skills') });
    assert.deepEqual(names, ['home-shared-skills', 'ws-github-skills', 'ws-team-skills']);
  });

  it('absolute paths, backslashes, `..`, the whole workspace or home folder are never read', () => {
    const m = { ws: path.join(path.sep, 'w', 'ws'), home: path.join(path.sep, 'w', 'home') };
    const packs = resolveSkillPacks({
      config: skills,
      workspaceFolders: [{ name: 'ws', path: m.ws }],
      homeDir: m.home,
      agentSkillLocations: on('/etc/skills', 'a\\b', '../elsewhere', '.', './', '~', '~/', '~/../x', 'ok/skills'),
    });
    assert.deepEqual(
      packs.map((p) => p.root),
      [path.join(m.ws, 'ok/skills')],
    );
  });

  it('a home folder named only in workspace settings is workspace-sourced: Restricted Mode leaves it out', async () => {
    const m = machine({ home: ['planted'] });
    const locations: AgentSkillLocation[] = [{ location: '~/planted', fromWorkspaceSettings: true }];
    assert.deepEqual(await loadedNames({ ...m, agentSkillLocations: locations }), ['home-planted']);
    assert.deepEqual(await loadedNames({ ...m, agentSkillLocations: locations, includeWorkspacePacks: false }), []);
  });

  it('toolshed.skills.includeAgentSkillFolders off reads none of them', () => {
    const packs = resolveSkillPacks({
      config: { ...skills, includeAgentSkillFolders: false },
      workspaceFolders: [{ name: 'ws', path: '/w' }],
      homeDir: '/h',
      agentSkillLocations: on('.github/skills', '~/x'),
    });
    assert.deepEqual(packs, []);
  });
});
