import type { SkillRecord } from '../skillSchema';
import type { SkillScriptSource } from './scriptDiscovery';

/** What listing the script sources reads of the skill service. */
interface ScriptSkillLookup {
  /** Names of the SKILL.md skills whose stored resources hold a `scripts/` file (`SkillService.skillsWithScripts`). */
  skillsWithScripts(): string[];
  inspect(name: string): SkillRecord | undefined;
}

/**
 * The SKILL.md skills whose `scripts/` are offered as tools: active ones that have scripts and
 * are not retired in this workspace (`retired`: the ledger's names). Retired means out of use,
 * scripts included: a script that is not offered cannot be found by `tool_search` nor run.
 */
export function scriptSourcesOf(skills: ScriptSkillLookup, retired: ReadonlySet<string>): SkillScriptSource[] {
  const sources: SkillScriptSource[] = [];
  // Only the few skills with scripts are read: a library's others (most) cost nothing here.
  for (const name of skills.skillsWithScripts()) {
    if (retired.has(name)) continue;
    const record = skills.inspect(name);
    if (!record || record.format !== 'skill-md' || record.status !== 'active') continue;
    if (!record.resources.some((resource) => resource.startsWith('scripts/'))) continue;
    sources.push({
      skillName: record.name,
      skillFile: record.source_file,
      allowedTools: record.allowed_tools,
      requires: record.requires,
      scriptsFrontmatter: record.meta.scripts,
    });
  }
  return sources;
}
