/**
 * Redaction of personal data and secrets in skill text sent to a model (RFC Appendix C).
 *
 * Conservative by design: it must keep the procedure readable (a step stays a step, version
 * numbers, dates, ISO timestamps, commit hashes and ordinary URLs survive) while removing
 * e-mails, phone numbers, bearer tokens, API keys of common providers, private keys, JWTs,
 * credentials in URLs, `api_key=…` / `password: …` style assignments, and user-specific URL
 * query strings. Placeholders such as `<your-token>`, `${API_KEY}` or `process.env.X` are kept:
 * they are instructions, not secrets.
 */

export const REDACTED_EMAIL = '[REDACTED_EMAIL]';
export const REDACTED_PHONE = '[REDACTED_PHONE]';
export const REDACTED_TOKEN = '[REDACTED_TOKEN]';

interface Rule {
  readonly name: string;
  readonly pattern: RegExp;
  readonly replace: (match: string, ...groups: string[]) => string;
}

const token = () => REDACTED_TOKEN;

/** Order matters: whole blocks and specific formats first, generic shapes last. */
const RULES: readonly Rule[] = [
  { name: 'private-key', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g, replace: token },
  { name: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: token },
  { name: 'github', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})\b/g, replace: token },
  { name: 'anthropic/openai', pattern: /\bsk-(?:ant-(?:api|admin)\d{2}-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, replace: token },
  { name: 'stripe', pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g, replace: token },
  { name: 'aws-access-key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g, replace: token },
  { name: 'slack', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, replace: token },
  { name: 'slack-webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/g, replace: token },
  { name: 'google', pattern: /\bAIza[0-9A-Za-z_-]{33,}/g, replace: token },
  { name: 'gitlab', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g, replace: token },
  { name: 'npm', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, replace: token },
  { name: 'huggingface', pattern: /\bhf_[A-Za-z0-9]{30,}\b/g, replace: token },
  { name: 'sendgrid', pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, replace: token },
  { name: 'url-query', pattern: /\bhttps?:\/\/[^\s<>"'`)\]]+/g, replace: (url) => redactUrl(url) },
  { name: 'azure-sas', pattern: /\bsig=[A-Za-z0-9%+/=]{20,}/g, replace: () => `sig=${REDACTED_TOKEN}` },
  { name: 'bearer', pattern: /\b(Bearer|Token|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/g, replace: (_m, scheme) => `${scheme} ${REDACTED_TOKEN}` },
  { name: 'url-credentials', pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/:@]+:[^\s/@]+@/gi, replace: (_m, scheme) => `${scheme}${REDACTED_TOKEN}@` },
  {
    name: 'assignment',
    // key = value, key: value, "key": "value", KEY=value (env files); value is the secret.
    pattern: /(\b[A-Za-z0-9_.-]*(?:api[_-]?key|apikey|secret|token|passwd|password|pwd|auth|credential|private[_-]?key|access[_-]?key)[A-Za-z0-9_]*["']?\s*[:=]\s*)(["']?)([^\s"',;]{6,})\2/gi,
    replace: (match, prefix, quote, value) => (isPlaceholder(value) ? match : `${prefix}${quote}${REDACTED_TOKEN}${quote}`),
  },
];

const EMAIL = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g;
const NOT_PERSONAL_EMAIL = /^(git|noreply|no-reply)@/i;

/**
 * Phone numbers: an international `+CC …` number, or a North-American `(555) 123-4567` /
 * `555-123-4567` / `555.123.4567`. Plain digit runs, dates (2024-01-15), versions (1.2.3) and
 * times are deliberately not matched.
 */
const PHONE = /(?<![\w.+/-])(?:\+\d{1,3}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{1,4}(?:[\s.-]?\d{2,4}){2,4}|\(\d{3}\)\s?\d{3}[\s.-]\d{4}|\d{3}[.-]\d{3}[.-]\d{4})(?![\w.-]*\d)/g;

const SENSITIVE_PARAM = /^(?:.*(?:token|key|secret|sig|signature|session|sess|auth|code|password|passwd|pwd|email|mail|user|uid|login|account|credential)|id|state|nonce|x-amz-.*|phone|name)$/i;

/** Redacts `text`; returns it unchanged when nothing matched. */
/** Cheap pre-check: text without any of these cannot match a rule (most skill sentences). */
const MAYBE_SENSITIVE = /[@:=]|\d{3}|\+\d|-----BEGIN|\b(?:gh[pousr]_|github_pat_|sk[-_]|rk_|pk_|xox|AKIA|ASIA|ABIA|ACCA|AIza|eyJ|glpat-|npm_|hf_|SG\.|Bearer|Token|Basic)/;

export function redact(text: string): string {
  if (!text || !MAYBE_SENSITIVE.test(text)) return text;
  let out = text;
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, rule.replace as (substring: string, ...args: unknown[]) => string);
  }
  out = out.replace(EMAIL, (match) => (NOT_PERSONAL_EMAIL.test(match) ? match : REDACTED_EMAIL));
  out = out.replace(PHONE, REDACTED_PHONE);
  return out;
}

/** Strips a URL's query (and fragment) when any parameter looks user-specific. */
function redactUrl(url: string): string {
  const trailing = /[.,;:!?]+$/.exec(url)?.[0] ?? '';
  const core = trailing ? url.slice(0, -trailing.length) : url;
  const queryAt = core.search(/[?#]/);
  if (queryAt < 0) return url;
  const query = core.slice(queryAt + 1);
  const params = query.split(/[&#;]/).filter(Boolean);
  const sensitive = params.some((param) => {
    const [key = '', value = ''] = param.split('=');
    if (SENSITIVE_PARAM.test(decodeSafe(key))) return true;
    const decoded = decodeSafe(value);
    return /@/.test(decoded) || /^[A-Za-z0-9_\-+/=%]{24,}$/.test(value);
  });
  return sensitive ? `${core.slice(0, queryAt)}${trailing}` : url;
}

function decodeSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function isPlaceholder(value: string): boolean {
  return /^(?:<.*>?|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\{\{.*|%[A-Za-z_]+%?|process\.env\..*|os\.environ.*|env\.[A-Za-z_]+|\*+|x{3,}|\.\.\.|…|REDACTED.*|\[REDACTED.*|Bearer|Basic|Token|None|null|undefined|true|false|required|optional|string)$/i.test(value)
    || value.startsWith(REDACTED_TOKEN);
}

/** Redacts each string of a list (keeps the list's length and order: step structure preserved). */
export function redactAll(values: readonly string[]): string[] {
  return values.map(redact);
}
