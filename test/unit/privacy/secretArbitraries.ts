import fc from 'fast-check';

/**
 * Generated secret-shaped strings (none valid): provider formats, ids that are keys of
 * something else, and plain identifiers a tool's fields are really named.
 */

const base62 = (length: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${length}}$`));

/** Hex ids of 32–40 characters that switch between digits and letters like an id, not a word. */
const hexId = fc.stringMatching(/^[0-9a-f]{32,40}$/).filter((s) => (s.match(/[a-f]\d|\d[a-f]/g)?.length ?? 0) >= 6);

export const secretToken: fc.Arbitrary<string> = fc.oneof(
  base62(36).map((b) => `ghp_${b}`),
  base62(36).map((b) => `gho_${b}`),
  fc.stringMatching(/^[A-Z0-9]{16}$/).map((b) => `AKIA${b}`),
  base62(24).map((b) => `glpat-${b}`),
  base62(36).map((b) => `npm_${b}`),
  base62(34).map((b) => `hf_${b}`),
  base62(32).map((b) => `sk-proj-${b}`),
  base62(24).map((b) => `xoxb-1234567890-${b}`),
  hexId,
  fc.uuid(),
);

const WORDS = [
  'repo',
  'name',
  'max',
  'results',
  'query',
  'path',
  'branch',
  'env',
  'token',
  'api',
  'key',
  'id',
  'sha256',
  'v2',
  'page',
  'size',
  'user',
  'title',
  'body',
  'secret',
  'url',
  'timeout',
  'ms',
];

/** Field names as tools name them: snake_case, camelCase or dotted words. */
export const fieldName: fc.Arbitrary<string> = fc
  .tuple(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }), fc.constantFrom('_', '.', 'camel'))
  .map(([words, style]) => (style === 'camel' ? words.map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join('') : words.join(style)));
