import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseSkillDocument } from '../../../src/core/skills/packs/document/skillDocumentParser';
import type { ParseResult } from '../../../src/core/skills/packs/document/skillDocumentParser';
import { AGENT_SKILL_NAME_PATTERN, normalizeAgentSkillName, SKILL_NAME_PATTERN } from '../../../src/core/skills/skillSchema';
import { nodeFileSystem } from '../../../src/core/platform/nodeFileSystem';
import { validateSkillTargets } from '../../../src/core/skills/packs/skillValidation';
import { ctx, makeService, pack, tempDir, writeTree } from './helpers';

/**
 * SKILL.md files the way public skill collections write them (fixtures written for these tests):
 * names that are titles, metadata with numbers and nested maps, keyword fields as one string,
 * descriptions with a second `: `. They load with warnings; fields that change what runs stay errors.
 */

const skillMd = (frontMatter: string, body = '# Steps\n\nDo the work.\n') => `---\n${frontMatter}\n---\n${body}`;
const parse = (frontMatter: string, folder = 'some-skill') => parseSkillDocument(skillMd(frontMatter), `/packs/team/${folder}/SKILL.md`);
const summary = (r: ParseResult) => r.problems.map((p) => `${p.severity} ${p.code}${p.data?.key ? ` ${String(p.data.key)}` : ''}`);

