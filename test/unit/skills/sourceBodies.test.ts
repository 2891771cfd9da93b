import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { nodeFileSystem } from '../../../src/core/platform/nodeFileSystem';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import { ctx, engine, makeService, pack, tempDir, writeTree } from './helpers';

/** A pack skill's body lives in its file, not in the store; it is read when the skill is fetched. */
describe('skills: pack skill bodies are read from their files', () => {
  const skillMd = (body: string) => `---\nname: release-notes\ndescription: Write release notes from merged pull requests\n---\n\n${body}\n`;

  async function storedBody(bytes: MemoryByteStore, name: string): Promise<unknown> {
    const db = new (await engine()).sql.Database(bytes.entries.get('skills.db'));
    try {
      return db.exec('SELECT body FROM skills WHERE name = ?', [name])[0]?.values[0]?.[0];
    } finally {
      db.close();
    }
  }

  it('stores no body for a pack skill, shows it on skill_get, and shows the edited one after a reload', async () => {
    const root = tempDir();
    writeTree(root, { 'release-notes/SKILL.md': skillMd('# Release notes\n\nGroup the merged pull requests by label, newest first.') });
    const harness = await makeService({ bytes: new MemoryByteStore() });
    await harness.service.loadPacks([pack('p', root)]);
    await harness.service.save();
    assert.equal(await storedBody(harness.bytes, 'release-notes'), '', 'the body is not in the store');
    const got = await harness.service.get({ names: ['release-notes'] }, ctx);
    assert.match(JSON.stringify(got), /Group the merged pull requests by label/);
    assert.match(harness.service.inspect('release-notes')?.body ?? '', /newest first/);

    writeTree(root, { 'release-notes/SKILL.md': skillMd('# Release notes\n\nList breaking changes first.') });
    await harness.service.reloadFile(path.join(root, 'release-notes', 'SKILL.md'));
    const again = await harness.service.get({ names: ['release-notes'] }, ctx);
    assert.match(JSON.stringify(again), /List breaking changes first/);
    assert.doesNotMatch(JSON.stringify(again), /Group the merged/);
    await harness.service.dispose();
  });

  it('keeps a learned skill body in the store', async () => {
    const harness = await makeService({ bytes: new MemoryByteStore() });
    await harness.service.addLearnedSkill({
      name: 'learned-notes',
      trigger: 'write notes',
      steps: ['Summarise the change.'],
      scope_mode: 'global',
      body: 'Keep it short and factual.',
    });
    await harness.service.save();
    assert.equal(await storedBody(harness.bytes, 'learned-notes'), 'Keep it short and factual.');
    await harness.service.dispose();
  });

  it('drops the body a row still holds from an earlier store at the next load, and still shows it', async () => {
    const root = tempDir();
    writeTree(root, { 'release-notes/SKILL.md': skillMd('# Release notes\n\nGroup the merged pull requests by label.') });
    const bytes = new MemoryByteStore();
    // A file system without synchronous reads: the store keeps bodies (as stores did before).
    const { readRegularFileSync: _sync, ...asyncOnly } = nodeFileSystem;
    const earlier = await createHeadlessSkillService({ engine: await engine(), store: bytes, fs: asyncOnly });
    await earlier.loadPacks([pack('p', root)]);
    await earlier.dispose();
    assert.match(String(await storedBody(bytes, 'release-notes')), /Group the merged/);

    const harness = await makeService({ bytes });
    await harness.service.loadPacks([pack('p', root)]);
    await harness.service.save();
    assert.equal(await storedBody(bytes, 'release-notes'), '');
    assert.match(JSON.stringify(await harness.service.get({ names: ['release-notes'] }, ctx)), /Group the merged pull requests by label/);
    await harness.service.dispose();
  });
  it("each record shows its own skill's body, a copy of it carries that body, and a body set on one is that one's only", async () => {
    // Every record of the store shares one accessor for its body: what it reads and keeps is per record.
    const root = tempDir();
    const other = (name: string, body: string) => `---\nname: ${name}\ndescription: Skill ${name} for the bodies test\n---\n\n${body}\n`;
    writeTree(root, {
      'release-notes/SKILL.md': skillMd('# Release notes\n\nGroup the merged pull requests by label.'),
      'triage/SKILL.md': other('triage', '# Triage\n\nLabel each new issue within a day.'),
    });
    const harness = await makeService({ bytes: new MemoryByteStore() });
    await harness.service.loadPacks([pack('p', root)]);
    const notes = harness.service.inspect('release-notes');
    const triage = harness.service.inspect('triage');
    assert.ok(notes && triage);
    assert.match(triage.body, /Label each new issue/);
    assert.match(notes.body, /Group the merged pull requests/);
    assert.doesNotMatch(notes.body, /Label each new issue/);
    const copy = { ...notes, status: 'inactive' as const };
    assert.equal(copy.body, notes.body);
    assert.deepEqual(Object.keys(copy).includes('body'), true);
    notes.body = 'Rewritten for this test.';
    assert.equal(notes.body, 'Rewritten for this test.');
    assert.match(triage.body, /Label each new issue/);
    assert.match(copy.body, /Group the merged pull requests/);
    await harness.service.dispose();
  });
});
