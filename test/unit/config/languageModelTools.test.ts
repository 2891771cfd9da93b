import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { contributedToolInputSchemas } from '../../../src/core/lmTools/contributedToolSchemas';
import { TOOLSHED_TOOL_NAMES } from '../../../src/core/platform/toolNames';

const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));

describe('contributed language-model tools', () => {
  it('input schemas in package.json are the ones the core validates with (run scripts/sync-manifest.ts when this fails)', () => {
    const schemas = contributedToolInputSchemas();
    for (const tool of pkg.contributes.languageModelTools) {
      assert.deepEqual(tool.inputSchema, schemas[tool.name], tool.name);
    }
    assert.deepEqual(pkg.contributes.languageModelTools.map((t: { name: string }) => t.name).sort(), Object.keys(schemas).sort());
  });

  it('the tools Toolshed treats as its own (never deferred, never counted as a host tool) are exactly the ones it contributes', () => {
    assert.deepEqual([...TOOLSHED_TOOL_NAMES].sort(), pkg.contributes.languageModelTools.map((t: { name: string }) => t.name).sort());
  });

  it('each tool has what agent mode and the # picker need', () => {
    for (const tool of pkg.contributes.languageModelTools) {
      assert.match(tool.toolReferenceName, /^[a-z][A-Za-z]+$/, tool.name);
      assert.ok(tool.modelDescription.length > 80, `${tool.name}: modelDescription too thin for a model`);
      assert.ok(tool.userDescription && tool.displayName && tool.icon, tool.name);
      assert.equal(tool.canBeReferencedInPrompt, true);
    }
  });

  it('`skill` is offered in agent mode only when toolshed.skills.toolStyle is not discovery', () => {
    const skill = pkg.contributes.languageModelTools.find((t: { name: string }) => t.name === 'skill');
    assert.equal(skill.when, "config.toolshed.skills.toolStyle != 'discovery'");
    const setting = pkg.contributes.configuration
      .flatMap((c: { properties: Record<string, { enum?: string[] }> }) => Object.entries(c.properties))
      .find(([key]: [string]) => key === 'toolshed.skills.toolStyle')?.[1];
    assert.deepEqual(setting?.enum, ['discovery', 'single', 'both'], 'the when clause names a real setting and value');
  });
});
