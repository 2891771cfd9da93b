import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildConfigurationContribution } from '../../../src/core/config/manifestConfiguration';
import { readSettings } from '../../../src/core/config/readSettings';
import { defaultSettings } from '../../../src/core/config/settingsSchema';

describe('settings', () => {
  it('package.json contributes exactly the settings the schema defines (run scripts/sync-manifest.ts when this fails)', () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
    assert.deepEqual(pkg.contributes.configuration, buildConfigurationContribution());
  });

  it('every contributed setting has a description and a default', () => {
    for (const section of buildConfigurationContribution()) {
      for (const [key, setting] of Object.entries(section.properties) as Array<[string, Record<string, unknown>]>) {
        assert.ok(typeof setting.markdownDescription === 'string' && setting.markdownDescription.length > 10, `${key} lacks a description`);
        assert.ok('default' in setting, `${key} lacks a default`);
      }
    }
  });

  it('empty input gives the documented defaults', () => {
    const { settings, problems } = readSettings({});
    assert.deepEqual(problems, []);
    assert.equal(settings.toolSearch.defaultLoadingMode, 'deferred');
    assert.equal(settings.skills.maxTokens, 2000);
    assert.equal(settings.skills.directory.maxEntries, 30);
    assert.deepEqual(settings, defaultSettings());
  });

  it('a wrong value falls back to its default and names the key, keeping the valid ones', () => {
    const { settings, problems } = readSettings({
      toolSearch: { maxSearchResults: 'many', activationScope: 'session' },
      skills: { maxTokens: 5 },
    });
    assert.deepEqual(problems.map((p) => p.key).sort(), ['skills.maxTokens', 'toolSearch.maxSearchResults']);
    assert.equal(settings.toolSearch.maxSearchResults, 10);
    assert.equal(settings.toolSearch.activationScope, 'session');
    assert.equal(settings.skills.maxTokens, 2000);
  });

  it('a bad pack entry drops the pack list, not the whole configuration', () => {
    const { settings, problems } = readSettings({ skills: { packs: [{ name: 'BAD NAME', path: '' }], topK: 4 } });
    assert.ok(problems.length >= 1);
    assert.deepEqual(settings.skills.packs, []);
    assert.equal(settings.skills.topK, 4);
  });
});
