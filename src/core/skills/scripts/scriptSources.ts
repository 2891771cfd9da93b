import type { SkillRecord } from '../skillSchema';
import type { SkillTreePack } from '../skillTree';
import type { SkillScriptSource } from './scriptDiscovery';

/** What listing the script sources reads of the skill service. */
interface ScriptSkillLookup {
  listPacks(): SkillTreePack[];
  inspect(name: string): SkillRecord | undefined;
}

/**
 * The SKILL.md skills whose `scripts/` are offered as tools: active ones that have scripts and
 * are not retired in this workspace (`retired`: the ledger's names). Retired means out of use,
 * scripts included: a script that is not offered cannot be found by `tool_search` nor run.
 */
export function scriptSourcesOf(skills: ScriptSkillLookup, retired: ReadonlySet<string>): SkillScriptSource[] {
  const sources: SkillScriptSource[] = [];
  for (const pack of skills.listPacks()) {
    for (const item of pack.skills) {
      if (item.format !== 'skill-md' || item.status !== 'active' || retired.has(item.name)) continue;
      const record = skills.inspect(item.name);
      if (!record || !record.resources.some((resource) => resource.startsWith('scripts/'))) continue;
      sources.push({
        skillName: record.name,
        skillFile: record.source_file,
        allowedTools: record.allowed_tools,
        requires: record.requires,
        scriptsFrontmatter: record.meta.scripts,
      });
    }
  }
  return sources;
}
