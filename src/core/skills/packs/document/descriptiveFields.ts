import { isPlainObject } from './documentValues';

/**
 * Leniency for fields that only describe a skill (docs/skills.md, "Fields in another shape"):
 * public SKILL.md files write them in shapes the schema does not take (`version: 1.2` in
 * `metadata`, `tags: python`, `user-invocable: "true"`), and other agents load those skills.
 * Such a value is coerced when its meaning is plain (a number or boolean as text, a string as a
 * one-item list, "true"/"false" as a boolean), otherwise dropped; each repair is a warning naming
 * the field, and the skill loads.
 *
 * Fields that change what runs, what is trusted or when a skill is active are not touched here and
 * stay strict errors: `allowed-tools` (it restricts which of a skill's scripts are offered, so
 * dropping it would widen them), `scripts`, `requires` (an unmet one keeps the skill inactive),
 * `disable-model-invocation` unless it is "true"/"false", and the skill's identity and procedure
 * (`id`, `name` — handled by its own rule —, `description`, `trigger`, `steps`, `task_type`,
 * `cluster`, `preconditions`, `failure_modes`).
 */

export interface FieldRepair {
  /** The field (and entry) repaired, e.g. `['metadata', 'version']`, `['tags', 3]`. */
  path: PropertyKey[];
  message: string;
}

/** Text fields that only describe; `argument-hint` may come back as its source text. */
const TEXT_KEYS = ['title', 'domain', 'license', 'compatibility', 'argument-hint'];
/** Keyword lists (searchable words, nothing runs from them). */
const LIST_KEYS = ['tags', 'frames', 'triggers'];
/** Flags whose string spelling "true"/"false" is read as the boolean; other shapes are dropped. */
const FLAG_KEYS = ['user-invocable', 'user-invokable'];
/** A flag that changes when a skill is injected: only "true"/"false" are read, anything else stays an error. */
const STRICT_FLAG_KEYS = ['disable-model-invocation'];

const LOADS = 'The skill loads; fix the file so other tools read it the same way.';

/**
 * `raw` with the descriptive fields repaired (a copy when anything changed) and what was done.
 * `sourceOf(key)` gives the one-line source text of a top-level value when it is known: an
 * `argument-hint: [file] [line]` that YAML read as a list is meant as that text.
 */
export function repairDescriptiveFields(
  raw: Record<string, unknown>,
  sourceOf: (key: string) => string | undefined = () => undefined,
): { fields: Record<string, unknown>; repairs: FieldRepair[] } {
  const repairs: FieldRepair[] = [];
  const fields: Record<string, unknown> = { ...raw };
  const drop = (key: string, why: string) => {
    delete fields[key];
    repairs.push({ path: [key], message: `\`${key}\`: ${why}; the field is ignored. ${LOADS}` });
  };
  for (const key of TEXT_KEYS) {
    const value = raw[key];
    if (value === undefined || typeof value === 'string') continue;
    if (value === null) drop(key, 'empty');
    else if (isScalar(value)) {
      fields[key] = String(value);
      repairs.push({ path: [key], message: `\`${key}\`: expected text; read as \`${String(value)}\`. ${LOADS}` });
    } else {
      const source = key === 'argument-hint' ? sourceOf(key)?.trim() : undefined;
      if (source && !source.includes('\n')) {
        fields[key] = source;
        repairs.push({ path: [key], message: `\`${key}\`: expected text (YAML read it as ${shapeOf(value)}); read as \`${source}\` — quote it. ${LOADS}` });
      } else drop(key, `expected text, found ${shapeOf(value)}`);
    }
  }
  for (const key of LIST_KEYS) {
    const value = raw[key];
    if (value === undefined || (key === 'triggers' && typeof value === 'string')) continue;
    if (value === null) drop(key, 'empty');
    else if (isScalar(value) || typeof value === 'string') {
      const text = String(value).trim();
      if (!text) drop(key, 'empty');
      else {
        fields[key] = [text];
        repairs.push({ path: [key], message: `\`${key}\`: expected a list of strings; read as the one-item list [\`${text}\`]. ${LOADS}` });
      }
    } else if (Array.isArray(value)) fields[key] = repairedList(key, value, repairs);
    else drop(key, `expected a list of strings, found ${shapeOf(value)}`);
  }
  for (const key of [...FLAG_KEYS, ...STRICT_FLAG_KEYS]) {
    const value = raw[key];
    if (value === undefined || typeof value === 'boolean') continue;
    const flag = typeof value === 'string' ? /^\s*(true|false)\s*$/i.exec(value)?.[1]?.toLowerCase() : undefined;
    if (flag) {
      fields[key] = flag === 'true';
      repairs.push({ path: [key], message: `\`${key}\`: expected true or false without quotes; read as ${flag}. ${LOADS}` });
    } else if (FLAG_KEYS.includes(key)) drop(key, `expected true or false, found ${shapeOf(value)}`);
  }
  if (raw.metadata !== undefined) repairMetadata(raw.metadata, fields, repairs, drop);
  if (raw.tools !== undefined) repairTools(raw.tools, fields, repairs, drop);
  return { fields: repairs.length > 0 ? fields : raw, repairs };
}

