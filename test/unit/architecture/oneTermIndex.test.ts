import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * One term index: skills and tools are ranked by one implementation in `src/core/search/` — the
 * term index (`TermIndex`: the BM25F statistics, `FieldStats`, and the one postings owner,
 * `ImpactPostings`, with its one refresh policy) and the stored form (`TermVocabulary` and the
 * counted blobs of `termStore.ts`). The skill store and the tool index only instantiate a
 * `TermIndex` and a `TermVocabulary`. A second implementation — statistics or postings made
 * outside the term index, a postings list, a vocabulary or a varint codec of its own outside
 * `src/core/search/`, or a full-text table in SQL — fails here, so an engine change lands once
 * for both sides.
 */

const ROOT = path.join(__dirname, '..', '..', '..');
const SEARCH = 'src/core/search/';

/** The parts only the term index (`src/core/search/termIndex.ts`) creates: statistics and postings. */
const INDEX_PARTS = ['FieldStats', 'ImpactPostings'];
const TERM_INDEX = 'src/core/search/termIndex.ts';
/** The shared parts the owners instantiate, and the only files outside `src/core/search/` that may. */
const PARTS = ['TermIndex', 'TermVocabulary'];
const OWNERS = new Set([
  'src/core/skills/store/skillSearchIndex.ts',
  'src/core/skills/store/skillStore.ts',
  'src/core/skills/store/skillStoreSchema.ts',
  'src/core/tools/index/toolIndex.ts',
]);

/** A name that says it keeps a term index. */
const INDEX_NAME = /(Postings|Vocabulary|TermStore|TermIndex|InvertedIndex)$/;
const VARINT = /varint|leb128/i;
/** SQL that makes a full-text table. */
const FULL_TEXT_TABLE = /CREATE\s+VIRTUAL\s+TABLE[^;]*USING\s+fts/i;

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const relative = `${dir}/${name}`;
    if (statSync(path.join(ROOT, relative)).isDirectory()) return filesUnder(relative);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [relative] : [];
  });
}

/** What in `file` would make it a second term index. */
function secondIndexIn(file: string, text = readFileSync(path.join(ROOT, file), 'utf8')): string[] {
  const found: string[] = [];
  const shared = file.startsWith(SEARCH);
  const visit = (node: ts.Node): void => {
    if (!shared && ts.isClassDeclaration(node) && node.name && INDEX_NAME.test(node.name.text)) found.push(`declares class ${node.name.text}`);
    if (!shared && (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name && VARINT.test(node.name.getText())) {
      found.push(`declares a varint codec (${node.name.getText()})`);
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
      const part = node.expression.text;
      if (INDEX_PARTS.includes(part) && file !== TERM_INDEX) found.push(`creates a ${part} outside the term index`);
      if (!shared && !OWNERS.has(file) && PARTS.includes(part)) found.push(`creates a ${part}`);
    }
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) && FULL_TEXT_TABLE.test(node.text)) {
      found.push('creates a full-text table');
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS));
  return found.map((what) => `${file}: ${what}`);
}

describe('architecture: one term index for skills and tools', () => {
  it('only src/core/search implements term statistics, postings and the stored term form; the skill store and the tool index use them', () => {
    const found = filesUnder('src').flatMap((file) => secondIndexIn(file));
    assert.deepEqual(found, []);
    // Both sides do use the shared parts (an owner that stopped would be a second index by other
    // means): the skills' and the tools' postings are the term index's, with its refresh policy.
    const uses = (file: string, part: string) => new RegExp(`new ${part}\\b`).test(readFileSync(path.join(ROOT, file), 'utf8'));
    assert.ok(uses('src/core/skills/store/skillSearchIndex.ts', 'TermIndex') && uses('src/core/tools/index/toolIndex.ts', 'TermIndex'));
    assert.ok(uses('src/core/skills/store/skillStore.ts', 'TermVocabulary') && uses('src/core/tools/index/toolIndex.ts', 'TermVocabulary'));
    assert.ok(uses(TERM_INDEX, 'ImpactPostings') && uses(TERM_INDEX, 'FieldStats'));
  });

  it('the check catches a second index: its own postings class, a varint codec, a new of a shared part, a full-text table', () => {
    const file = 'src/core/tools/index/otherIndex.ts';
    assert.deepEqual(secondIndexIn(file, 'export class ToolPostings { add() {} }'), [`${file}: declares class ToolPostings`]);
    assert.deepEqual(secondIndexIn(file, 'function writeVarint(n: number) { return n; }'), [`${file}: declares a varint codec (writeVarint)`]);
    assert.deepEqual(secondIndexIn(file, "import { TermIndex } from '../../search/termIndex';\nconst s = new TermIndex(['a'], {}, {});"), [
      `${file}: creates a TermIndex`,
    ]);
    assert.deepEqual(secondIndexIn(file, 'db.exec(`CREATE VIRTUAL TABLE t USING fts4(a)`);'), [`${file}: creates a full-text table`]);
    // An owner keeps postings or statistics beside the term index's (a second refresh policy).
    const skills = 'src/core/skills/store/skillSearchIndex.ts';
    assert.deepEqual(secondIndexIn(skills, 'const p = new ImpactPostings(stats, w, b);'), [`${skills}: creates a ImpactPostings outside the term index`]);
    assert.deepEqual(secondIndexIn('src/core/search/bm25f.ts', "const s = new FieldStats(['a']);"), [
      'src/core/search/bm25f.ts: creates a FieldStats outside the term index',
    ]);
    assert.deepEqual(secondIndexIn('src/core/tools/index/toolIndex.ts', "const s = new TermIndex(['a'], {}, {});"), []);
  });
});
