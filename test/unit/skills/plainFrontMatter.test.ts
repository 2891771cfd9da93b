import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import * as YAML from 'yaml';
import { BoundedProblems } from '../../../src/core/skills/packs/document/boundedProblems';
import { LineIndex } from '../../../src/core/skills/packs/document/lineIndex';
import { readPlainFrontMatter } from '../../../src/core/skills/packs/document/plainFrontMatter';
import { parseSkillDocument } from '../../../src/core/skills/packs/document/skillDocumentParser';
import { SkillEntries } from '../../../src/core/skills/packs/document/skillEntries';
import { YamlLocator } from '../../../src/core/skills/packs/document/yamlLocated';
import type { Located } from '../../../src/core/skills/packs/document/yamlLocated';

/**
 * The fast front-matter reader (plainFrontMatter.ts) must read exactly what the YAML parser
 * reads wherever it answers: the same value, the same nodes at the same positions, and so the
 * same skill and the same problems. Generated front matter mixes the plain subset with what
 * falls outside it (typed scalars, comments, quotes with escapes, continuation lines, repeated
 * keys, tabs, CRLF, odd characters), so both answers — "read it" and "leave it to the parser" —
 * are exercised.
 */

const FILE = '/skills/pack/pdf-tools/SKILL.md';
const PREFIX = '---\n';

/** The parser's reading of `source` as the skill parser does it, plus its problems. */
function parsed(source: string): { located: Located | undefined; problems: unknown[] } {
  const text = `${PREFIX}${source}`;
  const out = new BoundedProblems(FILE, { maxProblems: 200, maxErrors: 1000, budgetMs: 60_000 });
  const index = new LineIndex(text);
  const located = new YamlLocator(index, FILE, out).parseSource(source, PREFIX.length, index.lineSpan(1));
  return { located, problems: out.list };
}

/** The skill and the problems `SkillEntries` makes of a reading (what the loader keeps). */
function entryOf(source: string, located: Located): unknown {
  const text = `${PREFIX}${source}`;
  const out = new BoundedProblems(FILE, { maxProblems: 200, maxErrors: 1000, budgetMs: 60_000 });
  const yaml = new YamlLocator(new LineIndex(text), FILE, out);
  const entries = new SkillEntries(FILE, { packName: 'pack', relativePath: 'pdf-tools/SKILL.md' }, out, yaml);
  entries.add(located, 'skill-md', { body: 'Use the tools.', bodyAnchor: located.anchor, ordinal: 0, multi: false });
  return { skills: entries.skills, problems: out.list };
}

/** Every node's kind, value and [start, end) (what positions are computed from), in order. */
function shape(node: unknown): unknown {
  if (YAML.isMap(node)) return { map: node.range?.slice(0, 2), items: node.items.map((p) => [shape(p.key), shape(p.value)]) };
  if (YAML.isSeq(node)) return { seq: node.range?.slice(0, 2), items: node.items.map(shape) };
  if (YAML.isScalar(node)) return { scalar: node.range?.slice(0, 2), value: node.value, type: node.type };
  return { other: String(node) };
}

const word = fc.constantFrom(
  'pdf',
  'Use',
  'when',
  'tables',
  'x',
  'A1',
  'déjà',
  '🚀',
  'C#',
  'a:b',
  'k8s',
  'v2',
  '-flag',
  '50%',
  'e.g.',
  '[x]',
  '{y}',
  'a,b',
  '<tag>',
  '`code`',
);
const plainText = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
const typed = fc.constantFrom(
  '1.0.0',
  '2024-01-01',
  '99',
  '0',
  '0123',
  'true',
  'False',
  'TRUE',
  'null',
  '~',
  '0x1F',
  '0o17',
  '1e3',
  '.5',
  '-3',
  '+4',
  '.inf',
  '.NaN',
  '1.5',
  '12345678901234567890',
  'yes',
  'no',
  'on',
);
const tricky = fc.constantFrom(
  'Use when: (1) a pdf',
  'see # not a comment',
  'trailing colon:',
  'text  # a comment',
  '"quoted text"',
  '"with \\"escape\\""',
  '"unterminated',
  "'it''s single'",
  "'unterminated",
  '"a" trailing',
  '|',
  '>-',
  '[a, b]',
  '{a: 1}',
  '&anchor value',
  '*alias',
  '!tag value',
  '- dash',
  '? key',
  '@at',
  '   leading spaces',
  'tab\there',
  'cr\rhere',
  'nul\u0000here',
  'nel\u0085here',
  'bom\ufeffhere',
  'lone \ud800 half',
  'x'.repeat(300),
);
const flowItem = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.array(fc.constantFrom('Read', 'Bash', 'git diff', 'A1', '99', 'true', '1.5', 'C#'), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
  },
  { weight: 1, arbitrary: fc.constantFrom('"Grep x"', "'it''s'", '"a\\b"', 'a: b', 'a #b', '[b]', '{c: d}', '', ' ', 'x]', '"q":', '&a', '-x') },
);
const flowList = fc
  .tuple(fc.array(flowItem, { maxLength: 4 }), fc.constantFrom(', ', ',', ' , ', ',  '), fc.constantFrom('', ' '), fc.constantFrom('', ',', ', '))
  .map(([items, sep, pad, trailing]) => `[${pad}${items.join(sep)}${items.length > 0 ? trailing : ''}${pad}]`);
const flowKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('bins', 'emoji', '"bins"', '"emoji"') },
  { weight: 1, arbitrary: fc.constantFrom('"a b"', '"__proto__"', '""', '"true"', 'true', "'q'", '1x') },
);
const flowLeaf = fc.oneof(flowItem, flowList);
const flowPairs = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc.array(fc.tuple(flowKey, fc.constantFrom(':', ': ', ' : ', ':  '), value), { maxLength: 4 }),
      fc.constantFrom(',', ', '),
      fc.constantFrom('', ' '),
      fc.constantFrom('', ','),
    )
    .map(([pairs, sep, pad, trailing]) => `{${pad}${pairs.map(([k, colon, v]) => `${k}${colon}${v}`).join(sep)}${pairs.length > 0 ? trailing : ''}${pad}}`);
const flowMap = flowPairs(fc.oneof(flowLeaf, flowPairs(flowLeaf), fc.constantFrom('[a, [b, c]]', '[{a: b}]', '{', 'x}')));
const scalar = fc.oneof(
  { weight: 6, arbitrary: plainText },
  { weight: 2, arbitrary: typed },
  { weight: 2, arbitrary: plainText.map((t) => `"${t.replace(/["\\]/g, '')}"`) },
  { weight: 2, arbitrary: plainText.map((t) => `'${t.replace(/'/g, "''")}'`) },
  { weight: 2, arbitrary: tricky },
);
const key = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      'name',
      'description',
      'license',
      'version',
      'allowed-tools',
      'metadata',
      'tags',
      'user_invocable',
      'argument-hint',
      'compatibility',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('true', 'null', '__proto__', '1key', 'key with space', 'ключ', '_private', 'a.b', 'constructor') },
);
const indent = fc.constantFrom('', '  ', '    ', ' ');
const entry = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(key, fc.constantFrom(' ', '  '), scalar).map(([k, sep, v]) => `${k}:${sep}${v}`) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        key,
        fc.oneof(plainText, typed),
        fc.array(
          fc.tuple(
            fc.constantFrom(' ', '  ', '    '),
            fc.oneof({ weight: 4, arbitrary: plainText }, { weight: 1, arbitrary: fc.oneof(typed, tricky) }),
            fc.constantFrom('', '  ', '\n'),
          ),
          { minLength: 1, maxLength: 3 },
        ),
      )
      .map(([k, first, rest]) => `${k}: ${first}${rest.map(([i, text, after]) => `\n${i}${text}${after}`).join('')}`),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        key,
        fc.constantFrom('>', '>-', '|', '|-', '>+', '|2', '> # c', '|-  ', '>x'),
        fc.constantFrom('  ', '    ', ' '),
        fc.array(fc.tuple(fc.oneof({ weight: 5, arbitrary: plainText }, { weight: 1, arbitrary: tricky }), fc.constantFrom('', ' ', '  ', '\n', 'x')), {
          minLength: 1,
          maxLength: 3,
        }),
      )
      .map(
        ([k, header, indent, lines]) =>
          `${k}: ${header}${lines.map(([text, extra]) => `\n${extra === 'x' ? ' ' : ''}${indent}${text}${extra === 'x' ? '' : extra}`).join('')}`,
      ),
  },
  {
    // A single-quoted value over several lines (as YAML dumpers write long strings): indented or
    // not, blank lines between, spaces around, quotes inside, the closing quote alone or after text.
    weight: 3,
    arbitrary: fc
      .tuple(
        key,
        fc.constantFrom('', ' ', "it''s "),
        fc.array(
          fc.tuple(
            fc.constantFrom('  ', ' ', '    ', ''),
            fc.oneof(
              { weight: 4, arbitrary: plainText.map((t) => t.replace(/'/g, "''")) },
              { weight: 1, arbitrary: fc.constantFrom('', '  ', "''", "don''t", '# no comment', 'a: b', "x' y") },
            ),
            fc.constantFrom('', ' ', '  '),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        fc.constantFrom("'", " '", "'  ", "' # c", "' x", "''", ''),
        fc.boolean(),
      )
      .map(([k, first, lines, close, closeAlone]) => {
        const body = lines.map(([indent, text, trailing]) => `${indent}${text}${trailing}`).join('\n');
        return `${k}: '${first}\n${body}${closeAlone ? `\n  ${close}` : close}`;
      }),
  },
  { weight: 2, arbitrary: fc.tuple(key, flowList, fc.constantFrom('', '  ', ' x')).map(([k, v, after]) => `${k}: ${v}${after}`) },
  { weight: 2, arbitrary: fc.tuple(key, flowMap, fc.constantFrom('', '  ', ' x')).map(([k, v, after]) => `${k}: ${v}${after}`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(key, indent, fc.array(scalar, { minLength: 1, maxLength: 4 }))
      .map(([k, i, items]) => `${k}:\n${items.map((v) => `${i}- ${v}`).join('\n')}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(key, indent, fc.array(fc.tuple(key, fc.oneof(scalar, flowList, flowMap)), { minLength: 1, maxLength: 4 }))
      .map(([k, i, pairs]) => `${k}:\n${pairs.map(([s, v]) => `${i}${s}: ${v}`).join('\n')}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '# a comment',
      '',
      '   ',
      'key:value',
      'empty:',
      'key :x',
      '  continued line',
      '\t',
      '---x',
      'k:\n  a: 1\n    b: 2',
      'k:\n  - a\n    - b',
      'k:\n- a\n  - b',
      'k:\n  - a\n- b',
    ),
  },
);
const frontMatter = fc
  .tuple(fc.array(entry, { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.constantFrom('', '\n', '\n\n'))
  .map(([entries, eol, finalEol, blank]) => `${entries.join(`${blank.slice(1)}\n`)}${finalEol ? '\n' : ''}${blank}`.replace(/\n/g, eol));

describe('plain front matter: read without the YAML parser, the same as the parser', () => {
  it('wherever the fast reader answers, value, nodes, skill and problems equal the parser’s', () => {
    let read = 0;
    fc.assert(
      fc.property(frontMatter, (source) => {
        const fast = readPlainFrontMatter(source);
        if (!fast) return;
        read++;
        const slow = parsed(source);
        assert.deepEqual(slow.problems, [], 'the parser found a problem in front matter the fast reader accepted');
        assert.ok(slow.located);
        assert.deepEqual(fast.value, slow.located.value);
        assert.deepEqual(shape(fast.root), shape(slow.located.root));
        const located: Located = { value: fast.value, root: fast.root, base: PREFIX.length, anchor: slow.located.anchor, index: slow.located.index };
        assert.deepEqual(entryOf(source, located), entryOf(source, slow.located));
      }),
      { numRuns: 3000 },
    );
    // Not vacuous: a good share of the generated front matter is in the plain subset.
    assert.ok(read > 150, `the fast reader answered ${read} of 3000`);
  });

  it('reads the shapes real SKILL.md front matter has, and leaves the rest to the parser', () => {
    const real =
      'name: pdf-tools\ndescription: Fill, merge and split PDF files\n  when the user asks.\nlicense: MIT\nversion: 1.0.0\nallowed-tools:\n  - Read\n  - Bash\nmetadata:\n  author: someone\n  stars: 42\nuser-invocable: true\ntools: [Read, "Grep x", Bash]\nopenclaw: {"emoji":"🔧","requires":{"bins":["curl","jq"]}}\n';
    const fast = readPlainFrontMatter(real);
    assert.deepEqual(fast?.value, {
      name: 'pdf-tools',
      description: 'Fill, merge and split PDF files when the user asks.',
      license: 'MIT',
      version: '1.0.0',
      'allowed-tools': ['Read', 'Bash'],
      metadata: { author: 'someone', stars: 42 },
      'user-invocable': true,
      tools: ['Read', 'Grep x', 'Bash'],
      openclaw: { emoji: '🔧', requires: { bins: ['curl', 'jq'] } },
    });
    for (const other of [
      'name: x\n# comment\n',
      'name: x\ndescription: >+\n  kept\n',
      'name: x\n\n  continued\n',
      'name: x\n  # comment\n',
      'name: x\nname: y\n',
      'version: 1.5\n',
      'tags: [a, [b: c]]\n',
      'meta: {a: 1.5}\n',
    ]) {
      assert.equal(readPlainFrontMatter(other), undefined, other);
    }
  });

  it('deep nesting is left to the parser, which bounds it (no stack overflow, the same error)', () => {
    const nested = (depth: number) => `name: pdf-tools\ndescription: Fill PDF forms\nmeta: ${'['.repeat(depth)}a${']'.repeat(depth)}\n`;
    assert.equal(readPlainFrontMatter(nested(100_000)), undefined);
    const result = parseSkillDocument(`---\n${nested(70)}---\nUse the tools.\n`, FILE);
    assert.equal(result.skills.length, 0);
    assert.match(result.problems.map((p) => p.message).join('\n'), /nested more than 64 levels/);
  });

  it('a SKILL.md read on the fast path loads as before: its problems at the parser’s positions', () => {
    const text = '---\nname: Pdf Tools\ndescription: Fill PDF forms\nauthor: me\ntags:\n  - pdf\n---\nUse the tools.\n';
    const result = parseSkillDocument(text, FILE);
    assert.equal(result.skills[0]?.name, 'pdf-tools');
    assert.deepEqual(
      result.problems.map((p) => `${p.line}:${p.column}-${p.endLine}:${p.endColumn} ${p.code}`),
      ['2:7-2:16 invalid-name', '4:1-4:7 unknown-field'],
    );
  });
});