function repairMetadata(value: unknown, fields: Record<string, unknown>, repairs: FieldRepair[], drop: (key: string, why: string) => void): void {
  if (value === null) return drop('metadata', 'empty');
  if (!isPlainObject(value)) return drop('metadata', `expected a mapping of names to text, found ${shapeOf(value)}`);
  let repaired: Record<string, unknown> | undefined;
  for (const [name, entry] of Object.entries(value)) {
    if (typeof entry === 'string') continue;
    repaired ??= { ...value };
    const path = ['metadata', name];
    if (isScalar(entry)) {
      repaired[name] = String(entry);
      repairs.push({ path, message: `\`metadata.${name}\`: metadata values are text; read as \`${String(entry)}\`. ${LOADS}` });
    } else {
      delete repaired[name];
      repairs.push({
        path,
        message: `\`metadata.${name}\`: metadata values are text, found ${shapeOf(entry)}; this entry is ignored. ${LOADS}`,
      });
    }
  }
  if (repaired) fields.metadata = repaired;
}

/** `tools: Read, Write, Bash` (the comma-separated spelling of agent files) as a list; unusable entries dropped. */
function repairTools(value: unknown, fields: Record<string, unknown>, repairs: FieldRepair[], drop: (key: string, why: string) => void): void {
  if (value === null) return drop('tools', 'empty');
  if (typeof value === 'string') {
    const names = value
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    if (names.length === 0) return drop('tools', 'empty');
    fields.tools = names;
    repairs.push({ path: ['tools'], message: `\`tools\`: expected a list; read as [${names.map((n) => `\`${n}\``).join(', ')}]. ${LOADS}` });
    return;
  }
  if (!Array.isArray(value)) return drop('tools', `expected a list of tool names, found ${shapeOf(value)}`);
  const kept: unknown[] = [];
  value.forEach((entry, i) => {
    if ((typeof entry === 'string' && entry.trim()) || (isPlainObject(entry) && typeof entry.tool === 'string' && entry.tool.trim())) kept.push(entry);
    else repairs.push({ path: ['tools', i], message: `\`tools.${i}\`: expected a tool name or \`{ tool, note }\`; this entry is ignored. ${LOADS}` });
  });
  if (kept.length < value.length) fields.tools = kept;
}

function repairedList(key: string, value: unknown[], repairs: FieldRepair[]): string[] | unknown[] {
  if (value.every((entry) => typeof entry === 'string' && entry.trim())) return value;
  const kept: string[] = [];
  value.forEach((entry, i) => {
    if (typeof entry === 'string' && entry.trim()) kept.push(entry);
    else if (isScalar(entry)) {
      kept.push(String(entry));
      repairs.push({ path: [key, i], message: `\`${key}.${i}\`: expected text; read as \`${String(entry)}\`. ${LOADS}` });
    } else {
      const what = typeof entry === 'string' || entry === null ? 'empty' : shapeOf(entry);
      repairs.push({ path: [key, i], message: `\`${key}.${i}\`: expected text, found ${what}; this entry is ignored. ${LOADS}` });
    }
  });
  return kept;
}

function isScalar(value: unknown): value is number | boolean | bigint {
  return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint';
}

function shapeOf(value: unknown): string {
  if (value === null) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return 'text';
  return `a ${typeof value}`;
}
