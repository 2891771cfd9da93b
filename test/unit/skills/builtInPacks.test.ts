import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../src/core/platform/nodeFileSystem';
import { validateSkillTargets } from '../../../src/core/skills/packs/skillValidation';
import { ctx, makeService, pack } from './helpers';

const CORE = path.join(__dirname, '..', '..', '..', 'skill-packs', 'core');

describe('skills: built-in packs', () => {
  it('validate cleanly (no errors, no warnings) and use several formats including SKILL.md', async () => {
    const report = await validateSkillTargets(nodeFileSystem, [{ path: CORE, packName: 'core' }]);
    assert.deepEqual(report.problems, []);
    assert.ok(report.skills >= 12, `only ${report.skills} skills`);
    const exts = new Set(report.definitions.map((d) => (path.basename(d.file) === 'SKILL.md' ? 'SKILL.md' : d.file.replace(/^.*\.skill\./, ''))));
    for (const ext of ['md', 'yaml', 'json', 'jsonl', 'SKILL.md']) assert.ok(exts.has(ext), ext);
  });

  it('are found by realistic requests', async () => {
    const { service } = await makeService();
    await service.loadPacks([pack('core', CORE)]);
    const cases: Array<[string, string]> = [
      ['write a commit message for my staged changes', 'pack.core.git.commit_message'],
      ['review this pull request', 'pack.core.review.pr_diff'],
      ['my unit test is failing, help me debug it', 'pack.core.testing.debug_failing_test'],
      ['bump the lodash dependency to the latest version', 'pack.core.dependencies.upgrade'],
      ['create a new SKILL.md for our team convention', 'write-a-skill'],
      ['I need a tool to create a GitHub issue but none is visible', 'pack.core.tools.find_mcp_tools'],
    ];
    for (const [query, gold] of cases) {
      const out = await service.search({ query, limit: 3 }, ctx);
      assert.ok(out.skills.map((s) => s.name).includes(gold), `${query} → ${out.skills.map((s) => s.name).join(', ')}`);
    }
  });
});
