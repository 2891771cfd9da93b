import { COMMAND_FLAG_RULES, looksLikeToken, REDACTED_TOKEN, SECRET_FORMAT_RULES } from './secretFormats';
import type { SecretRule } from './secretFormats';

/**
 * Redaction of personal data and secrets in skill text sent to a model (docs/contracts.md#redaction).
 *
 * Conservative by design: it must keep the procedure readable (a step stays a step, version
 * numbers, dates, ISO timestamps, commit hashes, coordinates and ordinary URLs survive) while
 * removing e-mails, phone numbers, secrets recognisable by their format (`secretFormats.ts`)
 * and values assigned to a secret's name (`password: "a b c"`, `AccountKey=…`,
 * `aws_secret_access_key X`, `The admin password is '…'`). A name is a secret's name when its
 * last word is one (`db_password`, `x-api-key`, `SecretAccessKey`), not when a secret word is
 * merely part of it (`max_tokens`, `tokenizer`, `token_url`, `author`, `secret_name`).
 * Placeholders such as `<your-token>`, `${API_KEY}` or `process.env.X` are kept: they are
 * instructions, not secrets. Measured on a labelled corpus (bench/safety.bench.mjs).
 */

export { REDACTED_TOKEN } from './secretFormats';
export const REDACTED_EMAIL = '[REDACTED_EMAIL]';
export const REDACTED_PHONE = '[REDACTED_PHONE]';

/**
 * `name <sep> value`: the name (optionally quoted, optionally two words such as "secret key"),
 * then `:`/`=`, or `is`, or plain space; the value quoted (spaces allowed) or bare.
 */
const ASSIGNMENT =
  /(?<![A-Za-z0-9_.])((?:[A-Za-z][A-Za-z0-9]* )?[A-Za-z_][A-Za-z0-9_.-]*)(["']?)(\s*[:=]\s*|\s+is\s+|\s+)(?:"([^"\n]{3,200})"|'([^'\n]{3,200})'|([^\s"',;]{4,}))/g;

/** Last words that make a name a secret's name. */
const SECRET_NOUNS = new Set([
  'password',
  'passwd',
  'pwd',
  'pass',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'credential',
  'credentials',
  'accountkey',
  'accesskey',
  'privatekey',
  'secretkey',
]);
/** Words before "key" that do NOT make it a secret (`primary key`, `sort_key`, `public_key`). */
const HARMLESS_KEY_QUALIFIERS = new Set([
  'primary',
  'foreign',
  'sort',
  'partition',
  'cache',
  'map',
  'hot',
  'public',
  'idempotency',
  'dedupe',
  'dedup',
  'lookup',
  'row',
  'hash',
  'object',
  'group',
  'routing',
  'shard',
  'unique',
  'composite',
  'the',
  'a',
  'this',
  'that',
  'which',
  'each',
  'every',
  'any',
  'your',
  'my',
  'our',
  'one',
  'by',
  'of',
  'ssh',
  'gpg',
  'pgp',
  'issue',
  'jira',
  'project',
  'label',
  'dict',
  'json',
  'yaml',
  'config',
  'setting',
  'settings',
  'translation',
  'i18n',
  'env',
  'keyboard',
  'short',
  'hotkey',
]);

const EMAIL = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g;
const NOT_PERSONAL_EMAIL = /^(git|noreply|no-reply)@/i;

/**
 * Phone numbers: an international `+CC …` number, a North-American `(555) 123-4567` /
 * `555-123-4567` / `555.123.4567`, or a UK number in national form grouped as the UK writes
 * them (`020 7946 0958`, `0161 496 0000`, `01632 960 001`, `07700 900123`). Plain digit runs,
 * dates (2024-01-15), versions (1.2.3), times, other groupings of numbers (`012 345 678`) and
 * signed decimal coordinates (+48.8566) are deliberately not matched.
 */
