import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import {
  isNativeSkillFile,
  nativeSkillNames,
  nativeSkillRoots,
  NATIVE_SKILL_LOCATIONS_DEFAULT,
  packMayHoldNativeSkills,
} from '../../../src/core/skills/packs/nativeAgentSkills';
import type { SkillRequestContext } from '../../../src/core/skills/skillService';
import { makeService, pack, tempDir, writeTree } from './helpers';

const skillMd = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\nFollow the ${name} steps.\n`;

describe('native agent skills: which SKILL.md folders VS Code offers itself', () => {
  const ws = path.join(path.sep, 'work', 'repo');
  const home = path.join(path.sep, 'home', 'me');

  it('with the setting on and default locations: the workspace and home folders VS Code reads', () => {
    const roots = nativeSkillRoots({ supported: true, enabled: true }, [ws], home);
    assert.deepEqual(
      roots.sort(),
      [
        path.join(home, '.agents/skills'),
        path.join(home, '.claude/skills'),
        path.join(home, '.copilot/skills'),
        path.join(ws, '.agents/skills'),
        path.join(ws, '.claude/skills'),
        path.join(ws, '.github/skills'),
      ].sort(),
    );
    assert.equal(NATIVE_SKILL_LOCATIONS_DEFAULT.length, 6);
  });

  it('nothing when the setting is off or the host has no native skills (VS Code before 1.139)', () => {
    assert.deepEqual(nativeSkillRoots({ supported: true, enabled: false }, [ws], home), []);
    assert.deepEqual(nativeSkillRoots({ supported: false, enabled: true }, [ws], home), []);
  });

  it('chat.agentSkillsLocations: only `true` entries, relative per folder, `~/` from home, absolute paths ignored', () => {
    const roots = nativeSkillRoots(
      {
        supported: true,
        enabled: true,
        locations: { '.github/skills': false, 'my-skills': true, '~/shared': true, '/abs/skills': true, 'a\\b': true, '.claude/skills': 'yes' },
      },
      [ws, path.join(path.sep, 'work', 'other')],
      home,
    );
    assert.deepEqual(roots, [path.join(ws, 'my-skills'), path.join(path.sep, 'work', 'other', 'my-skills'), path.join(home, 'shared')]);
  });

  it('a skill counts only as `<location>/<skill>/SKILL.md`, not deeper and not *.skill.md', () => {
    const root = path.join(ws, '.github/skills');
    assert.ok(isNativeSkillFile(path.join(root, 'release-notes', 'SKILL.md'), [root]));
    assert.ok(!isNativeSkillFile(path.join(root, 'fix-lint.skill.md'), [root]));
    assert.ok(!isNativeSkillFile(path.join(root, 'group', 'deep', 'SKILL.md'), [root]));
    assert.ok(!isNativeSkillFile(path.join(ws, 'skills', 'x', 'SKILL.md'), [root]));
  });

  it('a pack whose folder is unrelated to every native root holds no native skill; inside, around or equal to one it may', () => {
    const roots = nativeSkillRoots({ supported: true, enabled: true }, [ws], home);
    assert.equal(packMayHoldNativeSkills(path.join(path.sep, 'data', 'library'), roots), false, 'a library elsewhere');
    assert.equal(packMayHoldNativeSkills(path.join(ws, 'skills'), roots), false, 'a sibling of .github/skills');
    assert.equal(packMayHoldNativeSkills(path.join(ws, '.github', 'skills-extra'), roots), false, 'a name that only starts like a root');
    assert.equal(packMayHoldNativeSkills(ws, roots), true, 'the workspace holds .github/skills');
    assert.equal(packMayHoldNativeSkills(path.join(ws, '.github', 'skills'), roots), true, 'a root itself');
    assert.equal(packMayHoldNativeSkills(path.join(ws, '.github', 'skills', 'release-notes'), roots), true, 'one skill folder of a root');
    assert.equal(packMayHoldNativeSkills(path.join(ws, '.github', 'skills', '..', 'skills'), roots), true, 'resolved first');
    assert.equal(packMayHoldNativeSkills(ws, []), false, 'native skills off');
  });

  it('the pack filter never hides a native skill: every native file lies in a pack it keeps (property)', () => {
    const segment = fc.constantFrom('a', 'b', 'skills', '.github', '.claude', 'SKILL.md', 'x.skill.md', '..');
    const folder = fc.array(segment, { minLength: 0, maxLength: 4 }).map((parts) => path.join(ws, ...parts));
    fc.assert(
      fc.property(fc.array(folder, { minLength: 1, maxLength: 3 }), folder, fc.array(segment, { minLength: 1, maxLength: 4 }), (roots, packRoot, below) => {
        // A pack's files are found below its folder (skillPackScanner joins each name to it).
        const file = path.join(packRoot, ...below.filter((part) => part !== '..'));
        if (!isNativeSkillFile(file, roots)) return true;
        return packMayHoldNativeSkills(packRoot, roots);
      }),
      { numRuns: 2000 },
    );
  });

  it('learned skills are never native, whatever their file', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), (name) => {
        const file = path.join(ws, '.github/skills', 'x', 'SKILL.md');
        return nativeSkillNames([{ name, file, origin: 'learned' }], [path.join(ws, '.github/skills')]).size === 0;
      }),
    );
  });
});

describe('native agent skills: agent-mode answers leave them out, @toolshed keeps them', () => {
  async function workspaceWithBothKinds() {
    const root = tempDir();
    writeTree(root, {
      '.github/skills/release-notes/SKILL.md': skillMd('release-notes', 'Write release notes from merged pull requests'),
      '.github/skills/fix-lint.skill.md': '---\nname: fix-lint\ntrigger: Fix lint errors in release code\nsteps:\n  - Run the linter.\n---\n',
      'skills/deploy-notes/SKILL.md': skillMd('deploy-notes', 'Write release deploy notes'),
    });
    const h = await makeService();
    await h.service.loadPacks([
      pack('ws-github', path.join(root, '.github/skills'), { workspace: true }),
      pack('team', path.join(root, 'skills'), { workspace: true }),
    ]);
    await h.service.addLearnedSkill({ name: 'learned-release', trigger: 'When a release needs notes', steps: ['Collect the changes.'], scope_mode: 'global' });
    const items = h.service.listPacks().flatMap((p) => p.skills);
    const roots = nativeSkillRoots({ supported: true, enabled: true }, [root], undefined);
    const native = nativeSkillNames(items, roots);
    return { h, native, roots };
  }

  it('only the SKILL.md folder under .github/skills is native', async () => {
    const { native } = await workspaceWithBothKinds();
    assert.deepEqual([...native], ['release-notes']);
  });

  it('the same names from the stored files of the packs that may hold them (what the extension reads), without the skill list', async () => {
    const { h, native, roots } = await workspaceWithBothKinds();
    assert.deepEqual([...nativeSkillNames(h.service.packSkillFiles(['ws-github', 'team']), roots)], [...native]);
    assert.deepEqual([...nativeSkillNames(h.service.packSkillFiles(['ws-github']), roots)], [...native]);
    assert.deepEqual(
      h.service.packSkillFiles(['team']).map((s) => s.name),
      ['deploy-notes'],
    );
    assert.deepEqual(h.service.packSkillFiles([]), []);
  });

  it('search, list, get and the single skill tool never return a native skill in agent mode; all of them without it', async () => {
    const { h, native } = await workspaceWithBothKinds();
    const agent: SkillRequestContext = { includeWorkspacePacks: true, nativeSkillNames: native };
    const toolshed: SkillRequestContext = { includeWorkspacePacks: true };
    const names = async (ctx: SkillRequestContext) => ({
      search: (await h.service.search({ query: 'release notes', limit: 20 }, ctx)).skills.map((s) => s.name).sort(),
      regex: (await h.service.search({ query: 'release', search_type: 'regex', limit: 20 }, ctx)).skills.map((s) => s.name).sort(),
      list: (await h.service.list({ page_size: 50 }, ctx)).skills.map((s) => s.name).sort(),
    });
    const all = ['deploy-notes', 'fix-lint', 'learned-release', 'release-notes'];
    const withoutNative = all.filter((n) => n !== 'release-notes');
    assert.deepEqual((await names(toolshed)).list, all);
    assert.deepEqual((await names(agent)).list, withoutNative);
    assert.ok((await names(toolshed)).search.includes('release-notes'));
    assert.ok(!(await names(agent)).search.includes('release-notes'));
    assert.ok(!(await names(agent)).regex.includes('release-notes'));
    assert.equal((await h.service.list({ page_size: 50 }, agent)).total, withoutNative.length);

    const got = await h.service.get({ names: ['release-notes', 'fix-lint'] }, agent);
    assert.deepEqual(
      got.skills.map((s) => s.name),
      ['fix-lint'],
    );
    assert.match(got.message ?? '', /"release-notes" is not available \(VS Code offers it to agent mode itself/);
    assert.ok(!got.formatted_context.includes('Follow the release-notes steps'), 'no content of the native skill');
    assert.deepEqual(
      (await h.service.get({ names: ['release-notes'] }, toolshed)).skills.map((s) => s.name),
      ['release-notes'],
    );

    // An unknown name's suggestions never point at a native skill either.
    const near = await h.service.get({ names: ['release-note'] }, agent);
    assert.ok(!(near.missing?.[0]?.suggestions ?? []).includes('release-notes'), JSON.stringify(near.missing));
  });

  it('no agent-mode answer names a native skill, whatever the query (property)', async () => {
    const { h, native } = await workspaceWithBothKinds();
    const agent: SkillRequestContext = { includeWorkspacePacks: true, nativeSkillNames: native };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom('release', 'notes', 'write', 'release-notes', 'lint', 'deploy'), fc.string({ minLength: 1, maxLength: 20 })),
        fc.constantFrom('fts', 'exact'),
        async (query, searchType) => {
          const out = await h.service.search({ query, search_type: searchType as 'fts' | 'exact', limit: 20 }, agent);
          return !out.skills.some((s) => s.name === 'release-notes');
        },
      ),
      { numRuns: 40 },
    );
  });
});
