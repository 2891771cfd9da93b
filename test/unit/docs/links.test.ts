import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The README, CONTRIBUTING.md and docs/*.md link to each other and into the sources; a moved
 * heading or file must not leave a reader at a dead link. Anchors follow GitHub's slugs.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's heading anchor: lower case, punctuation dropped (not `-` or `_`), spaces → `-`. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of withoutCodeBlocks(readFileSync(file, 'utf8')).matchAll(/^#+\s+(.+)$/gm)) {
    const base = slug(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

describe('docs: every relative link resolves', () => {
  for (const doc of DOCS) {
    it(`${doc}: linked files and headings exist`, () => {
      const file = path.join(ROOT, doc);
      const dead: string[] = [];
      for (const match of withoutCodeBlocks(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
        const href = match[1];
        if (/^[a-z]+:/i.test(href)) continue;
        const [target, fragment] = href.split('#');
        const resolved = target ? path.resolve(path.dirname(file), target) : file;
        if (!existsSync(resolved)) dead.push(`${href} (no such file)`);
        else if (fragment && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment)) dead.push(`${href} (no such heading)`);
      }
      assert.deepEqual(dead, []);
    });
  }

  it('the README stays a product page of at most 250 lines', () => {
    const lines = readFileSync(path.join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length;
    assert.ok(lines <= 250, `README.md has ${lines} lines`);
  });
});
