import type { TokenCounter } from '../../platform/ports';
import { closeTag, openTag } from '../../privacy/promptBlocks';
import { renderSkillMarkdown, viewAt } from './skillRendering';
import type { ReSafe, SafeSkill } from './skillRendering';

/**
 * The optional second stage of pre-flight compression (`toolshed.skills.summarize`):
 * when structured compression had to drop fields, skills or text, a model may condense the
 * full (already redacted and gated) text instead. Its answer is untrusted: it is redacted and
 * gated again, must be non-empty and must fit the same budget — otherwise the structured
 * result stands.
 */

/** Condenses `text` to at most `maxTokens` tokens; may throw (callers fall back). */
export type SkillSummarizer = (text: string, maxTokens: number) => Promise<string>;

const SUMMARY_WRAPPER = {
  open: `${openTag('skills')}\nSkills relevant to this request, condensed to fit (follow them when they apply; use skill_get for the full text):\n`,
  close: `\n${closeTag('skills')}`,
};

export interface SummaryResult {
  text: string;
  tokens: number;
}

/** The model's summary within `budget`, or undefined whenever it cannot be used. */
export async function summarizeWithinBudget(
  skills: readonly SafeSkill[],
  budget: number,
  counter: TokenCounter,
  summarize: SkillSummarizer,
  reSafe: ReSafe,
): Promise<SummaryResult | undefined> {
  if (skills.length === 0) return undefined;
  const overhead = await counter.count(`${SUMMARY_WRAPPER.open}${SUMMARY_WRAPPER.close}`);
  const room = budget - overhead;
  if (room < 20) return undefined;
  const full = skills.map((skill) => renderSkillMarkdown(viewAt(skill, 0))).join('\n\n');
  let answer: string;
  try {
    answer = await summarize(full, room);
  } catch {
    return undefined;
  }
  const body = reSafe(String(answer ?? '').trim());
  if (!body) return undefined;
  const text = `${SUMMARY_WRAPPER.open}${body}${SUMMARY_WRAPPER.close}`;
  const tokens = await counter.count(text);
  return tokens <= budget ? { text, tokens } : undefined;
}
