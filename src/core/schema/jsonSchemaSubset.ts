/**
 * A small JSON-Schema validator for tool use examples: the subset tool input schemas use in
 * practice — `type` (also the BFCL/OpenAPI spellings `dict`, `float`, `tuple`, `any`),
 * `properties`, `required`, `additionalProperties`, `items`, `enum`, `const`, `minimum`,
 * `maximum`, `minLength`, `maxLength`, `minItems`, `maxItems`, `anyOf`, `oneOf`, `allOf`.
 * Unknown keywords are ignored (permissive), so a schema feature we do not model never makes a
 * valid example look invalid. `$ref` is not followed (treated as "anything").
 */

export interface SchemaProblem {
  /** JSON-pointer-ish path such as `args.filePath` or `args.items[2]`. */
  path: string;
  message: string;
}

type Schema = Record<string, unknown>;

const TYPE_ALIASES: Record<string, string> = { dict: 'object', float: 'number', tuple: 'array', int: 'integer', bool: 'boolean', str: 'string', list: 'array' };

export function validateAgainstSchema(value: unknown, schema: unknown, path = 'args'): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  check(value, schema, path, problems, 0);
  return problems;
}

function check(value: unknown, schema: unknown, path: string, out: SchemaProblem[], depth: number): void {
  if (depth > 32 || schema === true || schema === undefined || schema === null) return;
  if (schema === false) {
    out.push({ path, message: 'no value is allowed here' });
    return;
  }
  if (typeof schema !== 'object' || Array.isArray(schema)) return;
  const s = schema as Schema;

  if (Array.isArray(s.enum) && !s.enum.some((candidate) => deepEqual(candidate, value))) {
    out.push({ path, message: `must be one of ${JSON.stringify(s.enum)}` });
    return;
  }
  if ('const' in s && !deepEqual(s.const, value)) {
    out.push({ path, message: `must equal ${JSON.stringify(s.const)}` });
    return;
  }

  const types = normaliseTypes(s.type);
  if (types && !types.some((t) => hasType(value, t))) {
    out.push({ path, message: `must be ${types.join(' or ')}, got ${describeType(value)}` });
    return;
  }

  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) out.push({ path, message: `must be ≥ ${s.minimum}` });
    if (typeof s.maximum === 'number' && value > s.maximum) out.push({ path, message: `must be ≤ ${s.maximum}` });
  }
  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' && value.length < s.minLength) out.push({ path, message: `must have at least ${s.minLength} characters` });
    if (typeof s.maxLength === 'number' && value.length > s.maxLength) out.push({ path, message: `must have at most ${s.maxLength} characters` });
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) out.push({ path, message: `must have at least ${s.minItems} items` });
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) out.push({ path, message: `must have at most ${s.maxItems} items` });
    if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) {
      value.forEach((item, index) => check(item, s.items, `${path}[${index}]`, out, depth + 1));
    }
  }
  if (isPlainObject(value)) {
    const properties = isPlainObject(s.properties) ? (s.properties as Record<string, unknown>) : {};
    if (Array.isArray(s.required)) {
      for (const key of s.required) {
        if (typeof key === 'string' && !(key in value)) out.push({ path: `${path}.${key}`, message: 'is required' });
      }
    }
    for (const [key, child] of Object.entries(value)) {
      if (key in properties) check(child, properties[key], `${path}.${key}`, out, depth + 1);
      else if (s.additionalProperties === false) out.push({ path: `${path}.${key}`, message: 'is not a known parameter' });
      else if (isPlainObject(s.additionalProperties)) check(child, s.additionalProperties, `${path}.${key}`, out, depth + 1);
    }
  }

  if (Array.isArray(s.allOf)) for (const sub of s.allOf) check(value, sub, path, out, depth + 1);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const options = s[keyword];
    if (Array.isArray(options) && options.length > 0) {
      const fits = options.some((sub) => validateAgainstSchemaAt(value, sub, path, depth).length === 0);
      if (!fits) out.push({ path, message: `matches none of the allowed shapes (${keyword})` });
    }
  }
}

function validateAgainstSchemaAt(value: unknown, schema: unknown, path: string, depth: number): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  check(value, schema, path, problems, depth + 1);
  return problems;
}

function normaliseTypes(type: unknown): string[] | undefined {
  const list = typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : undefined;
  if (!list || list.length === 0) return undefined;
  const mapped = list.map((t) => TYPE_ALIASES[t] ?? t);
  return mapped.includes('any') ? undefined : mapped;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return true; // unknown type names: permissive
  }
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
