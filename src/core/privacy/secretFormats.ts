/**
 * Secrets recognisable by their own shape, wherever they stand: provider token formats, key
 * blocks, credentials in URLs (user:password@, query strings, token-like path segments) and
 * passwords passed as command-line flags. Used by `redaction.ts`, which adds the secrets
 * recognisable only by the name they are assigned to.
 *
 * Every pattern is linear: no nested or adjacent overlapping repeats (skill text is
 * author-controlled input).
 */

export const REDACTED_TOKEN = '[REDACTED_TOKEN]';

export interface SecretRule {
  readonly name: string;
  readonly pattern: RegExp;
  readonly replace: (match: string, ...groups: string[]) => string;
}

const token = () => REDACTED_TOKEN;

const AWS_KEY_ID = /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/;

/** Replaces the first non-empty capture (the value) inside the match, keeping the rest. */
function valueOnly(match: string, ...groups: unknown[]): string {
  const value = groups.find((g): g is string => typeof g === 'string' && g.length > 0);
  if (!value) return match;
  const at = match.lastIndexOf(value);
  return `${match.slice(0, at)}${REDACTED_TOKEN}${match.slice(at + value.length)}`;
}

/** Order matters: whole blocks and specific formats first, URL handling after. */
export const SECRET_FORMAT_RULES: readonly SecretRule[] = [
  // Private keys and PGP private blocks or messages; a block cut before its END line is
  // redacted to the end of the text.
  {
    name: 'private-key-block',
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?|PGP MESSAGE)-----[\s\S]*?(?:-----END \1-----|$)/g,
    replace: token,
  },
  // A key body whose BEGIN line is elsewhere (another step, a cut): DER private keys open with a
  // version number right after their length, which certificates and public keys do not.
  {
    name: 'private-key-body',
    pattern:
      /(?<![A-Za-z0-9+/])(?:MII[A-Za-z0-9+/]{2}[AQgw]IBA(?:AK|DAN)|MII[A-Za-z0-9+/]{5}BgkqhkiG9w0BBQ0w|MIG[A-Za-z0-9+/]AgEA|MHcCAQEE|MC4CAQAw|b3BlbnNzaC1rZXktdjE)[A-Za-z0-9+/=]*(?:[ \t]*\r?\n[ \t]*[A-Za-z0-9+/=]{16,})*(?:\s*-----END [A-Z0-9 ]*PRIVATE KEY-----)?/g,
    replace: token,
  },
  { name: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: token },
  { name: 'github', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})\b/g, replace: token },
  { name: 'anthropic/openai', pattern: /\bsk-(?:ant-(?:api|admin)\d{2}-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, replace: token },
  { name: 'stripe', pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g, replace: token },
  // Webhook signing secrets carry their prefix, so they need no "secret:" context.
  { name: 'webhook-signing-secret', pattern: /\bwhsec_[A-Za-z0-9+/=]{20,}/g, replace: token },
  // An AWS secret access key has no prefix of its own: 40 base64 characters, recognised in a
  // text that also holds an access key id (the pair is printed together, often a line apart).
  // Before 'aws-access-key', which replaces the id this rule looks for.
  {
    name: 'aws-secret-beside-key-id',
    pattern: /(?<![A-Za-z0-9+/=])(?=[A-Za-z0-9+/]{0,39}[A-Z])(?=[A-Za-z0-9+/]{0,39}[a-z])(?=[A-Za-z0-9+/]{0,39}\d)[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=])/g,
    replace: (match: string, ...rest: unknown[]) => (AWS_KEY_ID.test(String(rest[rest.length - 1])) ? REDACTED_TOKEN : match),
  },
  { name: 'aws-access-key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g, replace: token },
  { name: 'slack', pattern: /\b(?:xox[abposre](?:\.xox[abpe])?-|xapp-\d-)[A-Za-z0-9-]{10,}/g, replace: token },
  { name: 'slack-webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/g, replace: token },
  { name: 'google', pattern: /\bAIza[0-9A-Za-z_-]{33,}/g, replace: token },
  { name: 'gitlab', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g, replace: token },
  { name: 'npm', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, replace: token },
  { name: 'huggingface', pattern: /\bhf_[A-Za-z0-9]{30,}\b/g, replace: token },
  { name: 'sendgrid', pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, replace: token },
  { name: 'twilio', pattern: /\bSK[0-9a-f]{32}\b/g, replace: token },
  { name: 'mailgun', pattern: /\bkey-[0-9a-f]{32}\b/g, replace: token },
  { name: 'telegram-bot', pattern: /(?<!\d)\d{8,10}:AA[A-Za-z0-9_-]{30,}/g, replace: token },
  { name: 'url', pattern: /\bhttps?:\/\/[^\s<>"'`)\]]+/g, replace: (url) => redactUrl(url) },
  { name: 'azure-sas', pattern: /\bsig=[A-Za-z0-9%+/=]{20,}/g, replace: () => `sig=${REDACTED_TOKEN}` },
  {
    name: 'bearer',
    // The value must look like a credential (a digit or a base64 symbol), so "Basic
    // authentication" stays prose.
    pattern: /\b(Bearer|Token|Basic)\s+(?=[A-Za-z._~+/=-]*[0-9+/=])[A-Za-z0-9._~+/=-]{12,}/g,
    replace: (_m, scheme) => `${scheme} ${REDACTED_TOKEN}`,
  },
  { name: 'url-credentials', pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/:@]+:[^\s/@]+@/gi, replace: (_m, scheme) => `${scheme}${REDACTED_TOKEN}@` },
];

/**
 * Passwords glued to or following a flag: `mysql -pS3cret`, `-p'a b'`, `sshpass -p x`,
 * `redis-cli -a x`. A bare `-p` (prompt for it) and other tools' `-p` flags are left alone.
 * The command and its flag may stand at most 200 characters apart (a bound keeps the scan linear
 * on hostile text), so these run after every other rule: a secret between them ("mysql
 * --password=<long> -pX") is a placeholder by then, and a second redaction finds nothing new.
 */
export const COMMAND_FLAG_RULES: readonly SecretRule[] = [
  {
    name: 'mysql-password-flag',
    pattern:
      /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mysqlpump|mariadb(?:-dump|-admin)?)\b[^\n|;&]{0,200}?\s-p(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))/g,
    replace: valueOnly,
  },
  { name: 'curl-user-flag', pattern: /\bcurl\b[^\n|;&]{0,200}?\s(?:-u|--user)\s*['"]?[^\s:'"]+:([^\s'"]+)/g, replace: valueOnly },
  {
    name: 'registry-login-flag',
    pattern: /\b(?:docker|podman|nerdctl|helm(?:\s+registry)?)\s+login\b[^\n|;&]{0,200}?\s(?:-p|--password)(?:\s+|=)(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))/g,
    replace: valueOnly,
  },
  { name: 'sshpass-flag', pattern: /\bsshpass\s+-p\s*(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))/g, replace: valueOnly },
  { name: 'redis-cli-auth-flag', pattern: /\bredis-cli\b[^\n|;&]{0,200}?\s-a\s+(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))/g, replace: valueOnly },
];

