import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { canonicalJson } from '../../../src/core/platform/canonicalJson';
import { contentHash, isCurrentContentHash, legacyContentHash } from '../../../src/core/skills/store/skillRecords';

type Content = Parameters<typeof contentHash>[0];

/** The fields a content hash covers, in the order HASHED_FIELDS lists them. */
const FIELDS = [
  'allowed_tools',
  'body',
  'description',
  'domain',
  'extra',
  'failure_modes',
  'format',
  'frames',
  'meta',
  'model_invocable',
  'name',
  'preconditions',
  'requires',
  'resources',
  'steps',
  'tags',
  'task_type',
  'title',
  'tools',
  'trigger',
  'triggers',
] as const;

/** The first definition as docs/contracts.md#hashes words it: sha256 of the canonical JSON of the content fields. */
function documentedHash(content: Content): string {
  const fields = {
    name: content.name,
    title: content.title,
    description: content.description,
    trigger: content.trigger,
    task_type: content.task_type,
    tags: content.tags,
    steps: content.steps,
    preconditions: content.preconditions,
    failure_modes: content.failure_modes,
    body: content.body,
    domain: content.domain,
    frames: content.frames,
    triggers: content.triggers,
    tools: content.tools,
    allowed_tools: content.allowed_tools,
    requires: content.requires,
    meta: content.meta,
    extra: content.extra,
    format: content.format,
    model_invocable: content.model_invocable,
    resources: content.resources ?? [],
  };
  return createHash('sha256').update(canonicalJson(fields)).digest('hex');
}

/** Text JSON must escape: quotes, backslashes, control characters, lone surrogates, line separators, emoji. */
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\t', '\u0000', '\u001f', '\u2028', '\ud800', '\udc00', '😀', 'é', '東'), maxLength: 40 }),
);
const strings = fc.array(text, { maxLength: 4 });
/** Any JSON-like value, including what a careless caller could put where a list belongs (holes, numbers, objects, undefined). */
const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.constant(undefined),
  fc.sparseArray(text, { maxLength: 4 }),
  fc.array(fc.oneof(text, fc.integer(), fc.constant(undefined)), { maxLength: 4 }),
);
const objects = fc.dictionary(text, fc.oneof(fc.jsonValue(), fc.constant(undefined)), { maxKeys: 4 });

const content = fc.record(
  {
    name: text,
    title: text,
    description: text,
    trigger: text,
    task_type: fc.constantFrom('unknown', 'debugging', 'coding'),
    tags: strings,
    steps: strings,
    preconditions: strings,
    failure_modes: strings,
    body: text,
    domain: text,
    frames: strings,
    triggers: strings,
    tools: fc.array(fc.record({ tool: text, note: text }, { requiredKeys: ['tool'] }), { maxLength: 3 }),
    allowed_tools: strings,
    requires: strings,
    meta: objects,
    extra: objects,
    format: fc.constantFrom('skill-md', 'yaml', 'markdown'),
    model_invocable: fc.boolean(),
    resources: strings,
  },
  { requiredKeys: ['name', 'body'] },
) as fc.Arbitrary<Content>;

/** A pinned skill for both definitions' values (the first definition's with a short body). */
const DEPLOY = {
  name: 'deploy',
  title: 'Deploy',
  description: 'Ship it',
  trigger: 'when deploying',
  task_type: 'unknown',
  tags: ['ops'],
  steps: ['build', 'push'],
  preconditions: [],
  failure_modes: [],
  body: `Run "make"\n\\done${'.'.repeat(300)}`,
  domain: '',
  frames: [],
  triggers: [],
  tools: [{ tool: 'shell' }],
  allowed_tools: [],
  requires: [],
  meta: { cluster: 'ops' },
  extra: {},
  format: 'skill-md',
  model_invocable: true,
} as unknown as Content;

describe('Content hash, first definition (docs/contracts.md#hashes): what stores written before hold', () => {
  it('is sha256 of the canonical JSON of the content fields, for any content (fast-check)', () => {
    fc.assert(
      fc.property(content, (c) => {
        assert.equal(legacyContentHash(c), documentedHash(c));
      }),
      { numRuns: 1000 },
    );
  });

  it('is the same for content whose fields hold values of another shape than a parse gives (fast-check)', () => {
    const fields = ['tags', 'steps', 'frames', 'triggers', 'allowed_tools', 'requires', 'resources', 'title', 'meta', 'tools', 'model_invocable'] as const;
    fc.assert(
      fc.property(content, fc.constantFrom(...fields), anyValue, (c, field, value) => {
        const odd = { ...c, [field]: value } as Content;
        assert.equal(legacyContentHash(odd), documentedHash(odd));
      }),
      { numRuns: 1000 },
    );
  });

  it('gives the hash a store of the first definition holds', () => {
    // A stored hash of that definition is compared with this when its file is read again (skillPackWriter).
    // The pinned skill with a short body (the value below was computed for this one).
    const skill = { ...DEPLOY, body: 'Run "make"\n\\done' } as Content;
    assert.equal(legacyContentHash(skill), documentedHash(skill));
    assert.equal(legacyContentHash(skill), 'ec33d9efa8b9d23292e49d4cabf61ee3c62a43faf6a4d3208aceb369f614c1a2');
    assert.ok(!isCurrentContentHash(legacyContentHash(skill)));
  });
});

