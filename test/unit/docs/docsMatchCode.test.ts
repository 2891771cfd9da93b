import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { DOC_FILES, readDoc, ROOT } from './docSources';

/**
 * Statements the docs make about the code that went stale before: the events core emits, the
 * VSIX's size limit (one home: the package script's check, which prints the measured size — no
 * page states it), the README's slash commands, the test areas of docs/testing.md.
 */

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('docs: statements about the code stay true', () => {
  it('docs/contracts.md#events names every event the code emits', () => {
    const emitted = new Set<string>();
    for (const file of sourceFiles(path.join(ROOT, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/emit\(\{\s*type:\s*'([a-z_]+)'/g)) emitted.add(match[1]!);
    }
    assert.ok(emitted.size >= 20, `found ${emitted.size} events`);
    const contracts = readDoc('docs/contracts.md');
    const events = contracts.slice(contracts.indexOf('## Events'));
    const missing = [...emitted].filter((type) => !new RegExp(`\`${type}[\` ]`).test(events));
    assert.deepEqual(missing, [], 'events the code emits that docs/contracts.md does not name');
  });

  it('the VSIX limit the docs state is the one the package script checks, and no page states a measured size', () => {
    const script = readFileSync(path.join(ROOT, 'scripts', 'package.mjs'), 'utf8');
    const limit = /export const VSIX_MAX_BYTES = (\d+) \* 1024 \* 1024;/.exec(script);
    assert.ok(limit, 'scripts/package.mjs declares VSIX_MAX_BYTES in MB');
    for (const doc of DOC_FILES) {
      readDoc(doc)
        .split('\n')
        .forEach((line, i) => {
          if (!/vsix/i.test(line)) return;
          const where = `${doc}:${i + 1}: ${line}`;
          assert.doesNotMatch(line, /\*\*[\d,.]+ ?(KB|MB)\*\*|about [\d.]+ ?MB/, `a measured VSIX size: ${where}`);
          for (const stated of line.matchAll(/(?:under|smaller than|≤|<) ?([\d.]+) ?MB/g)) {
            if (/VSIX < 2 MB/.test(line) && stated[1] === '2') continue; // the first target, kept as history in benchmarks.md
            assert.equal(stated[1], limit[1], `the VSIX limit: ${where}`);
          }
        });
    }
  });

  it("the README's list of slash commands names every command @toolshed declares", () => {
    const manifest = JSON.parse(readDoc('package.json')) as { contributes: { chatParticipants: Array<{ commands?: Array<{ name: string }> }> } };
    const names = manifest.contributes.chatParticipants.flatMap((participant) => (participant.commands ?? []).map((command) => command.name));
    const line = readDoc('README.md')
      .split('\n')
      .find((text) => text.includes('Slash commands:'));
    assert.ok(line, 'the README lists the slash commands');
    for (const name of names) assert.match(line, new RegExp(`\`/${name}[\` ]`), `/${name} in: ${line}`);
  });

  it('docs/testing.md names every test area of test/unit/', () => {
    const testing = readDoc('docs/testing.md');
    const areas = readdirSync(path.join(ROOT, 'test', 'unit')).filter((name) => statSync(path.join(ROOT, 'test', 'unit', name)).isDirectory());
    const missing = areas.filter((area) => !testing.includes(`test/unit/${area}/`));
    assert.deepEqual(missing, [], 'test areas docs/testing.md does not name');
  });
});
