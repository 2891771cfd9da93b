import * as assert from 'node:assert/strict';
import { rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { skillGetInputJsonSchema, skillSearchInputJsonSchema, skillListInputJsonSchema } from '../../../src/core/skills/skillToolSchemas';
import { ctx, makeService, pack, stepSkill, tempDir, TestClock, writeTree } from './helpers';

describe('skills: packs and store', () => {
  it('loads every format, emits skill_pack_loaded, and reports bad files without losing the rest', async () => {
    const root = tempDir();
    writeTree(root, {
      'a.skill.yaml': stepSkill('pack.t.a', 'Alpha task'),
      'b.skill.json': JSON.stringify({ name: 'pack.t.b', trigger: 'Beta task', steps: ['x'] }),
      'c.skill.md': `---\n${stepSkill('pack.t.c', 'Gamma task')}---\nBody\n`,
      'd.skill.jsonl': `${JSON.stringify({ name: 'pack.t.d1', trigger: 'Delta', steps: ['x'] })}\n{bad\n`,
      'e-skill/SKILL.md': '---\nname: e-skill\ndescription: Epsilon things.\n---\n# E\nDo e.\n',
      'e-skill/scripts/run.sh': 'echo hi',
      'e-skill/references/notes.md': 'n',
      'broken.skill.yaml': 'name: pack.t.broken\nsteps: [x]\n',
      'binary.skill.yaml': new Uint8Array([0x6e, 0x00, 0x01]),
      'latin1.skill.yaml': new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0xe9, 0x0a]),
      'huge.skill.yaml': `name: h\ntrigger: t\nsteps: [x]\n# ${'x'.repeat(1024 * 1024)}`,
      'README.md': 'not a skill',
    });
    const { service, events } = await makeService();
    const summary = await service.loadPacks([pack('t', root)]);
    const names = (await service.list({ page_size: 50 }, ctx)).skills.map((s) => s.name);
    assert.deepEqual(names, ['e-skill', 'pack.t.a', 'pack.t.b', 'pack.t.c', 'pack.t.d1']);
    const codes = summary.problems.map((p) => `${path.basename(p.file)}:${p.code}`).sort();
    assert.deepEqual(codes, [
      'binary.skill.yaml:binary-file',
      'broken.skill.yaml:missing-trigger',
      'd.skill.jsonl:parse-error',
      'huge.skill.yaml:file-too-large',
      'latin1.skill.yaml:invalid-encoding',
    ]);
    assert.deepEqual(
      events.ofType('skill_pack_loaded').map((e) => e.payload),
      [{ pack_name: 't', skill_count: 5, updated_count: 5 }],
    );
    const e = service.inspect('e-skill');
    assert.deepEqual(e?.resources, ['scripts/run.sh', 'references/notes.md']);
    assert.equal(e?.format, 'skill-md');
    assert.equal(service.inspect('pack.t.d1')?.source_line, 1);
  });

  it('does not follow symlinks inside a pack (no escape from the pack root)', async () => {
    const outside = tempDir();
    writeTree(outside, { 'secret.skill.yaml': stepSkill('pack.x.secret', 'Outside') });
    const root = tempDir();
    writeTree(root, { 'ok.skill.yaml': stepSkill('pack.t.ok', 'Inside') });
    symlinkSync(path.join(outside, 'secret.skill.yaml'), path.join(root, 'link.skill.yaml'));
    symlinkSync(outside, path.join(root, 'linkdir'));
    const { service } = await makeService();
    const summary = await service.loadPacks([pack('t', root)]);
    assert.equal(service.inspect('pack.x.secret'), undefined);
    assert.ok(service.inspect('pack.t.ok'));
    assert.equal(summary.problems.filter((p) => p.code === 'symlink-skipped').length, 2);
  });

  it('duplicate names across files are errors naming both files; the first wins', async () => {
    const root = tempDir();
    writeTree(root, { 'a.skill.yaml': stepSkill('dup', 'First'), 'b.skill.yaml': stepSkill('dup', 'Second') });
    const { service } = await makeService();
    const summary = await service.loadPacks([pack('t', root)]);
    const dup = summary.problems.find((p) => p.code === 'duplicate-name');
    assert.ok(dup && dup.file.endsWith('b.skill.yaml') && dup.message.includes(path.join(root, 'a.skill.yaml')));
    assert.equal(service.inspect('dup')?.trigger, 'First');
  });

  it('upserts by content hash: unchanged, updated, update blocked, removed when the file is gone', async () => {
    const root = tempDir();
    writeTree(root, { 'a.skill.yaml': stepSkill('a', 'A'), 'b.skill.yaml': stepSkill('b', 'B') });
    const clock = new TestClock();
    const { service, events } = await makeService({ clock });
    await service.loadPacks([pack('t', root)]);
    const created = service.inspect('a')!;
    clock.tick();
    await service.loadPacks([pack('t', root)]);
    assert.equal(service.inspect('a')!.updated_at, created.updated_at, 'unchanged content is not rewritten');
    assert.equal(events.ofType('skill_pack_loaded').at(-1)!.payload.updated_count, 0);
    writeTree(root, { 'a.skill.yaml': stepSkill('a', 'A changed') });
    clock.tick();
    await service.loadPacks([pack('t', root, { updateExistingPackSkills: false })]);
    assert.equal(service.inspect('a')!.trigger, 'A', 'updates disabled');
    await service.loadPacks([pack('t', root)]);
    assert.equal(service.inspect('a')!.trigger, 'A changed');
    assert.equal(service.inspect('a')!.created_at, created.created_at);
    assert.notEqual(service.inspect('a')!.content_hash, created.content_hash);
    unlinkSync(path.join(root, 'b.skill.yaml'));
    await service.loadPacks([pack('t', root)]);
    assert.equal(service.inspect('b'), undefined);
    await service.loadPacks([]);
    assert.equal(service.inspect('a'), undefined, 'a pack removed from the list takes its skills with it');
  });

  it('never overwrites a learned skill with a pack skill', async () => {
    const root = tempDir();
    writeTree(root, { 'a.skill.yaml': stepSkill('same', 'From pack') });
    const { service } = await makeService();
    await service.addLearnedSkill({ name: 'same', trigger: 'Learned', steps: ['learned step'], scope_mode: 'global' });
    const summary = await service.loadPacks([pack('t', root)]);
    assert.equal(service.inspect('same')?.origin, 'learned');
    assert.equal(service.inspect('same')?.trigger, 'Learned');
    assert.ok(summary.problems.some((p) => p.code === 'shadowed-by-learned'));
    await service.loadPacks([]);
    assert.equal(service.inspect('same')?.origin, 'learned', 'pack removal does not delete learned skills');
  });

  it('reloadFile touches only that file; removeFile drops its skills; resource changes re-list', async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`f${i}.skill.yaml`] = stepSkill(`s${i}`, `Skill number ${i}`);
    files['x/SKILL.md'] = '---\nname: x\ndescription: X things.\n---\nDo x.\n';
    writeTree(root, files);
    const clock = new TestClock();
    const { service, events } = await makeService({ clock });
    await service.loadPacks([pack('t', root)]);
    const before = service.inspect('s2')!;
    clock.tick();
    writeTree(root, { 'f1.skill.yaml': `${stepSkill('s1', 'Changed')}---\n${stepSkill('s1b', 'New one')}` });
    const result = await service.reloadFile(path.join(root, 'f1.skill.yaml'));
    assert.deepEqual(result.updated, ['s1']);
    assert.deepEqual(result.inserted, ['s1b']);
    assert.equal(service.inspect('s2')!.updated_at, before.updated_at);
    assert.deepEqual(events.ofType('skill_pack_loaded').at(-1)!.payload, { pack_name: 't', skill_count: 202, updated_count: 2 });
    writeTree(root, { 'f1.skill.yaml': stepSkill('s1', 'Changed') });
    assert.deepEqual((await service.reloadFile(path.join(root, 'f1.skill.yaml'))).removed, ['s1b']);
    writeTree(root, { 'f3.skill.yaml': 'name: s3\nsteps: [x]\n' });
    const broken = await service.reloadFile(path.join(root, 'f3.skill.yaml'));
    assert.deepEqual(broken.removed, ['s3']);
    assert.equal(broken.problems[0]?.code, 'missing-trigger');
    writeTree(root, { 'f4.skill.yaml': stepSkill('s0', 'Dup of s0') });
    const dup = await service.reloadFile(path.join(root, 'f4.skill.yaml'));
    assert.equal(dup.problems[0]?.code, 'duplicate-name');
    assert.equal(service.inspect('s0')!.trigger, 'Skill number 0');
    unlinkSync(path.join(root, 'f5.skill.yaml'));
    assert.deepEqual((await service.removeFile(path.join(root, 'f5.skill.yaml'))).removed, ['s5']);
    writeTree(root, { 'x/scripts/new.py': 'print(1)' });
    await service.reloadFile(path.join(root, 'x/scripts/new.py'));
    assert.deepEqual(service.inspect('x')?.resources, ['scripts/new.py']);
    assert.equal((await service.reloadFile('/elsewhere/a.skill.yaml')).status, 'ignored');
  });

  it('a delete reported after the file or folder was written again keeps what is there now (a watcher can report late)', async () => {
    const root = tempDir();
    writeTree(root, {
      'weather.skill.yaml': stepSkill('weather-report', 'Weather report of a city'),
      'desk/a.skill.yaml': stepSkill('desk-a', 'Desk A'),
      'desk/b.skill.yaml': stepSkill('desk-b', 'Desk B'),
    });
    const { service } = await makeService();
    await service.loadPacks([pack('t', root)]);
    // Removed and written again at once; the delete arrives after the new file is there.
    unlinkSync(path.join(root, 'weather.skill.yaml'));
    writeTree(root, { 'weather.skill.yaml': stepSkill('weather-report', 'Weather report of a town') });
    const late = await service.removeFile(path.join(root, 'weather.skill.yaml'));
    assert.deepEqual(late.removed, []);
    assert.equal(service.inspect('weather-report')?.trigger, 'Weather report of a town', 'read again, not dropped');
    // A folder reported deleted that exists again: only the skills whose files are gone go.
    unlinkSync(path.join(root, 'desk/b.skill.yaml'));
    assert.deepEqual((await service.removeFile(path.join(root, 'desk'))).removed, ['desk-b']);
    assert.ok(service.inspect('desk-a'), 'the file still there keeps its skill');
    // A folder that is really gone drops every skill it held.
    rmSync(path.join(root, 'desk'), { recursive: true });
    assert.deepEqual((await service.removeFile(path.join(root, 'desk'))).removed, ['desk-a']);
  });

  it('reports progress and honours cancellation', async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`f${i}.skill.yaml`] = stepSkill(`s${i}`, `Skill ${i}`);
    writeTree(root, files);
    const { service } = await makeService();
    const progress: number[] = [];
    await service.loadPacks([pack('t', root)], {
      onProgress: (done, total) => {
        progress.push(done);
        assert.equal(total, 40);
      },
    });
    assert.equal(progress.at(-1), 40);
    const { service: other } = await makeService();
    let calls = 0;
    const cancelled = await other.loadPacks([pack('t', root)], {
      onProgress: () => {
        calls++;
      },
      cancellation: {
        get isCancellationRequested() {
          return calls >= 3;
        },
      },
    });
    assert.equal(cancelled.cancelled, true);
    assert.equal(other.inspect('s0'), undefined, 'the batch being read when the load was cancelled is not written');
  });

  it('persists through the ByteStore; a corrupt file is kept aside, rebuilt, and learned skills survive', async () => {
    const root = tempDir();
    writeTree(root, { 'a.skill.yaml': stepSkill('a', 'A') });
    const bytes = new MemoryByteStore();
    const first = await makeService({ bytes });
    await first.service.loadPacks([pack('t', root)]);
    await first.service.addLearnedSkill({ name: 'learned.code.x', trigger: 'Taught by the user', steps: ['one'], scope_mode: 'global' });
    await first.service.dispose();
    const reopened = await makeService({ bytes });
    assert.equal(reopened.service.openInfo.status, 'loaded');
    assert.ok(reopened.service.inspect('a'));
    await reopened.service.dispose();
    bytes.entries.set('skills.db', new TextEncoder().encode('this is not a database at all, just garbage bytes'));
    const rebuilt = await makeService({ bytes });
    assert.equal(rebuilt.service.openInfo.status, 'rebuilt');
    assert.ok([...bytes.entries.keys()].some((k) => k.startsWith('skills.db.corrupt-')));
    assert.equal(rebuilt.service.inspect('learned.code.x')?.origin, 'learned', 'learned skill replayed from the journal');
    await rebuilt.service.loadPacks([pack('t', root)]);
    assert.ok(rebuilt.service.inspect('a'), 'pack skills rebuilt from the packs');
  });

  it('requires: missing environment variables make a skill inactive, visible with a reason, never injected', async () => {
    const root = tempDir();
    writeTree(root, { 'a.skill.yaml': stepSkill('needs.key', 'Search the web with serper', ['x'], 'requires: [SERPER_API_KEY]\n') });
    const { service } = await makeService();
    const summary = await service.loadPacks([pack('t', root)]);
    assert.ok(summary.problems.some((p) => p.code === 'missing-requirement' && p.severity === 'info'));
    const tree = service.listPacks()[0]!;
    assert.deepEqual(
      tree.skills.map((s) => [s.name, s.status, s.reason]),
      [['needs.key', 'inactive', 'missing environment variable: SERPER_API_KEY']],
    );
    assert.equal((await service.getRelevant({ task: 'search the web with serper' }, ctx)).skills.length, 0);
    assert.equal((await service.search({ query: 'serper web search' }, ctx)).skills.length, 0);
    const got = await service.get({ names: ['needs.key'] }, ctx);
    assert.equal(got.skills.length, 0);
    assert.match(got.message ?? '', /SERPER_API_KEY/);
    const { service: withKey } = await makeService({ env: { SERPER_API_KEY: 'set' } });
    await withKey.loadPacks([pack('t', root)]);
    assert.equal((await withKey.getRelevant({ task: 'search the web with serper' }, ctx)).skills[0], 'needs.key');
  });

  it('listPacks gives the tree: status, file and line, and invalid entries with problems', async () => {
    const root = tempDir();
    writeTree(root, {
      'ok.skill.jsonl': `${JSON.stringify({ name: 'one', trigger: 't', steps: ['x'] })}\n${JSON.stringify({ name: 'two', trigger: 't', steps: ['x'] })}\n`,
      'bad.skill.yaml': 'name: bad\ntrigger: t\n',
    });
    const { service } = await makeService();
    await service.loadPacks([pack('t', root)]);
    const tree = service.listPacks();
    const items = tree[0]!.skills.map((s) => [s.name, s.status, path.basename(s.file), s.line]);
    assert.deepEqual(items, [
      ['bad', 'invalid', 'bad.skill.yaml', 1],
      ['one', 'active', 'ok.skill.jsonl', 1],
      ['two', 'active', 'ok.skill.jsonl', 2],
    ]);
    assert.equal(tree[0]!.skills[0]!.problems[0]!.code, 'missing-steps');
    const report = await service.validatePacks();
    assert.equal(report.errors, 1);
  });

  it('a missing settings pack is an error; a missing default agent folder is not', async () => {
    const { service } = await makeService();
    const summary = await service.loadPacks([pack('gone', '/nonexistent/pack'), pack('opt', '/nonexistent/opt', { optional: true })]);
    assert.deepEqual(
      summary.problems.map((p) => p.code),
      ['pack-not-found'],
    );
  });

  it('Validate Skill Packs: an absent default folder is no problem, an absent configured folder a warning', async () => {
    const { service } = await makeService();
    await service.loadPacks([pack('gone', '/nonexistent/pack'), pack('opt', '/nonexistent/opt', { optional: true })]);
    const report = await service.validatePacks();
    assert.deepEqual(
      report.problems.map((p) => [p.file, p.severity, p.code]),
      [['/nonexistent/pack', 'warning', 'pack-not-found']],
    );
    assert.equal(report.errors, 0);
  });

  it('exports JSON Schemas for the LanguageModelTool inputSchema', () => {
    const search = skillSearchInputJsonSchema() as { properties: Record<string, { default?: unknown; maximum?: number }>; required: string[] };
    assert.deepEqual(search.required, ['query']);
    assert.equal(search.properties.limit!.default, 8);
    assert.equal(search.properties.limit!.maximum, 20);
    const get = skillGetInputJsonSchema() as { properties: Record<string, { default?: unknown; minimum?: number; maxItems?: number }> };
    assert.equal(get.properties.max_tokens!.default, 1500);
    assert.equal(get.properties.max_tokens!.minimum, 200);
    assert.equal(get.properties.names!.maxItems, 10);
    assert.equal(get.properties.format!.default, 'injection');
    assert.ok(skillListInputJsonSchema());
  });

  it('writes nothing but sane data on a change of file (no crash on a file that vanished)', async () => {
    const root = tempDir();
    writeTree(root, { 'a.skill.yaml': stepSkill('a', 'A') });
    const { service } = await makeService();
    await service.loadPacks([pack('t', root)]);
    unlinkSync(path.join(root, 'a.skill.yaml'));
    const result = await service.reloadFile(path.join(root, 'a.skill.yaml'));
    assert.equal(result.status, 'removed');
    assert.deepEqual(result.removed, ['a']);
    writeFileSync(path.join(root, 'a.skill.yaml'), stepSkill('a', 'A'));
    assert.equal((await service.reloadFile(path.join(root, 'a.skill.yaml'))).inserted[0], 'a');
  });
});
