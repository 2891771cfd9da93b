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
    const sources = ['src/vscode/views/skillDirectoryView.ts', 'src/vscode/views/activatedToolsView.ts', 'src/vscode/views/ledgerTreeView.ts']
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

  it('in Restricted Mode VS Code ignores workspace values of every setting that widens what runs, where text goes, or weakens a protection', () => {
    const restricted: string[] = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations;
    const declared = new Set(pkg.contributes.configuration.flatMap((section: { properties: object }) => Object.keys(section.properties)));
    for (const name of restricted) assert.ok(declared.has(name), `${name} is not a declared setting`);
    // The whole set, each with why an untrusted workspace must not set it: adding or dropping one
    // is a decision this list records (docs/security.md says the same). Settings whose effect
    // Restricted Mode already switches off in code (learning, pre-activation) need no entry.
    const WHY: Record<string, string> = {
      'toolshed.skills.packs': 'loads skills (and their scripts) from folders the workspace picks',
      'toolshed.skills.includeAgentSkillFolders': "loads the workspace's .github/.claude/.agents skill folders",
      'toolshed.toolSearch.allow': 'widens which tools may be used',
      'toolshed.toolSearch.deny': "an empty workspace list would replace the user's denied tools",
      'toolshed.tools.state': "would replace the user's per-tool choices, turning an `off` tool back on",
      'toolshed.toolExamples.overrides': 'puts workspace text into tool descriptions',
      'toolshed.embeddings.embedder': 'would switch the endpoint on: skill and request text leave the process',
      'toolshed.embeddings.endpointUrl': 'would point that text at another port of this machine',
      'toolshed.embeddings.endpointModel': 'part of where that text goes',
      'toolshed.skills.redactPii': 'would turn off redaction of skill text sent to the model',
      'toolshed.skills.scopeMode': 'would file skills learned in this window as tenant or global, read by other workspaces',
    };
    assert.deepEqual([...restricted].sort(), Object.keys(WHY).sort());
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
