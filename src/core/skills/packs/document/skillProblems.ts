/**
 * Problems found in skill files and packs. Each carries an exact 1-based position so the CLI can
 * print `file:line:col: severity: message` and the editor can underline the offending key or
 * value; `code` is stable so quick fixes can key on it.
 */

export const PROBLEM_CODES = {
  /** YAML/JSON syntax error (message from the parser). */
  parseError: 'parse-error',
  /** The same key twice in one mapping. */
  duplicateKey: 'duplicate-key',
  /** `*.skill.md` / `SKILL.md` without a leading `---` frontmatter block. */
  missingFrontmatter: 'missing-frontmatter',
  /** Frontmatter opened but never closed. */
  unterminatedFrontmatter: 'unterminated-frontmatter',
  /** The document (or frontmatter) is not a mapping of fields. */
  notAMapping: 'not-a-mapping',
  emptyFile: 'empty-file',
  wrongType: 'wrong-type',
  invalidValue: 'invalid-value',
  tooLong: 'too-long',
  missingTrigger: 'missing-trigger',
  missingSteps: 'missing-steps',
  missingBody: 'missing-body',
  missingName: 'missing-name',
  missingDescription: 'missing-description',
  invalidName: 'invalid-name',
  nameMismatchFolder: 'name-mismatch-folder',
  unknownField: 'unknown-field',
  duplicateName: 'duplicate-name',
  /** A learned skill of that name exists; pack skills never overwrite learned ones. */
  shadowedByLearned: 'shadowed-by-learned',
  fileTooLarge: 'file-too-large',
  /** A skill or a file holds more than its bound once YAML aliases are expanded. */
  expandedTooLarge: 'expanded-too-large',
  binaryFile: 'binary-file',
  invalidEncoding: 'invalid-encoding',
  unreadableFile: 'unreadable-file',
  symlinkSkipped: 'symlink-skipped',
  pathOutsidePack: 'path-outside-pack',
  packNotFound: 'pack-not-found',
  tooManyFiles: 'too-many-files',
  /** A `#` cut a plain YAML value mid-sentence (the rest became a comment); fix: quote it. */
  midLineComment: 'mid-line-comment',
  /** More problems than a file's list holds; the rest are counted, not listed. */
  tooManyProblems: 'too-many-problems',
  /** Parsing one file took longer than its time budget and stopped. */
  parseBudgetExceeded: 'parse-budget-exceeded',
  /** The file parses but defines nothing (`~`, `null`, `[]`, only comments). */
  noSkills: 'no-skills',
  /** A skill file that is not a regular file (FIFO, socket, device): never opened. */
  notARegularFile: 'not-a-regular-file',
  /** A folder deeper than the scan depth: its skill files are not loaded. */
  tooDeep: 'too-deep',
  /** A very large JSON file: problems point at the file start (no exact positions). */
  positionsSkipped: 'positions-skipped',
  /** Writing a parsed file to the store failed; that file alone is skipped. */
  loadFailed: 'load-failed',
  /** YAML the parser read past (an unknown tag, a `%YAML`/`%TAG` directive): loaded leniently, with this warning. */
  yamlIgnored: 'yaml-ignored',
  /** A skill script the editor warns about too (a link, a risky pattern, a listed file that is missing…): scriptDiscovery.ts. */
  scriptProblem: 'script-problem',
  /** Required environment variables are missing: the skill loads but is inactive. */
  missingRequirement: 'missing-requirement',
} as const;

export type ProblemCode = (typeof PROBLEM_CODES)[keyof typeof PROBLEM_CODES];
export type ProblemSeverity = 'error' | 'warning' | 'info';

export interface SkillProblem {
  readonly code: ProblemCode;
  readonly severity: ProblemSeverity;
  readonly message: string;
  /** The file as given to the parser/loader (absolute in packs). */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  /** The skill the problem belongs to, when known. */
  readonly skillName?: string;
  /** Data for quick fixes, e.g. `{ key, suggestion }` for unknown-field, `{ expected }` for name-mismatch-folder. */
  readonly data?: Readonly<Record<string, unknown>>;
}

export interface Span {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export const FILE_START: Span = { line: 1, column: 1, endLine: 1, endColumn: 1 };

export function makeProblem(
  file: string,
  span: Span,
  severity: ProblemSeverity,
  code: ProblemCode,
  message: string,
  extra: { skillName?: string; data?: Record<string, unknown> } = {},
): SkillProblem {
  return { code, severity, message, file, ...span, ...extra };
}

/** `file:line:col: severity: message [code]` — the compiler-style line `toolshed validate` prints. */
export function formatProblem(problem: SkillProblem): string {
  return `${problem.file}:${problem.line}:${problem.column}: ${problem.severity}: ${problem.message} [${problem.code}]`;
}

export function compareProblems(a: SkillProblem, b: SkillProblem): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column;
}
