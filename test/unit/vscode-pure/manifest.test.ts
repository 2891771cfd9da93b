import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { skillFileJsonSchema } from '../../../src/core/skills/skillSchema';
import { workspaceActivationEvents } from '../../../src/core/lmTools/activationEvents';

const ROOT = path.join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

describe('manifest: sidebar, menus, walkthrough, schemas', () => {
  it('every menu entry names a declared command', () => {
    const declared = new Set(pkg.contributes.commands.map((c: { command: string }) => c.command));
    for (const [menu, entries] of Object.entries(pkg.contributes.menus) as Array<[string, Array<{ command: string }>]>) {
      for (const entry of entries) assert.ok(declared.has(entry.command), `${menu}: ${entry.command}`);
    }
  });

  it('views live in the Toolshed container whose icon exists', () => {
    const container = pkg.contributes.viewsContainers.activitybar[0];
    assert.equal(container.id, 'toolshed');
    assert.ok(existsSync(path.join(ROOT, container.icon)), container.icon);
    const ids = pkg.contributes.views.toolshed.map((v: { id: string }) => v.id);
    const sources = ['src/vscode/views/skillDirectoryView.ts', 'src/vscode/views/activatedToolsView.ts']
      .map((f) => readFileSync(path.join(ROOT, f), 'utf8'))
      .join('\n');
    for (const id of ids) assert.ok(sources.includes(`'${id}'`), `${id} is created in code`);
    for (const welcome of pkg.contributes.viewsWelcome) assert.ok(ids.includes(welcome.view), welcome.view);
  });

  it('Toolshed starts in a workspace with any skill-file format or a tool-examples file (run scripts/sync-manifest.ts when this fails)', () => {
    assert.deepEqual(pkg.activationEvents, workspaceActivationEvents());
    for (const file of ['a/b.skill.md', 'b.skill.yaml', 'c.skill.yml', 'd.skill.json', 'e.skill.jsonl', 'f/SKILL.md', 'g.tools.yaml']) {
      const suffix = file.includes('/SKILL.md') ? '/SKILL.md' : file.slice(file.indexOf('.'));
      assert.ok(
        pkg.activationEvents.some((event: string) => event.endsWith(suffix)),
        `${file} activates Toolshed`,
      );
    }
  });

  it('in Restricted Mode VS Code ignores workspace values of settings that widen what runs or where text is sent, and each one is a declared setting', () => {
    const restricted: string[] = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations;
    const declared = new Set(pkg.contributes.configuration.flatMap((section: { properties: object }) => Object.keys(section.properties)));
    for (const name of restricted) assert.ok(declared.has(name), `${name} is not a declared setting`);
    for (const name of [
      'toolshed.skills.packs',
      'toolshed.skills.includeAgentSkillFolders',
      'toolshed.toolSearch.allow',
      'toolshed.toolExamples.overrides',
      // A workspace must not switch the embedding endpoint on or point it at another local port:
      // skill and request text (redacted) would go there.
      'toolshed.embeddings.embedder',
      'toolshed.embeddings.endpointUrl',
      'toolshed.embeddings.endpointModel',
    ]) {
      assert.ok(restricted.includes(name), `${name} is not in restrictedConfigurations`);
    }
  });

  it('walkthrough steps have their markdown', () => {
    for (const walkthrough of pkg.contributes.walkthroughs) {
      for (const step of walkthrough.steps) assert.ok(existsSync(path.join(ROOT, step.media.markdown)), step.media.markdown);
    }
  });

  it('jsonValidation/yamlValidation point at the generated schema, which .vscodeignore ships', () => {
    assert.equal(pkg.contributes.jsonValidation[0].url, './dist/schemas/skill.schema.json');
    assert.equal(pkg.contributes.yamlValidation[0].url, './dist/schemas/skill.schema.json');
    assert.match(readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8'), /^!dist\/schemas\/\*\*$/m);
    assert.match(readFileSync(path.join(ROOT, 'esbuild.mjs'), 'utf8'), /buildSchemas\(\)/);
    const built = path.join(ROOT, 'dist', 'schemas', 'skill.schema.json');
    if (existsSync(built)) assert.deepEqual(JSON.parse(readFileSync(built, 'utf8')), JSON.parse(JSON.stringify(skillFileJsonSchema())));
  });
});