const PHONE =
  /(?<![\w.+/-])(?:\+\d{1,3}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{1,4}(?:[\s.-]?\d{2,4}){2,4}|\(\d{3}\)\s?\d{3}[\s.-]\d{4}|\d{3}[.-]\d{3}[.-]\d{4}|\(?0[1-9]\d\)?[ -]\d{4}[ -]\d{4}|\(?0[1-9]\d{2}\)?[ -]\d{3}[ -]\d{4}|\(?0[1-9]\d{3}\)?[ -](?:\d{6}|\d{3}[ -]\d{3}))(?![\w.-]*\d)/g;
const COORDINATE = /^\+\d{1,3}\.\d+$/;

/** Cheap pre-check: text without any of these cannot match a rule (most skill sentences). */
const MAYBE_SENSITIVE =
  /[@:=]|\d{3}|\+\d|-----BEGIN|\b(?:MII|MIG|MHcCAQEE|MC4CAQAw|b3BlbnNzaC|gh[pousr]_|github_pat_|sk[-_]|rk_|pk_|xox|xapp-|whsec_|AKIA|ASIA|ABIA|ACCA|AIza|eyJ|glpat-|npm_|hf_|SG\.|SK[0-9a-f]|key-|Bearer|Token|Basic)|pass|pwd|secret|token|key|credential|\s-[pau]|--(?:user|pass)/i;

/** Whether `text` holds a placeholder `redact` put there (`[REDACTED_TOKEN]`, `[REDACTED_EMAIL]`, …). */
export function holdsRedaction(text: string): boolean {
  return text.includes('[REDACTED');
}

/**
 * Passes over a text that changed: a placeholder can give a later rule the boundary it looks
 * for (`+7946 00MIIEow…` only shows a key body once the phone number before it is
 * `[REDACTED_PHONE]`). Placeholders match no rule, so the passes end; the cap keeps it bounded.
 */
const MAX_PASSES = 4;

/** Redacts `text`; returns it unchanged when nothing matched. A second call changes nothing. */
export function redact(text: string): string {
  if (!text || !MAYBE_SENSITIVE.test(text)) return text;
  let out = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = redactOnce(out);
    if (next === out) break;
    out = next;
  }
  return out;
}

function redactOnce(text: string): string {
  let out = applyRules(text, SECRET_FORMAT_RULES);
  out = redactAssignments(out);
  out = out.replace(EMAIL, (match) => (NOT_PERSONAL_EMAIL.test(match) ? match : REDACTED_EMAIL));
  out = out.replace(PHONE, (match) => (COORDINATE.test(match) ? match : REDACTED_PHONE));
  return applyRules(out, COMMAND_FLAG_RULES);
}

function applyRules(text: string, rules: readonly SecretRule[]): string {
  let out = text;
  for (const rule of rules) {
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, rule.replace as (substring: string, ...args: unknown[]) => string);
  }
  return out;
}

/**
 * Replaces assigned secret values. A candidate that is not a secret's name is skipped only
 * past its first word, so "Storage account key: X" is still seen as "account key: X".
 */
