import { expandedChars } from './yamlStructure';

/**
 * What a skill, and a file, may hold after parsing. Without aliases a file holds no more than
 * it is long (the 1 MiB file cap); with them an 800 KB file referencing one long string 49 times
 * expands to 39 MB, all of which would be indexed and kept in memory on every reload. Past
 * either bound the file loads no skill.
 */
export const DEFAULT_MAX_SKILL_CHARS = 512 * 1024;
export const DEFAULT_MAX_EXPANDED_FILE_CHARS = 1024 * 1024;

interface ExpandedOverflow {
  /** The field at which the bound was passed. */
  key: string;
  limit: number;
  message: string;
}

/** Counts, skill by skill, what one file's skills hold once aliases are expanded. */
export class ExpandedSizeBudget {
  /** A skill passed a bound: the file loads no skill. */
  exceeded = false;
  private used = 0;

  constructor(
    private readonly skillLimit: number,
    private readonly fileLimit: number,
  ) {}

  /**
   * Adds one skill's fields (counted field by field, each walk stopping at the room left) and
   * returns where it passed the skill's or the file's bound, or undefined when it fits.
   */
  add(fields: ReadonlyArray<readonly [string, unknown]>): ExpandedOverflow | undefined {
    let skillChars = 0;
    for (const [key, value] of fields) {
      const room = Math.max(0, Math.min(this.skillLimit - skillChars, this.fileLimit - this.used - skillChars));
      skillChars += key.length + expandedChars(value, room);
      const overSkill = skillChars > this.skillLimit;
      if (!overSkill && this.used + skillChars <= this.fileLimit) continue;
      this.exceeded = true;
      const n = (v: number) => v.toLocaleString('en-US');
      const what = overSkill
        ? `this skill holds more than ${n(this.skillLimit)} characters`
        : `the skills of this file hold more than ${n(this.fileLimit)} characters together`;
      return {
        key,
        limit: overSkill ? this.skillLimit : this.fileLimit,
        message: `Too large once YAML aliases are expanded: with \`${key}\`, ${what} (a skill may hold ${n(this.skillLimit)}, a file ${n(this.fileLimit)}). No skill from this file is loaded. Write the text once instead of repeating it through aliases, or split the file.`,
      };
    }
    this.used += skillChars;
    return undefined;
  }
}
