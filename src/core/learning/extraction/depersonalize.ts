import { redact, REDACTED_TOKEN } from '../../privacy/redaction';
import { neutralizeBlockTags } from '../../privacy/promptBlocks';

/**
 * Depersonalization of trajectory text (on top of docs/contracts.md#redaction): after the
 * shared redaction (secrets, e-mails, phones, tokens, URL credentials and user-specific queries)
 * it removes what identifies this user or machine — workspace roots become relative paths, other
 * absolute paths `<path>`, the user name `<user>`, values that look like ids `<id>` — so a learned
 * skill says what to do, never whose data it was done with. Tags of Toolshed's prompt blocks in
 * the text (a tool error saying `</skill_warnings>`) are neutralised, so a stored lesson is inert.
 */

export interface PersonalContext {
  /** Absolute workspace folders (their paths become relative). */
  workspaceRoots: readonly string[];
  homeDir?: string;
  userName?: string;
}

const PATH_PLACEHOLDER = '<path>';
const USER_PLACEHOLDER = '<user>';
const ID_PLACEHOLDER = '<id>';

const UNIX_ABSOLUTE = /(?<![\w.:/~-])\/(?:[\w.@%+=-]+\/)+[\w.@%+=-]*/g;
const WINDOWS_ABSOLUTE = /\b[A-Za-z]:[\\/](?:[^\s"'<>|\\/]+[\\/])*[^\s"'<>|\\/]*/g;
const HOME_RELATIVE = /(?<![\w])~[\\/][^\s"'<>|]*/g;
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
/** Long hex with at least one digit and one letter (hashes, object ids), long digit runs. */
const HEX_ID = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{12,}\b/gi;
const DIGIT_ID = /\b\d{6,}\b/g;
/** Prose around a secret ("using token X", "the password is X"): the word after the cue is the secret. */
const CUE = 'password|passwd|passphrase|pass|token|secret|api[ _-]?key|access[ _-]?key|pin';
const SECRET_AFTER_CUE = new RegExp(`\\b(${CUE})((?:\\s+(?:is|was|(?:${CUE})))*\\s+|\\s*[:=]\\s*)(?!\\[REDACTED)(?!<)([^\\s"',;]{6,})`, 'gi');

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function normalizeRoot(root: string): string {
  return root.replace(/[\\/]+$/, '');
}

export function depersonalize(text: string, personal: PersonalContext): string {
  if (!text) return text;
  let out = redact(text).replace(SECRET_AFTER_CUE, (_m, cue: string, gap: string) => `${cue}${gap}${REDACTED_TOKEN}`);
  out = out.replace(URL_USERINFO, (_m, scheme: string) => scheme);
  // Longest roots first so a nested folder wins over its parent.
  const roots = [...personal.workspaceRoots]
    .map(normalizeRoot)
    .filter((r) => r.length > 1)
    .sort((a, b) => b.length - a.length);
  for (const root of roots) {
    const pattern = new RegExp(`${escapeRegex(root)}(?:[\\\\/]([^\\s"'<>|]*))?`, 'g');
    out = out.replace(pattern, (_m, rest: string | undefined) => (rest ? rest.replace(/\\/g, '/') : '.'));
  }
  if (personal.homeDir && normalizeRoot(personal.homeDir).length > 1) {
    out = out.replace(new RegExp(`${escapeRegex(normalizeRoot(personal.homeDir))}(?:[\\\\/][^\\s"'<>|]*)?`, 'g'), PATH_PLACEHOLDER);
  }
  out = out.replace(WINDOWS_ABSOLUTE, PATH_PLACEHOLDER).replace(UNIX_ABSOLUTE, PATH_PLACEHOLDER).replace(HOME_RELATIVE, PATH_PLACEHOLDER);
  if (personal.userName && personal.userName.length >= 3) {
    out = out.replace(new RegExp(`(?<![A-Za-z0-9])${escapeRegex(personal.userName)}(?![A-Za-z0-9])`, 'gi'), USER_PLACEHOLDER);
  }
  return neutralizeBlockTags(out.replace(UUID, ID_PLACEHOLDER).replace(HEX_ID, ID_PLACEHOLDER).replace(DIGIT_ID, ID_PLACEHOLDER));
}

/** Workspace-relative file paths a text mentions (after depersonalization): `src/a.ts`, `README.md`. */
export function mentionedFiles(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?<![\w<>/.-])((?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7})(?![\w/])/g)) {
    const candidate = match[1] as string;
    if (candidate.includes('/') || /\.(?:md|ts|js|json|ya?ml|py|go|rs|java|tsx|jsx|toml|txt)$/i.test(candidate)) {
      if (!/^\d+(\.\d+)+$/.test(candidate) && !candidate.startsWith('..')) found.add(candidate);
    }
  }
  return [...found].slice(0, 20);
}
