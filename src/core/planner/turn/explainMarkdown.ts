import type { SkillsExplanation, ToolsExplanation, TurnExplanation } from './turnExplanation';

/**
 * Explain Last Turn as Markdown: `/why`, the Explain Last Turn command and
 * `toolshed preflight … --explain` render the same sections. Names and text come from a
 * TurnExplanation, already redacted and gated, but many were written by a model (a tool call's
 * name, the selection model's answer) or a pack: each is data, one inert piece of its line. Line
 * breaks become spaces (a blank line then "# …" would open a heading), a name sits in a code span
 * it cannot leave (backticks stripped), and other text has Markdown's punctuation escaped (no
 * "[x](command:…)" or "<command:…>" link, no HTML, no emphasis).
 */

/** Line breaks, tabs and other control or separator characters, run together. */
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}\s]+/gu;
/**
 * The ASCII punctuation that gives Markdown a meaning in the middle of a line: emphasis, code,
 * link and image brackets, autolinks and HTML (CommonMark lets any of it be backslash-escaped).
 * Without `[` or `<` no link can form, so parentheses stay as written.
 */
const MARKDOWN_PUNCTUATION = /[\\`*_[\]<>#|~]/g;

const oneLine = (text: string) => text.replace(BREAKS, ' ').trim();
const code = (name: string) => `\`${oneLine(name.replace(/`/g, '')) || ' '}\``;
/** Text from a model, a pack or the request, as inert prose. */
const plain = (text: string) => oneLine(text).replace(MARKDOWN_PUNCTUATION, '\\$&');
const fixed = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(2));
const number = (value: number) => value.toLocaleString('en-US');

export function skillsSection(skills: SkillsExplanation): string[] {
  const lines = ['### Skills'];
  if (!skills.enabled) return [...lines, 'Skills are off (`toolshed.skills.enabled`): none was searched or injected.'];
  const gate =
    skills.minRelevance > 0
      ? `relevance ≥ ${fixed(skills.minRelevance)} (\`toolshed.skills.minRelevance\`) and ≥ ${skills.relativeCut} × the best candidate's`
      : 'no relevance gate (`toolshed.skills.minRelevance` is 0)';
  lines.push(`Selection \`${skills.selection}\`, at most ${skills.maxActive} active (\`toolshed.skills.maxActive\`); the gate: ${gate}.`);
  if (!skills.workspaceSkills) lines.push('Restricted Mode: skills from this workspace were not searched or injected (workspace trust).');
  lines.push('');
  if (skills.candidates.length === 0) lines.push('No skill matched the request.');
  for (const candidate of skills.candidates)
    lines.push(`- ${candidate.injected ? '✅' : '▫️'} ${code(candidate.name)} — ${fixed(candidate.relevance)} — ${plain(candidate.decision)}`);
  if (skills.pinned.length) {
    lines.push('', 'Pinned:');
    for (const pin of skills.pinned) lines.push(`- 📌 ${code(pin.name)} — ${plain(pin.decision)}`);
  }
  const model = skills.model;
  if (model) {
    lines.push('');
    if (model.asked) {
      const chose = model.chose.length ? model.chose.map(code).join(', ') : 'none';
      lines.push(
        model.fallback
          ? `A model${model.name ? ` (${plain(model.name)})` : ''} was asked to choose; its answer was not used: ${plain(model.fallback)}.`
          : `A model${model.name ? ` (${plain(model.name)})` : ''} was asked to choose and chose: ${chose}.`,
      );
    } else
      lines.push(model.wouldAsk ? 'A model would have been asked to choose, but none was available.' : 'No model was asked: the search answer was confident.');
  }
  if (skills.note) lines.push('', plain(skills.note));
  return lines;
}

export function toolsSection(tools: ToolsExplanation): string[] {
  const lines = ['### Tools before the first round'];
  if (tools.restricted) lines.push('Restricted Mode: no tool runs, so none was activated before the first round (workspace trust).');
  else if (tools.preActivateTools <= 0) lines.push('Pre-activation is off (`toolshed.toolSearch.preActivateTools` is 0).');
  else {
    const gate =
      tools.minRelevance > 0
        ? `relevance ≥ ${fixed(tools.minRelevance)} (\`toolshed.toolSearch.minRelevance\`) and ≥ ${tools.relativeCut} × the best candidate's`
        : 'no relevance gate (`toolshed.toolSearch.minRelevance` is 0)';
    lines.push(
      `At most ${tools.preActivateTools} (\`toolshed.toolSearch.preActivateTools\`); the gate: ${gate}. Tools the policy denies are never candidates.`,
    );
    lines.push('');
    if (tools.candidates.length === 0) lines.push('No deferred tool matched the request.');
    for (const tool of tools.candidates) {
      const flag = tool.flagged ? ` ⚠️ looks stuffed (${plain(tool.flagged)})` : '';
      const words = tool.matchedTerms?.length ? ` (matched: ${plain(tool.matchedTerms.join(', '))})` : '';
      lines.push(`- ${tool.activated ? '✅' : '▫️'} ${code(tool.name)} — ${fixed(tool.relevance)}${words} — ${plain(tool.decision)}${flag}`);
    }
  }
  if (tools.fromSkills.length) lines.push('', `Activated because an injected skill names them: ${tools.fromSkills.map(code).join(', ')}.`);
  if (tools.deferral) lines.push('', `Tool search: ${plain(tools.deferral)}.`);
  if (tools.hidden.length) lines.push(`Not offered in @toolshed: ${tools.hidden.map(code).join(', ')}.`);
  return lines;
}

function roundsSection(explanation: TurnExplanation): string[] {
  const lines = ['### What each round sent'];
  explanation.rounds.forEach((round, i) => {
    const names = round.toolsSent.length > 12 ? `${round.toolsSent.slice(0, 12).map(code).join(', ')}, …` : round.toolsSent.map(code).join(', ');
    const calls = round.calls.length
      ? `; the model called ${round.calls.map((call) => `${code(call.name)} (${call.outcome})`).join(', ')}`
      : '; the model answered';
    lines.push(`${i + 1}. ${round.toolsSent.length} tools (${number(round.definitionTokens)} tokens): ${names || '—'}${calls}`);
  });
  const t = explanation.tokens;
  lines.push(
    '',
    `Prompt blocks ${number(t.promptBlocks)} tokens (injected skills ${number(t.injectedSkills)}); tool definitions ${number(t.toolDefinitions)} tokens over the turn (all tools every round: ${number(t.allToolDefinitions)})${t.selection ? `; choosing the skills ${number(t.selection)}` : ''}.`,
  );
  if (explanation.stoppedBecause !== 'done')
    lines.push(`The turn stopped early: ${explanation.stoppedBecause === 'maxRounds' ? 'the round cap' : 'cancelled'}.`);
  return lines;
}

/** The whole explanation of one turn. */
export function explainTurnMarkdown(explanation: TurnExplanation): string {
  return [
    `**Why the last @toolshed turn used what it used** — "${plain(explanation.request)}"`,
    '',
    ...skillsSection(explanation.skills),
    '',
    ...toolsSection(explanation.tools),
    '',
    ...roundsSection(explanation),
  ].join('\n');
}