/** Texts from a few characters, so that two drawn records often hold the same or nearly the same text. */
const small = fc.string({ unit: fc.constantFrom('a', 'b', ':', '1', 's', 'l', '\ud800', '\udc00'), maxLength: 3 });
const smallLists = fc.array(small, { maxLength: 2 });
/** Values of the shapes a field can hold: text, a list of texts, absent, or another value (canonical JSON). */
const smallValue = fc.oneof(small, smallLists, fc.constant(undefined), fc.constantFrom(true, false, 1, null), fc.dictionary(small, small, { maxKeys: 2 }));
const smallContent = fc.record(Object.fromEntries(FIELDS.map((field) => [field, smallValue])), { requiredKeys: [] }) as unknown as fc.Arbitrary<Content>;

describe('Content hash (docs/contracts.md#hashes)', () => {
  it('is the same for equal content, whatever its objects and order of keys (fast-check)', () => {
    fc.assert(
      fc.property(content, (c) => {
        const copy = structuredClone(c);
        const reordered = Object.fromEntries(Object.entries(c).reverse()) as Content;
        const metaReordered = c.meta ? ({ ...c, meta: Object.fromEntries(Object.entries(c.meta).reverse()) } as Content) : c;
        const hash = contentHash(c);
        assert.ok(isCurrentContentHash(hash));
        assert.equal(contentHash(copy), hash);
        assert.equal(contentHash(reordered), hash);
        assert.equal(contentHash(metaReordered), hash);
      }),
      { numRuns: 1000 },
    );
  });

  it('changes when any field changes, to any other value (fast-check)', () => {
    fc.assert(
      fc.property(content, fc.constantFrom(...FIELDS), anyValue, (c, field, value) => {
        const before = field === 'resources' ? (c.resources ?? []) : (c as Record<string, unknown>)[field];
        const changed = { ...c, [field]: value } as Content;
        const after = field === 'resources' ? (changed.resources ?? []) : value;
        // A change canonical JSON cannot see (undefined for undefined) is no change.
        fc.pre(canonicalJson([before]) !== canonicalJson([after]) || typeof before !== typeof after);
        assert.notEqual(contentHash(changed), contentHash(c));
      }),
      { numRuns: 2000 },
    );
  });

  it('is equal for two records exactly when the first definition is: text moved between fields or list items, a text against a list of it, lone surrogates (fast-check)', () => {
    fc.assert(
      fc.property(smallContent, fc.constantFrom(...FIELDS), smallValue, fc.constantFrom(...FIELDS), smallValue, (a, f1, v1, f2, v2) => {
        // A record and the same with one or two fields drawn again from a few values: often equal, often near.
        const b = { ...a, [f1]: v1, [f2]: v2 } as Content;
        assert.equal(contentHash(a) === contentHash(b), documentedHash(a) === documentedHash(b));
      }),
      { numRuns: 5000 },
    );
    // The cases a framing without lengths or types would confuse.
    const base = { ...DEPLOY };
    const pairs: Array<[Partial<Content>, Partial<Content>]> = [
      [
        { name: 'ab', title: 'c' },
        { name: 'a', title: 'bc' },
      ],
      [{ tags: ['a,b'] }, { tags: ['a', 'b'] }],
      [{ tags: ['ab'] }, { tags: ['a', 'b'] }],
      [{ domain: 'x' }, { domain: ['x'] as never }],
      [{ body: '\ud800' }, { body: '\ud801' }],
      [{ body: 'x'.repeat(300) }, { body: `${'x'.repeat(299)}y` }],
      [{ domain: undefined }, { domain: 'u' }],
    ];
    for (const [x, y] of pairs) assert.notEqual(contentHash({ ...base, ...x } as Content), contentHash({ ...base, ...y } as Content), JSON.stringify([x, y]));
  });

  it('keeps the value a stored skill has', () => {
    // Stored hashes must not change: a changed hash means "the skill changed" to the next load.
    assert.equal(contentHash(DEPLOY), 'c2:4d5d6fd0f738f68090f7a5d554bd114de37aaece340731aee70317bdc5607b13');
  });
});
