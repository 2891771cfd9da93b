import * as assert from 'node:assert/strict';
import { MemoryByteStore } from '../../../../src/core/platform/memoryByteStore';
import { MemoryLogger } from '../../../../src/core/platform/basicPorts';
import { isExecutableFile } from '../../../../src/core/platform/nodeProcesses';
import { nodeFileSystem } from '../../../../src/core/platform/nodeFileSystem';
import { LedgerStore } from '../../../../src/core/ledger/ledgerStore';
import { discoverScriptTools } from '../../../../src/core/skills/scripts/scriptDiscovery';
import { scriptSourcesOf } from '../../../../src/core/skills/scripts/scriptSources';
import { loadSqlEngine } from '../../../../src/core/sql/sqlEngine';
import { makeService, pack, tempDir, writeTree } from '../helpers';

/**
 * Retired means out of use, scripts included: the scripts of a retired SKILL.md skill are not
 * offered as tools (so `tool_search` cannot find them and the runner, which runs only offered
 * script tools, cannot run them); Restore offers them again.
 */
describe('skill scripts of a retired skill', () => {
  it('are not offered while the skill is retired, and are again after Restore', async () => {
    const root = tempDir();
    writeTree(root, {
      'disk-report/SKILL.md': '---\nname: disk-report\ndescription: Report the disk usage of the workspace\n---\nRun the script.\n',
      'disk-report/scripts/usage.py': '"""Print the disk usage."""\nprint(42)\n',
      'line-count/SKILL.md': '---\nname: line-count\ndescription: Count the lines of the source files\n---\nRun the script.\n',
      'line-count/scripts/count.py': '"""Count lines."""\nprint(7)\n',
    });
    const { service } = await makeService();
    await service.loadPacks([pack('ops', root)]);
    const ledger = await LedgerStore.open({ engine: await loadSqlEngine(), store: new MemoryByteStore(), logger: new MemoryLogger(), clock: { now: () => 1 } });
    const offered = async () => {
      const retired = new Set(ledger.report(1).retiredSkills.map((row) => row.skill));
      const catalog = await discoverScriptTools({ ...nodeFileSystem, isExecutable: isExecutableFile }, scriptSourcesOf(service, retired), new Set());
      return catalog.tools.map((tool) => tool.toolName).sort();
    };
    assert.deepEqual(await offered(), ['disk-report_usage', 'line-count_count']);
    assert.equal(ledger.retireSkill('disk-report'), true);
    assert.deepEqual(await offered(), ['line-count_count'], 'the retired skill offers no script');
    ledger.restoreSkill('disk-report');
    assert.deepEqual(await offered(), ['disk-report_usage', 'line-count_count'], 'restored: offered again');
  });
});

describe('skill scripts of a library', () => {
  it('are found reading only the records of the skills with scripts', async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      'disk-report/SKILL.md': '---\nname: disk-report\ndescription: Report the disk usage of the workspace\n---\nRun the script.\n',
      'disk-report/scripts/usage.py': '"""Print the disk usage."""\nprint(42)\n',
      'notes/SKILL.md': '---\nname: notes\ndescription: Keep notes of the meeting\n---\nWrite them down.\n',
      'notes/references/template.md': '# Notes\n',
      'Shouty/SKILL.md': '---\nname: shouty\ndescription: A folder named like scripts in capitals\n---\nNothing to run.\n',
      'Shouty/SCRIPTS.md': 'not a scripts folder\n',
    };
    for (let i = 0; i < 40; i++) files[`plain-${i}/SKILL.md`] = `---\nname: plain-${i}\ndescription: Plain skill number ${i}\n---\nNo scripts.\n`;
    writeTree(root, files);
    const { service } = await makeService();
    await service.loadPacks([pack('lib', root)]);
    const inspected: string[] = [];
    const lookup = {
      skillsWithScripts: () => service.skillsWithScripts(),
      inspect: (name: string) => {
        inspected.push(name);
        return service.inspect(name);
      },
    };
    const sources = scriptSourcesOf(lookup, new Set());
    assert.deepEqual(
      sources.map((s) => s.skillName),
      ['disk-report'],
    );
    assert.deepEqual(inspected, ['disk-report'], 'the 42 skills without scripts are not read');
    const catalog = await discoverScriptTools({ ...nodeFileSystem, isExecutable: isExecutableFile }, sources, new Set());
    assert.deepEqual(
      catalog.tools.map((tool) => tool.toolName),
      ['disk-report_usage'],
    );
  });
});