const SENSITIVE_PARAM =
  /^(?:.*(?:token|key|secret|sig|signature|session|sess|auth|code|password|passwd|pwd|email|mail|user|uid|login|account|credential)|id|state|nonce|x-amz-.*|phone|name)$/i;

/** Path segments after which a long mixed segment is a credential (webhook ids, reset links). */
const SECRET_PATH_PARENT =
  /^(?:hooks?|webhooks?|webhookb2|incomingwebhook|services|tokens?|keys?|secrets?|reset|reset-password|password-reset|invite|invites|magic|verify|confirm|activate|unsubscribe|signature|auth|oauth|share|s)$/i;

/**
 * URLs: strips the query (and fragment) when any parameter looks user-specific, and replaces
 * path segments that look like tokens (after a webhook/reset/invite-style segment, or long
 * mixed-case-and-digit runs anywhere).
 */
function redactUrl(url: string): string {
  const trailing = /[.,;:!?]+$/.exec(url)?.[0] ?? '';
  const core = trailing ? url.slice(0, -trailing.length) : url;
  const queryAt = core.search(/[?#]/);
  const base = queryAt < 0 ? core : core.slice(0, queryAt);
  const rest = queryAt < 0 ? '' : core.slice(queryAt);
  const pathStart = base.indexOf('/', base.indexOf('//') + 2);
  const origin = pathStart < 0 ? base : base.slice(0, pathStart);
  const segments = pathStart < 0 ? [] : base.slice(pathStart + 1).split('/');
  let afterSecretParent = false;
  const cleanSegments = segments.map((segment) => {
    const secret = (afterSecretParent && segment.length >= 16 && /\d/.test(segment) && /[A-Za-z]/.test(segment)) || looksLikeToken(segment);
    if (SECRET_PATH_PARENT.test(segment)) afterSecretParent = true;
    return secret ? REDACTED_TOKEN : segment;
  });
  const cleanBase = segments.length ? `${origin}/${cleanSegments.join('/')}` : origin;
  if (!rest) return `${cleanBase}${trailing}`;
  const params = rest.slice(1).split(/[&#;]/).filter(Boolean);
  const sensitive = params.some((param) => {
    const [key = '', value = ''] = param.split('=');
    if (SENSITIVE_PARAM.test(decodeSafe(key))) return true;
    const decoded = decodeSafe(value);
    return /@/.test(decoded) || /^[A-Za-z0-9_\-+/=%]{24,}$/.test(value);
  });
  return sensitive ? `${cleanBase}${trailing}` : `${cleanBase}${rest}${trailing}`;
}

/** A long run of upper case, lower case and digits with no word structure: a key, not a slug. */
export function looksLikeToken(text: string): boolean {
  if (text.length < 32 || !/^[A-Za-z0-9_\-+/=.~%]+$/.test(text)) return false;
  if (!/[A-Z]/.test(text) || !/[a-z]/.test(text) || !/\d/.test(text)) return false;
  // Slugs and identifiers switch case at word starts; tokens switch case constantly.
  const switches = text.match(/[a-z][A-Z]|[A-Z]{2}[a-z]|\d[A-Za-z]|[A-Za-z]\d/g)?.length ?? 0;
  return switches >= text.length / 6;
}

function decodeSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
