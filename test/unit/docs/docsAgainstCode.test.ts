import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { COMMANDS } from '../../../src/cli/commandList';
import { nodeFileSystem } from '../../../src/core/platform/nodeFileSystem';
import { validateSkillTargets } from '../../../src/core/skills/packs/skillValidation';
import { parseToolExamplesFile } from '../../../src/core/tools/examples/toolExamples';
import { cli } from '../cli/helpers';
import { cliLines, DOC_FILES, fencesOf, proseOf, readDoc, ROOT, toolshedNames } from './docSources';
import { tempFolder } from '../../tempFolder';

/**
 * A reader copies what the docs show: an example skill must load, a setting must exist with the
 * default the page states, a command or CLI line must be one that exists. Fenced examples are
 * marked in their info string: `skill-file=<path as saved>` (validated like `toolshed validate`),
 * `tools-yaml=<file name>` (parsed like a `*.tools.yaml`), `tools-jsonl` (loaded by the CLI).
 */

interface ManifestSetting {
  default?: unknown;
}
interface Manifest {
  contributes: {
    configuration: Array<{ properties: Record<string, ManifestSetting> }>;
    commands: Array<{ command: string; title: string; category?: string }>;
    chatParticipants: Array<{ commands?: Array<{ name: string }> }>;
  };
}
const manifest = JSON.parse(readDoc('package.json')) as Manifest;
const SETTINGS = new Map<string, ManifestSetting>(manifest.contributes.configuration.flatMap((section) => Object.entries(section.properties)));
const COMMAND_IDS = new Set(manifest.contributes.commands.map((c) => c.command));
const PALETTE_TITLES = new Set(manifest.contributes.commands.filter((c) => c.category === 'Toolshed').map((c) => `Toolshed: ${c.title}`));

/** `toolshed.*` names in the docs that are neither settings nor commands, and why. */
const NOT_SETTINGS = new Map<string, string>([
  ['toolshed.*', 'the settings namespace'],
  ['toolshed.vsix', 'the packaged extension file'],
  ['toolshed.tokens.searchSaving', 'a key of the chat result metadata'],
  ['toolshed.skills.myThing', "CONTRIBUTING's placeholder for a new setting"],
  ['toolshed.toolSearch.enabled', 'the deprecated setting, still read and migrated (readSettings.ts)'],
]);

/** Fences in these languages that look like a skill must be marked, so none escapes the check. */
const SKILL_LIKE = /^(?:---\s*$|(?:name|trigger|steps|description|scripts|failure_modes):)/m;

