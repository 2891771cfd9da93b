import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseSkillDocument } from '../../../src/core/skills/packs/document/skillDocumentParser';
import { makeLearning, turn } from '../learning/helpers';
import { cli } from './helpers';
import { tempFolder } from '../../tempFolder';

/** Every file of a folder → its bytes (base64), to prove a refused import wrote nothing. */
function folderBytes(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => [name, readFileSync(path.join(dir, name)).toString('base64')]),
  );
}

const withoutExportTime = (text: string) => text.replace(/"exported_at":\d+/, '');

describe('toolshed export / import', () => {
  let dir: string;
  before(() => {
    dir = tempFolder('toolshed-snapshot-cli-');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('export → import into an empty storage folder → export again gives the same snapshot; a refused import changes no byte', async () => {
    // A storage folder as the extension leaves it: the in-memory stores written out as files.
    const h = await makeLearning();
    const calls = [
      { tool: 'fixture_weather_forecast', input: { city: 'Oslo' }, ok: true },
      { tool: 'fixture_create_issue', input: { title: 't' }, ok: true },
    ];
    const a = (await h.learning.ingest(turn('Check the weather forecast in Oslo, then create an issue with the summary', calls, { sessionId: 'a' }))).proposal!;
    const b = (await h.learning.ingest(turn('check weather forecast for Oslo then create issue with summary', calls, { sessionId: 'b', at: 5 }))).proposal!;
    await h.learning.approve(a.id);
    await h.learning.approve(b.id);
    await h.learning.recordOutcome([a.candidate.name], 'helpful');
    await h.service.save();
    await h.store.save();
    const source = path.join(dir, 'source');
    const target = path.join(dir, 'target');
    for (const folder of [source, target]) mkdirSync(folder);
    for (const [key, bytes] of h.bytes.entries) writeFileSync(path.join(source, key), bytes);

    const snapshot = path.join(dir, 'learned.jsonl');
    const exported = await cli('export', '--storage', source, '--out', snapshot);
    assert.equal(exported.code, 0, exported.err);
    assert.match(exported.err, /Exported 1 learned skill\(s\) and 2 proposal\(s\)/);

    const imported = await cli('import', snapshot, '--storage', target);
    assert.equal(imported.code, 0, imported.err);
    assert.match(imported.out, /Imported: 1 added, 0 merged, 0 unchanged, 0 conflict\(s\); proposals 2 added/);
    const again = await cli('export', '--storage', target);
    assert.equal(withoutExportTime(again.out), withoutExportTime(readFileSync(snapshot, 'utf8')));

    const before = folderBytes(target);
    const broken = path.join(dir, 'broken.jsonl');
    writeFileSync(broken, readFileSync(snapshot, 'utf8').slice(0, 200));
    const refused = await cli('import', broken, '--storage', target);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /^toolshed import: Line 2 of the snapshot is not valid JSON \(corrupt or truncated\)\. Export it again\.\n$/);
    assert.deepEqual(folderBytes(target), before);

    const dry = await cli('import', snapshot, '--storage', target, '--dry-run', '--json');
    assert.equal(dry.code, 0);
    assert.deepEqual(JSON.parse(dry.out).unchanged.length, 1);
    assert.deepEqual(folderBytes(target), before, 'a dry run writes nothing');
  });

  it('export --pack writes SKILL.md folders the loader reads with no problem; a second run overwrites nothing and exits 1', async () => {
    const h = await makeLearning();
    const calls = [
      { tool: 'fixture_weather_forecast', input: { city: 'Oslo' }, ok: true },
      { tool: 'fixture_create_issue', input: { title: 't' }, ok: true },
    ];
    const a = (await h.learning.ingest(turn('Check the weather forecast in Oslo, then create an issue with the summary', calls, { sessionId: 'a' }))).proposal!;
    await h.learning.approve(a.id);
    await h.learning.recordOutcome([a.candidate.name], 'helpful');
    await h.service.save();
    await h.store.save();
    const storage = path.join(dir, 'pack-storage');
    mkdirSync(storage);
    for (const [key, bytes] of h.bytes.entries) writeFileSync(path.join(storage, key), bytes);
    const skillsFolder = path.join(dir, 'ws', '.github', 'skills');

    const first = await cli('export', '--storage', storage, '--pack', skillsFolder);
    assert.equal(first.code, 0, first.err);
    const folders = readdirSync(skillsFolder);
    assert.equal(folders.length, 1);
    const file = path.join(skillsFolder, folders[0]!, 'SKILL.md');
    assert.ok(first.out.includes(file));
    const text = readFileSync(file, 'utf8');
    const parsed = parseSkillDocument(text, file);
    assert.deepEqual(parsed.problems, []);
    assert.equal((parsed.skills[0]!.meta.metadata as Record<string, string>).helpful, '1');

    const second = await cli('export', '--storage', storage, '--pack', skillsFolder, a.candidate.name);
    assert.equal(second.code, 1);
    assert.match(second.err, /already exists; nothing was overwritten/);
    assert.equal(readFileSync(file, 'utf8'), text);
    assert.equal((await cli('export', '--storage', storage, '--pack')).code, 2);
  });

  it('usage errors exit 2 with a message saying what to give', async () => {
    assert.match((await cli('export')).err, /give --storage DIR/);
    assert.equal((await cli('import', '--storage', dir)).code, 2);
    assert.match((await cli('import', 'x.jsonl', '--storage', dir, '--merge-threshold', '3')).err, /from 0\.5 to 1/);
    const help = await cli('--help');
    assert.ok(help.out.includes('toolshed export') && help.out.includes('toolshed import'));
  });
});
