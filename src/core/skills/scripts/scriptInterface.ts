import { validateAgainstSchema } from '../../schema/jsonSchemaSubset';

/**
 * What a script looks like to a model: its description (from the frontmatter `scripts:` entry,
 * else the header comment or docstring) and its input schema (the entry's `args` JSON Schema,
 * else `{ args: string[] }`), and how a call's input becomes the argument array.
 */

export type ScriptKind = 'python' | 'node' | 'shell' | 'executable';

/** Interpreter per kind; `executable` runs the file itself. */
export const INTERPRETERS: Readonly<Record<Exclude<ScriptKind, 'executable'>, string>> = { python: 'python3', node: 'node', shell: 'sh' };

/** The kind a file name implies, or undefined (then only an executable bit makes it runnable). */
export function kindFromExtension(fileName: string): Exclude<ScriptKind, 'executable'> | undefined {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.py')) return 'python';
  if (lower.endsWith('.js') || lower.endsWith('.mjs') || lower.endsWith('.cjs')) return 'node';
  if (lower.endsWith('.sh')) return 'shell';
  return undefined;
}

/** A `scripts:` entry of SKILL.md frontmatter, after validation. */
export interface ScriptEntry {
  file: string;
  description?: string;
  /** JSON Schema (type object) of the call's input. */
  args?: Record<string, unknown>;
}

export const DEFAULT_SCRIPT_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: 'object',
  properties: { args: { type: 'array', items: { type: 'string' }, description: 'Command-line arguments, in order.' } },
  additionalProperties: false,
});

const MAX_DESCRIPTION_CHARS = 600;

/**
 * The first comment block or docstring of a script (after a shebang), as plain text: Python
 * `"""…"""`/`'''…'''`, JS `/** … *\/` or `//` lines, shell and Python `#` lines.
 */
export function headerDescription(source: string): string {
  const lines = source.slice(0, 8192).split(/\r?\n/);
  let i = 0;
  if (lines[0]?.startsWith('#!')) i++;
  while (i < lines.length && (lines[i].trim() === '' || /^\s*(['"]use strict['"];?|# -\*- coding|#\s*(vim|type):)/.test(lines[i]))) i++;
  const first = lines[i]?.trim() ?? '';
  const collected: string[] = [];
  const docstring = /^(?:[rRuU]?)("""|''')/.exec(first);
  if (docstring) {
    const quote = docstring[1];
    let rest = first.slice(docstring[0].length);
    for (; i < lines.length; rest = lines[++i] ?? '') {
      const end = rest.indexOf(quote);
      if (end >= 0) {
        collected.push(rest.slice(0, end));
        break;
      }
      collected.push(rest);
    }
  } else if (first.startsWith('/*')) {
    for (let line = first.slice(2); i < lines.length; line = lines[++i] ?? '') {
      const end = line.indexOf('*/');
      collected.push((end >= 0 ? line.slice(0, end) : line).replace(/^\s*\*+ ?/, ''));
      if (end >= 0) break;
    }
  } else {
    const marker = first.startsWith('//') ? '//' : first.startsWith('#') ? '#' : undefined;
    if (marker) for (; i < lines.length && lines[i].trim().startsWith(marker); i++) collected.push(lines[i].trim().slice(marker.length).replace(/^\s/, ''));
  }
  const text = collected
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text.length > MAX_DESCRIPTION_CHARS ? `${text.slice(0, MAX_DESCRIPTION_CHARS - 1).trimEnd()}…` : text;
}

/**
 * Reads the frontmatter `scripts:` value into entries keyed by file name (`count.py` or
 * `scripts/count.py`). Malformed entries are reported, never thrown.
 */
export function readScriptEntries(value: unknown): { entries: Map<string, ScriptEntry>; problems: string[] } {
  const entries = new Map<string, ScriptEntry>();
  const problems: string[] = [];
  if (value === undefined || value === null) return { entries, problems };
  if (!Array.isArray(value)) return { entries, problems: ['`scripts` must be a list of `{ file, description, args }` entries.'] };
  value.forEach((raw, index) => {
    const entry = raw as Partial<ScriptEntry> | null;
    if (!entry || typeof entry !== 'object' || typeof entry.file !== 'string' || !entry.file.trim()) {
      problems.push(`scripts[${index}]: needs \`file\`, the script's file name in scripts/.`);
      return;
    }
    const file = entry.file.trim().replace(/^\.?\/?scripts\//, '');
    if (
      entry.args !== undefined &&
      (typeof entry.args !== 'object' || entry.args === null || Array.isArray(entry.args) || (entry.args as { type?: unknown }).type !== 'object')
    ) {
      problems.push(`scripts[${index}] (${file}): \`args\` must be a JSON Schema with \`type: object\`; the default \`{ args: string[] }\` is used.`);
      entries.set(file, { file, description: typeof entry.description === 'string' ? entry.description : undefined });
      return;
    }
    entries.set(file, {
      file,
      description: typeof entry.description === 'string' ? entry.description : undefined,
      args: entry.args as Record<string, unknown> | undefined,
    });
  });
  return { entries, problems };
}

export type ArgvResult = { ok: true; argv: string[] } | { ok: false; message: string };

const MAX_ARGS = 256;
const MAX_ARG_CHARS = 8192;

/**
 * Turns a call's input into the argument array. Default schema: `input.args` as given. A
 * declared schema: each property present, in the schema's order, becomes `--name value`
 * (`--name` alone for `true`, omitted for `false`, repeated for arrays); `args` (when declared)
 * is appended as positional arguments. Nothing is ever joined into a shell string.
 */
export function inputToArgv(input: unknown, schema: Readonly<Record<string, unknown>> | undefined): ArgvResult {
  const value = input === undefined || input === null ? {} : input;
  if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, message: 'The input must be an object.' };
  const effective = schema ?? DEFAULT_SCRIPT_SCHEMA;
  const problems = validateAgainstSchema(value, effective, 'input');
  if (problems.length) return { ok: false, message: problems.map((p) => `${p.path}: ${p.message}`).join('; ') };
  const record = value as Record<string, unknown>;
  const argv: string[] = [];
  const scalar = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  if (schema) {
    const properties = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
    for (const key of properties) {
      if (key === 'args' || !(key in record) || record[key] === undefined || record[key] === null) continue;
      const v = record[key];
      if (v === false) continue;
      if (v === true) argv.push(`--${key}`);
      else if (Array.isArray(v)) for (const item of v) argv.push(`--${key}`, scalar(item));
      else argv.push(`--${key}`, scalar(v));
    }
  }
  const positional = record.args;
  if (positional !== undefined) {
    if (!Array.isArray(positional)) return { ok: false, message: 'input.args must be a list of strings.' };
    argv.push(...positional.map(scalar));
  }
  if (argv.length > MAX_ARGS) return { ok: false, message: `Too many arguments (${argv.length}; at most ${MAX_ARGS}).` };
  const long = argv.find((arg) => arg.length > MAX_ARG_CHARS);
  if (long !== undefined) return { ok: false, message: `An argument is longer than ${MAX_ARG_CHARS} characters.` };
  if (argv.some((arg) => arg.includes('\u0000'))) return { ok: false, message: 'Arguments must not contain NUL characters.' };
  return { ok: true, argv };
}
