/**
 * One request through @toolshed's pre-flight in `hybrid` mode, exactly as the planner builds it
 * (skillPreflight, the function the turn calls → preflight), with an oracle selection model: when
 * asked, it picks the right skills among those it was offered and nothing else, so the counts
 * measure what the code decides and offers, not how good a real model is.
 */
import { skillsConfigSchema } from '../src/core/config/settingsSchema';
import type { ChatModelPort } from '../src/core/platform/chatTypes';
import { skillPreflight } from '../src/core/planner/turn/skillPreflight';
import type { SkillService } from '../src/core/skills/skillService';

export interface PreflightTurn {
  /** Names of the skills pre-flight injected. */
  injected: string[];
  /** Names the selection model was offered (over every selection request of the turn). */
  offered: string[];
  selectionRequests: number;
}

const countTokens = async (text: string) => Math.ceil(text.length / 4);

/** `rightNames`: the names (as loaded) of the skills that serve the request. */
export async function hybridPreflight(service: SkillService, request: string, rightNames: ReadonlySet<string>): Promise<PreflightTurn> {
  const settings = skillsConfigSchema.parse({ selection: 'hybrid' });
  const offered: string[] = [];
  let selectionRequests = 0;
  const oracle: ChatModelPort = {
    async *send(messages) {
      selectionRequests++;
      const part = messages[0]?.parts[0];
      const prompt = part?.kind === 'text' ? part.text : '';
      const names = [...prompt.matchAll(/^- ([^:\n]+):/gm)].map((m) => m[1] as string);
      offered.push(...names);
      yield { kind: 'text', text: JSON.stringify({ skills: names.filter((n) => rightNames.has(n)).slice(0, settings.maxActive) }) };
    },
    countTokens,
  };
  const port = skillPreflight(service, { includeWorkspacePacks: true }, settings, {
    pinnedNames: [],
    countTokens,
    chooser: { model: oracle },
    signal: { isCancelled: false },
  });
  const result = await port.preflight(request);
  return { injected: result.used.map((u) => u.name), offered, selectionRequests };
}
