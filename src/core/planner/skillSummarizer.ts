import type { SkillSummarizer } from '../skills/render/modelSummary';
import type { CancellationSignal, ChatModelPort } from '../platform/chatTypes';

/**
 * `toolshed.skills.summarize`: the request's own model condenses pre-flight skills that did
 * not fit the budget. No tools are offered; only the reply's text is used, and the skill
 * service redacts, gates and measures it before anything reaches the prompt.
 */
export function modelSkillSummarizer(model: ChatModelPort, signal: CancellationSignal): SkillSummarizer {
  return async (text, maxTokens) => {
    const instructions = [
      `Condense the skills below to at most ${maxTokens} tokens of Markdown.`,
      'Keep each skill\'s name as a "### name" heading, when it applies, and its essential steps in order.',
      'Drop background, examples and repetition. Add nothing that is not in the text: no new tools, commands, names or facts.',
      'Reply with the condensed skills only.',
      '',
      text,
    ].join('\n');
    let reply = '';
    for await (const part of model.send([{ role: 'user', parts: [{ kind: 'text', text: instructions }] }], [], signal)) {
      if (signal.isCancelled) throw new Error('cancelled');
      if (part.kind === 'text') reply += part.text;
    }
    return reply;
  };
}
