import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { canonicalJson } from '../../../src/core/platform/canonicalJson';
import { contentHash } from '../../../src/core/skills/store/skillRecords';

type Content = Parameters<typeof contentHash>[0];

/** The content hash as docs/contracts.md#hashes words it: sha256 of the canonical JSON of the content fields. */
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

describe('Content hash (docs/contracts.md#hashes)', () => {
  it('is sha256 of the canonical JSON of the content fields, for any content (fast-check)', () => {
    fc.assert(
      fc.property(content, (c) => {
        assert.equal(contentHash(c), documentedHash(c));
      }),
      { numRuns: 1000 },
    );
  });

  it('is the same for content whose fields hold values of another shape than a parse gives (fast-check)', () => {
    const fields = ['tags', 'steps', 'frames', 'triggers', 'allowed_tools', 'requires', 'resources', 'title', 'meta', 'tools', 'model_invocable'] as const;
    fc.assert(
      fc.property(content, fc.constantFrom(...fields), anyValue, (c, field, value) => {
        const odd = { ...c, [field]: value } as Content;
        assert.equal(contentHash(odd), documentedHash(odd));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps the hash a stored skill already has', () => {
    // Stored hashes must not change: a changed hash means "the skill changed" to the next load.
    const skill = {
      name: 'deploy',
      title: 'Deploy',
      description: 'Ship it',
      trigger: 'when deploying',
      task_type: 'unknown',
      tags: ['ops'],
      steps: ['build', 'push'],
      preconditions: [],
      failure_modes: [],
      body: 'Run "make"\n\\done',
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
    assert.equal(contentHash(skill), documentedHash(skill));
    assert.equal(contentHash(skill), 'ec33d9efa8b9d23292e49d4cabf61ee3c62a43faf6a4d3208aceb369f614c1a2');
  });
});