function redactAssignments(text: string): string {
  let out = '';
  let copied = 0;
  ASSIGNMENT.lastIndex = 0;
  for (let m = ASSIGNMENT.exec(text); m; m = ASSIGNMENT.exec(text)) {
    const [match, name = '', nameQuote = '', separator = ''] = m;
    const replaced = redactAssignment(match, name, nameQuote, separator, m[4], m[5], m[6]);
    if (replaced === match) {
      const firstWord = /^[A-Za-z][A-Za-z0-9]* (?=\S)/.exec(name)?.[0].length ?? name.length;
      ASSIGNMENT.lastIndex = m.index + Math.max(1, firstWord);
      continue;
    }
    out += text.slice(copied, m.index) + replaced;
    copied = m.index + match.length;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function redactAssignment(
  match: string,
  name: string,
  nameQuote: string,
  separator: string,
  doubleQuoted?: string,
  singleQuoted?: string,
  bare?: string,
): string {
  if (!isSecretName(name)) return match;
  const quoted = doubleQuoted ?? singleQuoted;
  const value = quoted ?? bare ?? '';
  if (isPlaceholder(value)) return match;
  // Without ":" or "=", only a quoted value or one shaped like a credential counts
  // ("password field", "the secret to fast builds" stay prose).
  const loose = !/[:=]/.test(separator);
  if (loose && quoted === undefined && !looksLikeCredential(value)) return match;
  if (quoted === undefined && looksLikeHarmlessValue(value)) return match;
  // `token = tokenizer.encode(text)`, `const token = await getToken()`: code, not a value.
  if (quoted === undefined && /\s=\s/.test(separator) && looksLikeCode(value)) return match;
  const quote = doubleQuoted !== undefined ? '"' : singleQuoted !== undefined ? "'" : '';
  return `${name}${nameQuote}${separator}${quote}${REDACTED_TOKEN}${quote}`;
}

/** Whether the last word of `name` names a secret (see SECRET_NOUNS). */
function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.-]+/)
    .filter(Boolean);
  const last = words[words.length - 1];
  if (!last) return false;
  if (SECRET_NOUNS.has(last) || /^\w*(?:password|passwd)$/.test(last)) return true;
  // SECRET_KEY_BASE, secret_value: a secret word followed by a word that names its value.
  if ((last === 'base' || last === 'value') && words.slice(0, -1).some((w) => SECRET_NOUNS.has(w) || w === 'key')) return true;
  if (last === 'key') {
    const before = words[words.length - 2];
    return before !== undefined && !HARMLESS_KEY_QUALIFIERS.has(before);
  }
  return false;
}

/** A bare value that reads like a credential: letters mixed with digits and/or symbols, no prose or markup. */
function looksLikeCredential(value: string): boolean {
  if (value.length < 8 || !/^[A-Za-z0-9!@#$%^&*+/=_.~:-]+$/.test(value)) return false;
  const digit = /\d/.test(value);
  const mixedCase = /[A-Z]/.test(value) && /[a-z]/.test(value);
  const symbol = /[!@#$%^&*+/=]/.test(value.replace(/=+$/, ''));
  return (digit && mixedCase) || (symbol && (digit || mixedCase)) || looksLikeToken(value);
}

/** Paths, URLs, environment-variable names and plain numbers-with-units are references, not secrets. */
function looksLikeHarmlessValue(value: string): boolean {
  return /^(?:[/~.]\/?|https?:\/\/|\[)/.test(value) || /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value);
}

/** A call, an index, or an identifier without digits: the right-hand side of code. */
function looksLikeCode(value: string): boolean {
  return /[()[\]]/.test(value) || /^[A-Za-z_$][A-Za-z_$.]*$/.test(value);
}

function isPlaceholder(value: string): boolean {
  return (
    /^(?:<.*>?|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\(.*|\$\{\{.*|\{\{.*|%[A-Za-z_]+%?|process\.env\..*|os\.environ.*|env\.[A-Za-z_]+|\*+|x{3,}|\.\.\.|…|REDACTED.*|\[REDACTED.*|Bearer|Basic|Token|None|null|undefined|true|false|required|optional|string)$/i.test(
      value.trim(),
    ) || value.includes(REDACTED_TOKEN)
  );
}

const UUID_IN_NAME = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * Whether a name that should be an identifier (an argument key, a tool name) is itself data a
 * user would not want kept: a secret or personal value redaction recognises, a token-like run, a
 * UUID, or a segment of 16+ characters switching between letters and digits at least six times
 * (hex ids, map keys that are keys of something else). Field names are words (`repo`,
 * `max_results`, `sha256Checksum`), so they pass.
 */
export function isSecretShapedName(name: string): boolean {
  if (redact(name) !== name || looksLikeToken(name) || UUID_IN_NAME.test(name)) return true;
  return name.split(/[._-]+/).some((segment) => segment.length >= 16 && (segment.match(/[A-Za-z]\d|\d[A-Za-z]/g)?.length ?? 0) >= 6);
}