describe('SKILL.md leniency: names other agents load', () => {
  it('a title-like name loads under its normalized name, with a warning that gives the rule and the name', () => {
    const r = parse('name: PDF Form Filler\ndescription: Fill in PDF forms from a table of values.', 'pdf-form-filler');
    assert.deepEqual(
      r.skills.map((s) => s.name),
      ['pdf-form-filler'],
    );
    const [warning] = r.problems;
    assert.equal(r.problems.length, 1);
    assert.equal(warning?.severity, 'warning');
    assert.equal(warning?.code, 'invalid-name');
    assert.match(warning?.message ?? '', /agentskills\.io rule \(1–64 lowercase letters, digits and single hyphens\); the skill loads as `pdf-form-filler`/);
    assert.deepEqual([warning?.line, warning?.column, warning?.endColumn], [2, 7, 22], 'points at the name as written');
    assert.equal(warning?.data?.expected, 'pdf-form-filler', 'the quick fix renames it to the loaded name');
    assert.equal(warning?.skillName, 'pdf-form-filler', 'the warning belongs to the loaded skill');
  });

  it('normalizes underscores, dots, accents, runs of punctuation, and cuts at 64 characters', () => {
    const cases: Array<[string, string]> = [
      ['weather_station_mcp', 'weather-station-mcp'],
      ['Crème Brûlée Recipes', 'creme-brulee-recipes'],
      ['  --Deploy.to.Staging!!  ', 'deploy-to-staging'],
      ['Release Notes v2.1 (beta)', 'release-notes-v2-1-beta'],
      [`Summarise ${'very '.repeat(20)}long meeting transcripts`, `summarise-${'very-'.repeat(11)}`.slice(0, 64).replace(/-+$/, '')],
    ];
    for (const [written, loaded] of cases) {
      assert.equal(normalizeAgentSkillName(written), loaded, written);
      const folderName = loaded;
      const r = parse(`name: "${written}"\ndescription: Does one thing well.`, folderName);
      assert.deepEqual(
        r.skills.map((s) => s.name),
        [loaded],
        written,
      );
      assert.ok(loaded.length <= 64 && AGENT_SKILL_NAME_PATTERN.test(loaded));
    }
  });

  it('a name with no a–z/0–9 at all, or no name, loads under the folder name; with neither it stays an error', () => {
    const script = parse('name: 数据分析\ndescription: 分析表格数据。', 'table-analysis');
    assert.deepEqual(
      script.skills.map((s) => s.name),
      ['table-analysis'],
    );
    assert.deepEqual(summary(script), ['warning invalid-name name']);
    assert.match(script.problems[0]!.message, /loads under its folder's name `table-analysis`/);

    const missing = parse('description: Tidy up imports in a Python module.', 'Tidy_Imports');
    assert.deepEqual(
      missing.skills.map((s) => s.name),
      ['tidy-imports'],
    );
    assert.deepEqual(summary(missing), ['warning missing-name name']);

    const nothing = parse('name: 数据分析\ndescription: 分析表格数据。', '表格');
    assert.equal(nothing.skills.length, 0);
    assert.deepEqual(summary(nothing), ['error invalid-name name']);
  });

  it('a conforming name is kept as written, and a name differing from its folder loads with a warning', () => {
    assert.deepEqual(parse('name: csv-cleanup\ndescription: Clean CSV files.', 'csv-cleanup').problems, []);
    const other = parse('name: csv-cleanup\ndescription: Clean CSV files.', 'data-tools');
    assert.deepEqual(
      other.skills.map((s) => s.name),
      ['csv-cleanup'],
    );
    assert.deepEqual(summary(other), ['warning name-mismatch-folder']);
    assert.equal(other.problems[0]!.data?.expected, 'data-tools');
    // A normalized name is compared with the folder normalized the same way.
    assert.deepEqual(
      parse('name: CSV_Cleanup\ndescription: Clean CSV files.', 'CSV_Cleanup').problems.map((p) => p.code),
      ['invalid-name'],
    );
  });

  it('two skills whose names normalize alike in one pack: the second is a duplicate-name error', async () => {
    const root = tempDir();
    writeTree(root, {
      'git-helper/SKILL.md': skillMd('name: Git Helper\ndescription: Everyday git chores.'),
      'git_helper/SKILL.md': skillMd('name: git_helper\ndescription: The same chores, copied.'),
    });
    const report = await validateSkillTargets(nodeFileSystem, [{ path: root, packName: 'team' }]);
    assert.deepEqual(
      report.definitions.map((d) => d.name),
      ['git-helper'],
    );
    assert.deepEqual(
      report.problems.filter((p) => p.severity === 'error').map((p) => p.code),
      ['duplicate-name'],
    );
  });

  it('property: any front matter name loads under a name the store accepts, or gets an error diagnostic; never a crash', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 200 }), fc.stringMatching(/^[A-Za-z0-9 _.:#'"-]{0,150}$/)),
        fc.constantFrom('my-folder', 'Ünïcode Folder', '文件夹'),
        (name, folder) => {
          const r = parseSkillDocument(skillMd(`name: ${JSON.stringify(name)}\ndescription: A skill.`), `/packs/p/${folder}/SKILL.md`);
          if (r.skills.length === 1) {
            const loaded = r.skills[0]!.name;
            assert.ok(SKILL_NAME_PATTERN.test(loaded), loaded);
            assert.ok(AGENT_SKILL_NAME_PATTERN.test(loaded), loaded);
            if (loaded !== name) assert.ok(r.problems.some((p) => p.severity === 'warning' && ['invalid-name', 'too-long'].includes(p.code)));
          } else {
            assert.equal(r.skills.length, 0);
            assert.ok(r.problems.some((p) => p.severity === 'error' && p.message.length > 0));
            if (normalizeAgentSkillName(name) === '' && normalizeAgentSkillName(folder) === '') {
              assert.ok(r.problems.some((p) => p.severity === 'error' && p.code === 'invalid-name'));
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('SKILL.md leniency: descriptive fields in another shape', () => {
  it('metadata: numbers and booleans become text, nested maps and lists are dropped, each with a warning naming the entry', () => {
    const r = parse(
      'name: release-checklist\ndescription: Walk a release through its checklist.\nmetadata:\n  version: 1.4\n  reviewed: true\n  owner: platform team\n  agent:\n    requires:\n      bins: [git]\n  globs: ["*.md", "*.txt"]',
      'release-checklist',
    );
    assert.equal(r.skills.length, 1);
    assert.deepEqual(r.skills[0]!.meta.metadata, { version: '1.4', reviewed: 'true', owner: 'platform team' });
    assert.deepEqual(
      r.problems.map((p) => [p.severity, p.code, p.line]),
      [
        ['warning', 'wrong-type', 5],
        ['warning', 'wrong-type', 6],
        ['warning', 'wrong-type', 9],
        ['warning', 'wrong-type', 11],
      ],
    );
    assert.match(r.problems[2]!.message, /^`metadata\.agent`: metadata values are text, found a mapping; this entry is ignored/);
  });

  it('tags, triggers and frames: one string becomes a one-item list, numbers become text, maps are dropped', () => {
    const r = parse(
      'name: wifi-survey\ndescription: Survey a wireless network.\ntags: [wireless, 802.11, {band: 5ghz}]\ntriggers:\n  - site survey\n  - {when: audit}\nframes: network audit',
      'wifi-survey',
    );
    const skill = r.skills[0]!;
    assert.deepEqual(skill.tags, ['wireless', '802.11']);
    assert.deepEqual(skill.triggers, ['site survey']);
    assert.deepEqual(skill.frames, ['network audit']);
    assert.deepEqual(summary(r), ['warning wrong-type tags', 'warning wrong-type tags', 'warning wrong-type frames', 'warning wrong-type triggers']);
  });

  it('user-invocable as "true"/"false" is read as the boolean; license and compatibility numbers are text; tools as a comma list', () => {
    const r = parse(
      'name: format-sql\ndescription: Format SQL queries.\nuser-invocable: "false"\nlicense: 2\ncompatibility: 3.11\ntools: Read, Edit, Bash',
      'format-sql',
    );
    const skill = r.skills[0]!;
    assert.equal(skill.meta['user-invocable'], false);
    assert.equal(skill.meta.license, '2');
    assert.equal(skill.meta.compatibility, '3.11');
    assert.deepEqual(
      skill.tools.map((t) => t.tool),
      ['Read', 'Edit', 'Bash'],
    );
    assert.ok(r.problems.every((p) => p.severity === 'warning' && p.code === 'wrong-type'));
    assert.equal(r.problems.length, 4);
  });

  it('argument-hint that YAML reads as a list keeps the text the author wrote', () => {
    const r = parse('name: daily-digest\ndescription: Summarise the news of a day.\nargument-hint: [optional: date]', 'daily-digest');
    assert.equal(r.skills[0]!.meta['argument-hint'], '[optional: date]');
    assert.deepEqual(summary(r), ['warning wrong-type argument-hint']);
  });

  it('disable-model-invocation: "true" is read as true; any other non-boolean stays an error', () => {
    const quoted = parse('name: deploy-notes\ndescription: Draft deploy notes.\ndisable-model-invocation: "true"', 'deploy-notes');
    assert.equal(quoted.skills[0]!.model_invocable, false);
    const unclear = parse('name: deploy-notes\ndescription: Draft deploy notes.\ndisable-model-invocation: sometimes', 'deploy-notes');
    assert.equal(unclear.skills.length, 0);
    assert.deepEqual(summary(unclear), ['error wrong-type disable-model-invocation']);
  });

  it('fields that change what runs or when a skill is active stay strict errors', () => {
    const strict: Array<[string, string]> = [
      ['allowed-tools', 'allowed-tools:\n  Bash: true'],
      ['requires', 'requires:\n  env: [API_TOKEN]\n  bins: [curl]'],
      ['scripts', 'scripts: run.sh'],
    ];
    for (const [key, field] of strict) {
      const r = parse(`name: strict-probe\ndescription: Probe.\n${field}`, 'strict-probe');
      assert.equal(r.skills.length, 0, key);
      assert.ok(
        r.problems.some((p) => p.severity === 'error' && p.data?.key === key),
        `${key}: ${JSON.stringify(summary(r))}`,
      );
    }
  });
});

describe('SKILL.md leniency: front matter other tools accept', () => {
  it('a plain description holding a second `: ` is read as text, with a warning on its line', () => {
    const r = parse(
      'name: invoice-export\ndescription: Export invoices. Use when: (1) closing a month, (2) an audit asks for them.\nlicense: MIT',
      'invoice-export',
    );
    assert.deepEqual(
      r.skills.map((s) => s.description),
      ['Export invoices. Use when: (1) closing a month, (2) an audit asks for them.'],
    );
    assert.deepEqual(
      r.problems.map((p) => [p.severity, p.code, p.line]),
      [['warning', 'parse-error', 3]],
    );
    assert.equal(r.skills[0]!.meta.license, 'MIT');
  });

  it('continuation lines join the value, a leading comma or brackets are text, CRLF files too, and later lines keep their positions', () => {
    const text = skillMd(
      'name: Meeting Notes\ndescription: Turn a transcript into notes. Triggers: notes,\n  minutes, action items\nargument-hint: [transcript] [date]\nmetadata:\n  pages: 3',
    ).replace(/\n/g, '\r\n');
    const r = parseSkillDocument(text, '/packs/team/meeting-notes/SKILL.md');
    const skill = r.skills[0]!;
    assert.equal(skill.name, 'meeting-notes');
    assert.equal(skill.description, 'Turn a transcript into notes. Triggers: notes, minutes, action items');
    assert.equal(skill.meta['argument-hint'], '[transcript] [date]');
    assert.deepEqual(
      r.problems.map((p) => [p.severity, p.code, p.line]).sort((a, b) => Number(a[2]) - Number(b[2])),
      [
        ['warning', 'invalid-name', 2],
        ['warning', 'parse-error', 3],
        ['warning', 'parse-error', 5],
        ['warning', 'wrong-type', 7],
      ],
    );
    const leading = parse('name: prompt-tips\ndescription: , and then the model continues', 'prompt-tips');
    assert.equal(leading.skills[0]?.description, ', and then the model continues');
  });

  it('never guesses allowed-tools or requires, and real syntax errors (conflict markers) stay errors', () => {
    const tools = parse('name: git-sync\ndescription: Sync a branch.\nallowed-tools: Bash(git: push) Read', 'git-sync');
    assert.equal(tools.skills.length, 0);
    assert.ok(tools.problems.every((p) => p.severity === 'error' && p.code === 'parse-error'));
    const conflict = parse('name: git-sync\n<<<<<<< ours\ndescription: Sync a branch: fast.\n=======\ndescription: Sync.\n>>>>>>> theirs', 'git-sync');
    assert.equal(conflict.skills.length, 0);
    assert.ok(conflict.problems.some((p) => p.severity === 'error' && p.code === 'parse-error'));
  });
});

describe('SKILL.md leniency: what the user sees', () => {
  it('validate reports warnings (no errors) for skills that load; the directory counts only what did not load as invalid', async () => {
    const root = tempDir();
    writeTree(root, {
      'api-fuzzing/SKILL.md': skillMd('name: API Fuzzing for Bug Bounty\ndescription: Fuzz an HTTP API for bugs.'),
      'changelog/SKILL.md': skillMd('name: changelog\ndescription: Draft a changelog. Use when: a release is cut.\nmetadata:\n  stars: 120'),
      'broken/SKILL.md': skillMd('name: broken\ndescription: Never loads.\nrequires:\n  env: [TOKEN]'),
    });
    const report = await validateSkillTargets(nodeFileSystem, [{ path: root, packName: 'team' }]);
    assert.deepEqual(report.definitions.map((d) => d.name).sort(), ['api-fuzzing-for-bug-bounty', 'changelog']);
    assert.equal(report.errors, 1);
    assert.ok(report.warnings >= 4, `${report.warnings} warnings`);

    const { service } = await makeService();
    await service.loadPacks([pack('team', root)]);
    const items = service.listPacks()[0]!.skills;
    assert.deepEqual(
      items.filter((s) => s.status === 'invalid').map((s) => s.name),
      ['broken'],
    );
    const fuzzing = items.find((s) => s.name === 'api-fuzzing-for-bug-bounty');
    assert.equal(fuzzing?.status, 'active');
    assert.deepEqual(
      fuzzing?.problems.map((p) => [p.severity, p.code]),
      [
        ['warning', 'invalid-name'],
        ['warning', 'name-mismatch-folder'],
      ],
    );
    const found = await service.search({ query: 'fuzz http api bugs' }, ctx);
    assert.ok(found.skills.some((s) => s.name === 'api-fuzzing-for-bug-bounty'));
  });
});
