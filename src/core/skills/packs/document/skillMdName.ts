import { AGENT_SKILL_NAME_PATTERN, normalizeAgentSkillName } from '../../skillSchema';
import { parentFolderName } from './documentValues';
import { PROBLEM_CODES } from './skillProblems';
import type { ProblemCode } from './skillProblems';

/** Names of SKILL.md skills up to the store's limit load as written (over 64 characters: a warning). */
const STORE_NAME_MAX = 128;

/**
 * The name a SKILL.md skill loads under (docs/skills.md, "Names that do not follow the rule"):
 * - a name that follows agentskills.io's rule, as written;
 * - any other name (capitals, spaces, `_`, `.`, a number) normalized by `normalizeAgentSkillName`;
 * - no name, or one with nothing left after normalizing (another script): the folder's name,
 *   normalized — what other agents load such a skill as.
 * `how` says which; `undefined` name: nothing usable (the schema's error stands).
 */
export function skillMdName(value: unknown, file: string): { name: string | undefined; how: 'as-written' | 'normalized' | 'folder' | 'none' } {
  const written = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  if (written === undefined && value !== undefined) return { name: undefined, how: 'none' };
  if (written !== undefined && AGENT_SKILL_NAME_PATTERN.test(written) && written.length <= STORE_NAME_MAX) return { name: written, how: 'as-written' };
  const normalized = written === undefined ? '' : normalizeAgentSkillName(written);
  if (normalized) return { name: normalized, how: 'normalized' };
  const folder = normalizeAgentSkillName(parentFolderName(file) ?? '');
  return folder ? { name: folder, how: 'folder' } : { name: undefined, how: 'none' };
}

/** The warning when a SKILL.md skill loads under a name other than the one written: which name, and the rule. */
export function loadedNameProblem(
  name: string,
  written: unknown,
  how: ReturnType<typeof skillMdName>['how'],
): { code: ProblemCode; message: string } | undefined {
  if (how === 'as-written' || how === 'none') return undefined;
  if (written === undefined) {
    return {
      code: PROBLEM_CODES.missingName,
      message: `\`name\`: missing; the skill loads under its folder's name \`${name}\`. Add \`name: ${name}\` (agentskills.io requires it).`,
    };
  }
  const shown = String(written).slice(0, 80);
  return {
    code: PROBLEM_CODES.invalidName,
    message:
      how === 'folder'
        ? `\`name\`: \`${shown}\` has no letter or digit that agentskills.io names allow (a–z, 0–9); the skill loads under its folder's name \`${name}\`.`
        : `\`name\`: \`${shown}\` does not follow the agentskills.io rule (1–64 lowercase letters, digits and single hyphens); the skill loads as \`${name}\`. Change the name to \`${name}\`.`,
  };
}
