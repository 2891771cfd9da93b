import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { BODY_SECTIONS, agentSkillName, exportedDescription, renderSkillMd } from '../../../src/core/learning/snapshot/skillMdDocument';
import { exportLearnedAsPack } from '../../../src/core/learning/snapshot/skillPackExport';
import type { PackExportReport } from '../../../src/core/learning/snapshot/skillPackExport';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { nodePackFolderWriter } from '../../../src/core/platform/nodePackFolderWriter';
import { redact } from '../../../src/core/privacy/redaction';
import { parseSkillDocument } from '../../../src/core/skills/packs/document/skillDocumentParser';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import { exportedTo } from '../../../src/core/skills/store/learned/exportedLearnedSkills';
import { makeService, pack, skillRecord, stepSkill, tempDir, writeTree } from '../skills/helpers';
import { makeLearning, turn } from './helpers';
import type { LearningHarness } from './helpers';

const WEATHER = 'fixture_weather_forecast';
const ISSUE = 'fixture_create_issue';
const calls = (tool: string, n: number) => Array.from({ length: n }, (_, i) => ({ tool, input: { i }, ok: true }));
const weather = (request: string, sessionId: string) =>
  turn(request, [...calls(WEATHER, 2), { tool: ISSUE, input: { title: 'x' }, ok: true }], { sessionId, at: sessionId.length });

/** A merged learned skill (lineage 2) with feedback, and a second plain one. */
async function learned(): Promise<{ h: LearningHarness; merged: string; plain: string }> {
  const h = await makeLearning();
  const a = (await h.learning.ingest(weather('Check the weather forecast in Oslo and Bergen, then create an issue with the summary', 'a'))).proposal!;
  const b = (await h.learning.ingest(weather('check weather forecast for Oslo and Bergen then create issue with summary', 'bb'))).proposal!;
  const c = (
    await h.learning.ingest(turn('Deploy the billing service to staging and verify it', calls('fixture_deploy_service', 2), { sessionId: 'ccc', at: 5 }))
  ).proposal!;
  await h.learning.approve(a.id);
  await h.learning.approve(b.id);
  await h.learning.approve(c.id);
  await h.learning.recordOutcome([a.candidate.name], 'helpful');
  await h.learning.recordOutcome([a.candidate.name], 'helpful');
  await h.learning.recordOutcome([a.candidate.name], 'harmful');
  return { h, merged: a.candidate.name, plain: c.candidate.name };
}

function exportDeps(h: LearningHarness) {
  return { skills: h.service, counters: (name: string) => h.store.counters(name), files: nodePackFolderWriter, now: Date.UTC(2026, 10, 23) };
}

/** The numbered steps of an exported body (continuation lines are indented under their item). */
function stepsOf(body: string): string[] {
  const lines = body.split('\n');
  const start = lines.indexOf(BODY_SECTIONS.steps);
  const steps: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    const item = /^(\d+)\. (.*)$/.exec(line);
    if (item) steps.push(item[2]!);
    else if (steps.length && (line.startsWith('   ') || line === '')) steps[steps.length - 1] += `\n${line.replace(/^ {3}/, '')}`;
  }
  return steps.map((s) => s.trimEnd());
}

function parseExported(file: string) {
  return parseSkillDocument(readFileSync(file, 'utf8'), file);
}

const written = (report: PackExportReport, learnedName: string) => report.written.find((w) => w.learned === learnedName)!;

