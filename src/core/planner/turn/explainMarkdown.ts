import type { SkillsExplanation, ToolsExplanation, TurnExplanation } from './turnExplanation';

/**
 * Explain Last Turn as Markdown: `/why`, the Explain Last Turn command and
 * `toolshed preflight … --explain` render the same sections. Names and text come from a
 * TurnExplanation, already redacted and gated; backticks in names are stripped so a name cannot
 * break out of its code span.
 */

const code = (name: string) => `\`${name.replace(/`/g, '')}\``;
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
    lines.push(`- ${candidate.injected ? '✅' : '▫️'} ${code(candidate.name)} — ${fixed(candidate.relevance)} — ${candidate.decision}`);
  if (skills.pinned.length) {
    lines.push('', 'Pinned:');
    for (const pin of skills.pinned) lines.push(`- 📌 ${code(pin.name)} — ${pin.decision}`);
  }
  const model = skills.model;
  if (model) {
    lines.push('');
    if (model.asked) {
      const chose = model.chose.length ? model.chose.map(code).join(', ') : 'none';
      lines.push(
        model.fallback
          ? `A model${model.name ? ` (${model.name})` : ''} was asked to choose; its answer was not used: ${model.fallback}.`
          : `A model${model.name ? ` (${model.name})` : ''} was asked to choose and chose: ${chose}.`,
      );
    } else
      lines.push(model.wouldAsk ? 'A model would have been asked to choose, but none was available.' : 'No model was asked: the search answer was confident.');
  }
  if (skills.note) lines.push('', skills.note);
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
      const flag = tool.flagged ? ` ⚠️ looks stuffed (${tool.flagged})` : '';
      const words = tool.matchedTerms?.length ? ` (matched: ${tool.matchedTerms.join(', ')})` : '';
      lines.push(`- ${tool.activated ? '✅' : '▫️'} ${code(tool.name)} — ${fixed(tool.relevance)}${words} — ${tool.decision}${flag}`);
    }
  }
  if (tools.fromSkills.length) lines.push('', `Activated because an injected skill names them: ${tools.fromSkills.map(code).join(', ')}.`);
  if (tools.deferral) lines.push('', `Tool search: ${tools.deferral}.`);
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
    `**Why the last @toolshed turn used what it used** — "${explanation.request.replace(/\s+/g, ' ')}"`,
    '',
    ...skillsSection(explanation.skills),
    '',
    ...toolsSection(explanation.tools),
    '',
    ...roundsSection(explanation),
  ].join('\n');
}