describe('docs: what the pages show matches the code', () => {
  describe('fenced examples load with the validator `toolshed validate` uses', () => {
    let dir: string;
    before(() => {
      dir = tempFolder('toolshed-docs-');
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    for (const doc of DOC_FILES) {
      for (const fence of fencesOf(doc)) {
        const where = `${doc}:${fence.line}`;
        const skillFile = fence.marks.get('skill-file');
        const toolsYaml = fence.marks.get('tools-yaml');
        if (skillFile) {
          it(`${where}: the skill example ${skillFile} validates with no problem`, async () => {
            const file = path.join(dir, String(fence.line), skillFile);
            mkdirSync(path.dirname(file), { recursive: true });
            writeFileSync(file, fence.body);
            const report = await validateSkillTargets(nodeFileSystem, [{ path: file }]);
            const problems = report.problems.map((p) => `${where}, line ${p.line} of the example: ${p.severity}: ${p.message}`);
            assert.deepEqual(problems, []);
            assert.ok(report.skills >= 1, `${where}: defines no skill`);
          });
        } else if (toolsYaml) {
          it(`${where}: the tool-examples file ${toolsYaml} parses with no problem`, () => {
            const parsed = parseToolExamplesFile(fence.body, toolsYaml);
            assert.deepEqual(parsed.problems, []);
            assert.ok(Object.keys(parsed.examples).length > 0, `${where}: no examples`);
          });
        } else if (fence.marks.has('tools-jsonl')) {
          it(`${where}: the tools.jsonl sample loads in \`toolshed search tools\``, async () => {
            const file = path.join(dir, `${fence.line}.tools.jsonl`);
            writeFileSync(file, fence.body);
            const result = await cli('search', 'tools', '--tools', file, '--limit', '3', (fence.marks.get('tools-jsonl') || 'create').replace(/-/g, ' '));
            assert.equal(result.code, 0, result.err);
            assert.ok((JSON.parse(result.out) as { tools: unknown[] }).tools.length > 0, `${where}: the sample finds nothing`);
          });
        } else if (['yaml', 'yml', 'markdown', 'md', 'json', 'jsonl'].includes(fence.language) && SKILL_LIKE.test(fence.body)) {
          it(`${where}: a skill-like ${fence.language} example is marked (skill-file=…) so it is validated`, () => {
            assert.fail(`${where}: add skill-file=<name as saved> (or tools-yaml=…) to the fence's info string`);
          });
        }
      }
    }
  });

  it('every toolshed.* name the docs use is a setting or a command of the manifest', () => {
    const unknown: string[] = [];
    for (const doc of DOC_FILES)
      for (const m of toolshedNames(doc)) {
        if (!SETTINGS.has(m.text) && !COMMAND_IDS.has(m.text) && !NOT_SETTINGS.has(m.text)) unknown.push(`${m.doc}:${m.line}: ${m.text}`);
      }
    assert.deepEqual(unknown, []);
  });

  it('every default the docs state is the manifest default', () => {
    const wrong: string[] = [];
    const check = (where: string, key: string, stated: string) => {
      const setting = SETTINGS.get(key);
      if (!setting) return wrong.push(`${where}: ${key} is not a setting`);
      const literal = literalOf(stated);
      if (literal === undefined) return;
      if (JSON.stringify(literal) !== JSON.stringify(setting.default))
        wrong.push(`${where}: ${key} says default ${stated}, the manifest has ${JSON.stringify(setting.default)}`);
    };
    // The settings table: `key` / `key2` | `default` / `default2` | meaning.
    proseOf('docs/settings.md').forEach((line, i) => {
      const row = /^\| (`toolshed\.[^|]+) \| ([^|]+) \|/.exec(line);
      if (!row) return;
      const keys = row[1].split(' / ').map((k) => k.replace(/`/g, '').trim());
      const defaults = row[2].split(' / ').map((d) => d.trim());
      const group = keys[0].slice(0, keys[0].lastIndexOf('.') + 1);
      keys.forEach((key, k) => check(`docs/settings.md:${i + 1}`, key.startsWith('toolshed.') ? key : group + key, defaults[k] ?? ''));
    });
    // Prose: "`toolshed.x.y` (default 3", "`toolshed.x.y`, default `off`" and "`toolshed.x.y` (3)".
    for (const doc of DOC_FILES)
      proseOf(doc).forEach((line, i) => {
        for (const m of line.matchAll(/`(toolshed\.[\w.]+)`\**\s*(?:\(|,\s*)default\s+(`[^`]+`|[\d.]+)/g)) check(`${doc}:${i + 1}`, m[1], m[2]);
        for (const m of line.matchAll(/`(toolshed\.[\w.]+)`\**\s*\((\d+(?:\.\d+)?)\)/g)) check(`${doc}:${i + 1}`, m[1], m[2]);
      });
    assert.deepEqual(wrong, []);
  });

  it('every "Toolshed: …" command the docs name is in the command palette', () => {
    const unknown: string[] = [];
    for (const doc of DOC_FILES)
      proseOf(doc).forEach((line, i) => {
        for (const m of line.matchAll(/\*\*(Toolshed: [^*]+)\*\*/g)) if (!PALETTE_TITLES.has(m[1])) unknown.push(`${doc}:${i + 1}: ${m[1]}`);
      });
    assert.deepEqual(unknown, []);
  });

  it('every @toolshed slash command the docs name is one the participant declares', () => {
    const declared = new Set(manifest.contributes.chatParticipants.flatMap((p) => (p.commands ?? []).map((c) => c.name)));
    const unknown: string[] = [];
    for (const doc of DOC_FILES)
      proseOf(doc).forEach((line, i) => {
        for (const m of line.matchAll(/`\/([a-z]+)(?: [^`/]*)?`/g)) if (!declared.has(m[1])) unknown.push(`${doc}:${i + 1}: /${m[1]}`);
      });
    assert.deepEqual(unknown, []);
  });

  it('every CLI line the docs show names a subcommand and options it has', () => {
    const wrong: string[] = [];
    for (const doc of DOC_FILES)
      for (const m of cliLines(doc)) {
        const words = m.text.split(/\s+/).slice(1);
        if (!words[0] || ['--help', '--version', '…'].includes(words[0])) continue;
        if (words[0]?.includes('|')) continue; // a list of subcommands, checked below
        const command = [...COMMANDS].sort((a, b) => b.path.length - a.path.length).find((c) => c.path.every((w, k) => words[k] === w));
        if (!command) {
          wrong.push(`${m.doc}:${m.line}: no subcommand "${words.slice(0, 2).join(' ')}"`);
          continue;
        }
        for (const option of m.text.matchAll(/(?<![\w-])--[a-z][\w-]*/g))
          if (!command.usage.includes(option[0])) wrong.push(`${m.doc}:${m.line}: toolshed ${command.path.join(' ')} has no ${option[0]}`);
      }
    assert.deepEqual(wrong, []);
  });

  it("the README's list of CLI subcommands names every subcommand", () => {
    const list = cliLines('README.md').find((m) => /^toolshed \S+\|/.test(m.text));
    assert.ok(list, 'the README lists the CLI subcommands as `node dist/cli.js a|b|…`');
    const listed = list.text.split(/\s+/)[1].split('|').sort();
    assert.deepEqual(listed, [...new Set(COMMANDS.map((c) => c.path[0]))].sort());
  });

  it('every repository path the docs name in code exists', () => {
    // What a build or a bench writes (git-ignored folders) is not in a checkout.
    const generated = readDoc('.gitignore')
      .split('\n')
      .filter((line) => line.endsWith('/'))
      .map((line) => line.trim());
    const missing: string[] = [];
    for (const doc of DOC_FILES)
      proseOf(doc).forEach((line, i) => {
        for (const m of line.matchAll(/`((?:src|test|bench|scripts|examples|skill-packs|docs)\/[\w./-]+?)\/?`/g))
          if (!generated.some((folder) => m[1].startsWith(folder)) && !existsSync(path.join(ROOT, m[1]))) missing.push(`${doc}:${i + 1}: ${m[1]}`);
      });
    assert.deepEqual(missing, []);
  });
});

/** A default as the docs write it: `value` in code (prose may follow), or a bare number; prose alone is not compared. */
function literalOf(stated: string): unknown {
  const code = /^`([^`]*)`/.exec(stated.trim());
  const text = code ? code[1] : stated.trim();
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (!code) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