describe('Export as Skill Pack: learned skills → .github/skills/<name>/SKILL.md', () => {
  it('round-trips: the loader parses each file with no problem, with the same name, description, steps and counters', async () => {
    const { h, merged, plain } = await learned();
    const root = tempDir('toolshed-pack-export-');
    try {
      const report = await exportLearnedAsPack(exportDeps(h), root);
      assert.deepEqual(report.skipped, []);
      assert.equal(report.written.length, 2);
      const record = h.service.learnedSkills().find((r) => r.name === merged)!;
      const out = written(report, merged);
      assert.equal(out.file, path.join(root, agentSkillName(merged), 'SKILL.md'));
      const parsed = parseExported(out.file);
      assert.deepEqual(parsed.problems, [], 'no diagnostic at all');
      const skill = parsed.skills[0]!;
      assert.equal(skill.name, agentSkillName(merged));
      assert.match(skill.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
      assert.equal(skill.description, exportedDescription(record));
      assert.equal(skill.description, record.trigger);
      assert.deepEqual(stepsOf(skill.body), record.steps);
      const metadata = skill.meta.metadata as Record<string, string>;
      assert.equal(metadata.learned_id, record.id);
      assert.equal(metadata.helpful, '2');
      assert.equal(metadata.harmful, '1');
      assert.equal(metadata.use_count, String(h.store.counters(merged)!.use_count));
      assert.equal(metadata.source_hashes.split(' ').length, 2, 'both merged source hashes');
      assert.ok(metadata.merged_from, 'lineage: what was merged in');
      assert.equal(metadata.exported_at, '2026-11-23T00:00:00.000Z');
      assert.deepEqual(Object.keys(readFrontmatter(out.file)).sort(), ['description', 'metadata', 'name'], 'only agentskills.io keys at the top');
      assert.deepEqual(parseExported(written(report, plain).file).problems, []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('once the pack loader loads the export, the learned copy is retired: search shows the skill once, as the pack skill; deleting the folder brings it back', async () => {
    const { h, merged } = await learned();
    const root = tempDir('toolshed-pack-export-');
    try {
      const report = await exportLearnedAsPack(exportDeps(h), root, [merged]);
      const name = written(report, merged).name;
      const wsPack = pack('ws-skills', root, { scopeMode: 'project', projectId: 'p1', workspace: true, source: 'workspace-agent-folder' });
      await h.service.loadPacks([wsPack]);
      const problems = h.service.listPacks().flatMap((p) => [...p.problems, ...p.skills.flatMap((s) => s.problems)]);
      assert.deepEqual(problems, []);
      const retired = h.service.learnedSkills().find((r) => r.name === merged)!;
      assert.equal(retired.status, 'inactive');
      assert.equal(exportedTo(retired)?.name, name, 'points at the pack skill');
      assert.match(retired.status_reason, new RegExp(`exported as pack skill "${name}"`));
      assert.equal(
        h.learning.mergeTarget({ trigger: retired.trigger, steps: retired.steps, source_hash: 'new' }),
        undefined,
        'a retired copy is no merge target',
      );
      const ctx = { includeWorkspacePacks: true, scope: { projectId: 'p1' } };
      const found = await h.service.search({ query: 'weather forecast Oslo Bergen issue' }, ctx);
      const names = found.skills.map((s) => s.name);
      assert.ok(names.includes(name), 'the pack skill is found');
      assert.ok(!names.includes(merged), 'the learned copy is not shown twice');
      const relevant = await h.service.getRelevant({ task: 'check the weather forecast for Oslo and Bergen and file an issue' }, ctx);
      assert.ok(relevant.skills.includes(name), 'pre-flight injects the pack skill');
      assert.ok(!relevant.skills.includes(merged), 'and not the learned copy');

      // Journaled like every learned write: a reopened (or rebuilt) store still has it retired.
      const journalOnly = new MemoryByteStore();
      for (const [key, bytes] of h.bytes.entries) if (key !== 'skills.db') journalOnly.entries.set(key, bytes);
      const reopened = await makeService({ bytes: journalOnly });
      assert.equal(reopened.service.learnedSkills().find((r) => r.name === merged)?.status, 'inactive');
      await reopened.service.dispose();

      // The file watcher's path: an edit that makes the pack skill inactive brings the learned copy
      // back; undoing the edit retires it again; an unrelated reload changes nothing.
      const file = path.join(root, name, 'SKILL.md');
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, text.replace('\nmetadata:\n', '\nrequires:\n  - TOOLSHED_TEST_UNSET_VARIABLE\nmetadata:\n'));
      await h.service.reloadFile(file);
      assert.equal(h.service.learnedSkills().find((r) => r.name === merged)?.status, 'active');
      writeFileSync(file, text);
      await h.service.reloadFile(file);
      assert.equal(h.service.learnedSkills().find((r) => r.name === merged)?.status, 'inactive');
      writeTree(root, { 'unrelated/SKILL.md': '---\nname: unrelated\ndescription: Something else.\n---\nDo it.\n' });
      await h.service.reloadFile(path.join(root, 'unrelated', 'SKILL.md'));
      assert.equal(h.service.learnedSkills().find((r) => r.name === merged)?.status, 'inactive');

      // Undo: the exported folder is deleted, and the watcher reports it.
      rmSync(path.join(root, name), { recursive: true, force: true });
      await h.service.removeFile(path.join(root, name));
      const back = h.service.learnedSkills().find((r) => r.name === merged)!;
      assert.equal(back.status, 'active', 'undo: the learned skill is back');
      assert.equal(exportedTo(back), undefined);
      assert.deepEqual({ ...back, updated_at: 0 }, { ...h.service.learnedSkills().find((r) => r.name === merged)!, updated_at: 0 });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a pack skill retires nothing while it is inactive (a missing requirement), and a SKILL.md with other metadata retires nothing', async () => {
    const { h, merged, plain } = await learned();
    const root = tempDir('toolshed-pack-export-');
    try {
      const report = await exportLearnedAsPack(exportDeps(h), root, [merged]);
      const file = written(report, merged).file;
      writeFileSync(file, readFileSync(file, 'utf8').replace('\nmetadata:\n', '\nrequires:\n  - TOOLSHED_TEST_UNSET_VARIABLE\nmetadata:\n'));
      writeTree(root, {
        'hand-written/SKILL.md':
          '---\nname: hand-written\ndescription: Deploy the billing service.\nmetadata:\n  author: me\n  learned_name: nothing\n---\nDo it.\n',
      });
      await h.service.loadPacks([pack('ws-skills', root, { scopeMode: 'project', projectId: 'p1', workspace: true, source: 'workspace-agent-folder' })]);
      assert.equal(
        h.service
          .listPacks()
          .flatMap((p) => p.skills)
          .find((s) => s.name === written(report, merged).name)?.status,
        'inactive',
      );
      assert.deepEqual(
        h.service
          .learnedSkills()
          .filter((r) => r.status !== 'active')
          .map((r) => r.name),
        [],
        `${merged} and ${plain} stay active`,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('never overwrites: an existing folder, a loaded pack skill of that name, the same name twice, or its own identity are reported and skipped', async () => {
    const { h, merged, plain } = await learned();
    const root = tempDir('toolshed-pack-export-');
    try {
      const taken = agentSkillName(merged);
      mkdirSync(path.join(root, taken));
      writeFileSync(path.join(root, taken, 'SKILL.md'), 'mine');
      const packRoot = tempDir('toolshed-pack-taken-');
      writeTree(packRoot, { 'taken.skill.yaml': stepSkill(agentSkillName(plain), 'Something else entirely') });
      await h.service.loadPacks([pack('other', packRoot)]);
      await h.service.addLearnedSkill({
        name: 'fix-build',
        trigger: 'When the build fails',
        steps: ['Read the error.'],
        scope_mode: 'project',
        project_id: 'p1',
      });
      await h.service.addLearnedSkill({ name: 'Fix.Build', trigger: 'When the build breaks', steps: ['Read the log.'], scope_mode: 'global' });
      await h.service.addLearnedSkill({ name: 'fix_build', trigger: 'When builds break', steps: ['Run it again.'], scope_mode: 'global' });

      const report = await exportLearnedAsPack(exportDeps(h), root, [merged, plain, 'fix-build', 'Fix.Build', 'fix_build', 'nope']);
      const reason = (learnedName: string) => report.skipped.find((s) => s.learned === learnedName)?.reason ?? '';
      assert.match(reason(merged), /already exists; nothing was overwritten/);
      assert.equal(readFileSync(path.join(root, taken, 'SKILL.md'), 'utf8'), 'mine', 'the existing file is untouched');
      assert.match(reason(plain), /a pack skill named .* is already loaded/);
      assert.match(reason('fix-build'), /same name and project scope/);
      assert.deepEqual(
        report.written.map((w) => w.learned),
        ['Fix.Build'],
      );
      assert.match(reason('fix_build'), /another chosen skill is also exported as "fix-build"/);
      assert.match(reason('nope'), /no learned skill is named "nope"/);
      rmSync(packRoot, { recursive: true, force: true });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('redacts secrets and personal data before anything is written', async () => {
    const { h } = await learned();
    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
    await h.service.addLearnedSkill({
      name: 'deploy-with-token',
      scope_mode: 'global',
      trigger: 'When deploying; mail ops@example.com for access',
      steps: [`Export GITHUB_TOKEN=${token} first.`, 'Run the deploy with password: hunter2hunter2.'],
      failure_modes: [`If ${token} expired, ask for a new one.`],
    });
    const root = tempDir('toolshed-pack-export-');
    try {
      const report = await exportLearnedAsPack(exportDeps(h), root, ['deploy-with-token']);
      const text = readFileSync(written(report, 'deploy-with-token').file, 'utf8');
      assert.ok(!text.includes(token), 'token redacted');
      assert.ok(!text.includes('hunter2hunter2'), 'password redacted');
      assert.ok(!text.includes('ops@example.com'), 'e-mail redacted');
      assert.match(text, /REDACTED/);
      assert.deepEqual(parseExported(written(report, 'deploy-with-token').file).problems, []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a learned skill’s cluster travels under metadata: and the loaded pack skill is in the same cluster, with no problem', () => {
    const record = {
      ...learnedRecord({
        name: 'learned.api.weather-desk',
        title: 'Weather',
        trigger: 'Check the weather in a city',
        description: '',
        body: '',
        steps: ['Call the forecast tool', 'Summarise it'],
        preconditions: [],
        failure_modes: [],
      }),
      meta: { cluster: 'Weather Desk' },
    };
    const parsed = parseSkillDocument(
      renderSkillMd(record, { helpful: 0, harmful: 0, use_count: 0 }, 0),
      `/ws/.github/skills/${agentSkillName(record.name)}/SKILL.md`,
    );
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.skills[0]!.meta.cluster, 'Weather Desk');
    assert.equal((parsed.skills[0]!.meta.metadata as Record<string, string>).cluster, 'Weather Desk');
  });

  it('property: any learned skill — hostile names, YAML-special text, control characters — exports to a file the loader parses with no problem', () => {
    const hostile = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom(
        '---',
        '...',
        '# x',
        'a: b',
        '- [x]',
        '{ "a": 1 }',
        '&anchor *alias',
        '!!binary',
        '|',
        '>',
        '%YAML 1.2',
        'key: "q',
        "it's",
        '\u0000nul',
        '\r\n---\r\n',
        'ü ☃ 𝌆',
        '  ',
        'null',
        'true',
        '123',
        '0x1F',
        '<!-- -->',
        '\t#tab',
      ),
    );
    const text = fc.array(hostile, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' '));
    fc.assert(
      fc.property(
        fc.record({
          name: text,
          title: text,
          trigger: text,
          description: fc.string({ maxLength: 1500 }),
          body: text,
          steps: fc.array(text, { minLength: 0, maxLength: 5 }),
          preconditions: fc.array(text, { maxLength: 3 }),
          failure_modes: fc.array(text, { maxLength: 3 }),
          helpful: fc.nat(1000),
        }),
        (input) => {
          const record = learnedRecord(input);
          const file = `/ws/.github/skills/${agentSkillName(record.name)}/SKILL.md`;
          const parsed = parseSkillDocument(renderSkillMd(record, { helpful: input.helpful, harmful: 0, use_count: 0 }, 0), file);
          assert.deepEqual(parsed.problems, []);
          assert.equal(parsed.skills.length, 1);
          assert.equal(parsed.skills[0]!.name, agentSkillName(record.name));
          assert.equal((parsed.skills[0]!.meta.metadata as Record<string, string>).helpful, String(input.helpful));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('Export as Skill Pack: secrets split by a character export drops', () => {
  const SECRETS = ['ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f', 'AKIAIOSFODNN7EXAMPLE'];
  const DROPPED = ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u007f'];

  it('a token with a NUL inside is not written whole: the file holds the redaction marker', () => {
    const token = SECRETS[0]!;
    const split = `${token.slice(0, 10)}\u0000${token.slice(10)}`;
    const md = renderSkillMd(skillRecord({ trigger: `Use ${split} for the API`, body: split }), { helpful: 0, harmful: 0, use_count: 0 }, 0);
    assert.ok(!md.includes(token), md);
    assert.ok(!md.includes('\u0000'));
    assert.match(md, /\[REDACTED_TOKEN\]/);
  });

  it('property: whichever field, secret, dropped character and position, the exported file never holds the secret', () => {
    const fields = ['title', 'trigger', 'body', 'steps', 'preconditions', 'failure_modes'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...fields),
        fc.constantFrom(...SECRETS),
        fc.constantFrom(...DROPPED),
        fc.nat(),
        fc.string({ maxLength: 20 }),
        (field, secret, dropped, at, around) => {
          assert.notEqual(redact(secret), secret, 'the secret is one redaction knows');
          const cut = 1 + (at % (secret.length - 1));
          const text = `${around} ${secret.slice(0, cut)}${dropped}${secret.slice(cut)} ${around}`;
          const record = skillRecord({ [field]: field === 'steps' || field === 'preconditions' || field === 'failure_modes' ? [text] : text });
          const md = renderSkillMd(record, { helpful: 0, harmful: 0, use_count: 0 }, 0);
          assert.ok(!md.includes(secret), md);
        },
      ),
      { numRuns: 300 },
    );
  });
});

function readFrontmatter(file: string): Record<string, unknown> {
  const text = readFileSync(file, 'utf8');
  const block = text.split('\n---\n')[0]!.replace(/^---\n/, '');
  return Object.fromEntries(
    block
      .split('\n')
      .filter((line) => /^[a-z_-]+:/.test(line))
      .map((line) => [line.split(':')[0]!, true]),
  );
}

function learnedRecord(input: {
  name: string;
  title: string;
  trigger: string;
  description: string;
  body: string;
  steps: string[];
  preconditions: string[];
  failure_modes: string[];
}): SkillRecord {
  const { name, title, trigger, description, body, steps, preconditions, failure_modes } = input;
  return skillRecord({ id: 'sk_test', name, title, trigger, description, body, steps, preconditions, failure_modes, origin_ref: 'learning:x' });
}
