import type { z } from 'zod';
import { describeExpected, parentFolderName } from './documentValues';
import { PROBLEM_CODES } from './skillProblems';
import type { ProblemCode, ProblemSeverity } from './skillProblems';

/**
 * Fields whose length limit is advice, not validity (agentskills.io and our own): a longer value
 * loads with a warning and is shortened when rendered. VS Code and Claude load such skills too.
 */
const SOFT_LENGTH_KEYS = new Set(['description', 'title', 'trigger', 'compatibility']);
/** SKILL.md names over agentskills' 64 characters still fit the store's 128-character names. */
const SOFT_NAME_LENGTH = 128;

export interface SchemaIssueProblem {
  severity: ProblemSeverity;
  code: ProblemCode;
  message: string;
  /** The top-level field the issue is about. */
  key: string;
  path: PropertyKey[];
  /** The field is absent (the problem points at the skill, not at a value). */
  missing: boolean;
}

/**
 * A schema issue (zod) on a skill's fields as the problem a person reads: which field, what to
 * write instead, and whether it stops the skill from loading (over-long advisory text does not).
 */
export function schemaIssueProblem(issue: z.core.$ZodIssue, raw: Record<string, unknown>, skillMd: boolean, file: string): SchemaIssueProblem {
  const path = issue.path as PropertyKey[];
  const key = String(path[0] ?? '');
  const missing = path.length === 1 && raw[key] === undefined;
  let code: ProblemCode = PROBLEM_CODES.invalidValue;
  let message = `\`${path.map(String).join('.')}\`: ${issue.message}`;
  if (key === 'steps' && (missing || (issue.code === 'too_small' && path.length === 1))) {
    code = PROBLEM_CODES.missingSteps;
    message = '`steps`: add `steps:` — a non-empty list of strings, one instruction per entry.';
  } else if (missing && key === 'name') {
    code = PROBLEM_CODES.missingName;
    message = `\`name\`: required in SKILL.md${parentFolderName(file) ? ` (use the folder name \`${parentFolderName(file)}\`)` : ''}.`;
  } else if (key === 'description' && skillMd && (missing || issue.code === 'too_small')) {
    code = PROBLEM_CODES.missingDescription;
    message = '`description`: required in SKILL.md — say what the skill does and when to use it (≤ 1024 characters).';
  } else if (issue.code === 'invalid_type' || issue.code === 'invalid_union') {
    code = PROBLEM_CODES.wrongType;
    message = `\`${path.map(String).join('.')}\`: ${describeExpected(key)}`;
  } else if (key === 'name') {
    code = issue.code === 'too_big' ? PROBLEM_CODES.tooLong : PROBLEM_CODES.invalidName;
  } else if (issue.code === 'too_big') {
    code = PROBLEM_CODES.tooLong;
  }
  if (code === PROBLEM_CODES.tooLong && path.length === 1 && isSoftLength(key, raw[key])) {
    return { severity: 'warning', code, message: `${message}; the skill loads, and the text is shortened where prompts have a budget.`, key, path, missing };
  }
  return { severity: 'error', code, message, key, path, missing };
}

/** Over-long text that still loads (SOFT_LENGTH_KEYS; SKILL.md names up to the store's limit). */
function isSoftLength(key: string, value: unknown): boolean {
  if (SOFT_LENGTH_KEYS.has(key)) return true;
  return key === 'name' && typeof value === 'string' && value.length <= SOFT_NAME_LENGTH;
}
