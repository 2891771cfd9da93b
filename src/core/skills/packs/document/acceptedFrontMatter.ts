import { AGENT_SKILL_NAME_PATTERN, KNOWN_SKILL_KEYS } from '../../skillSchema';

/**
 * Whether the SKILL.md front matter schema (`agentSkillFrontmatterSchema`) surely accepts these
 * fields, decided without zod for the shapes real libraries write: a conforming `name` and a
 * `description`, any unknown key (the schema keeps them), and the known keys below with values of
 * their plainest type. `false` means "not sure", never "invalid": the parser then asks the schema,
 * whose issues become the file's problems. A cold load checks every file of a library (10,000 real
 * ones: zod's parse was ≈ 10 % of parsing them); a property test (acceptedFrontMatter.test.ts)
 * holds that every answer `true` is one the schema gives too.
 */
export function surelyAcceptedSkillMd(fields: Record<string, unknown>): boolean {
  const { name, description } = fields;
  // The schema's own limits (skillSchema.ts): a name of at most 64 characters matching the rule,
  // a description of 1–1024 characters once trimmed (its untrimmed length bounds that).
  if (typeof name !== 'string' || name.length > 64 || !AGENT_SKILL_NAME_PATTERN.test(name)) return false;
  if (typeof description !== 'string' || description.length > 1024 || description.trim().length === 0) return false;
  for (const key in fields) {
    if (!Object.hasOwn(fields, key) || key === 'name' || key === 'description') continue;
    const check = DECIDED.get(key);
    if (check) {
      if (!check(fields[key])) return false;
    } else if (SCHEMA_KEYS.has(key)) return false;
    // Any other key is unknown: the schema keeps it whatever it holds.
  }
  return true;
}

const isString = (value: unknown): boolean => typeof value === 'string';
const shorterThan = (max: number) => (value: unknown) => typeof value === 'string' && value.length <= max;
const isBoolean = (value: unknown): boolean => typeof value === 'boolean';

/** Strings only, each with a character other than white space (the schema's `textList`). */
function isTextList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== 'string' || item.trim().length === 0) return false;
  return true;
}

/** A plain object whose own values are all strings (`metadata`: a record of strings). */
function isStringRecord(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key of Reflect.ownKeys(value)) if (typeof key !== 'string' || typeof (value as Record<string, unknown>)[key] !== 'string') return false;
  return true;
}

/**
 * The known keys decided here, each with the plainest values its schema accepts (skillSchema.ts,
 * `skillFieldsShape`). Any other known key — `steps`, `tools`, `requires`, `scripts`, … — is left
 * to the schema.
 */
const DECIDED = new Map<string, (value: unknown) => boolean>(
  Object.entries({
    title: shorterThan(200),
    trigger: shorterThan(1024),
    triggers: (value) => typeof value === 'string' || isTextList(value),
    tags: isTextList,
    frames: isTextList,
    domain: isString,
    body: isString,
    license: isString,
    compatibility: shorterThan(500),
    metadata: isStringRecord,
    'allowed-tools': (value) => typeof value === 'string' || (Array.isArray(value) && value.every(isString)),
    'argument-hint': isString,
    'user-invokable': isBoolean,
    'user-invocable': isBoolean,
    'disable-model-invocation': isBoolean,
  }),
);

/** Every key the schema knows (a known key not decided above goes to the schema). */
const SCHEMA_KEYS = new Set(KNOWN_SKILL_KEYS);
