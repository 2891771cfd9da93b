import * as vscode from 'vscode';
import { SKILL_SEARCH_TOOL_NAME } from '../../core/platform/toolNames';
import type { ToolshedServices } from '../services';
import type { SkillService } from '../../core/skills/skillService';
import { describeToolInputError } from '../../core/schema/zodSchemas';
import { hiddenSkillReason, MANAGE_TRUST_COMMAND, restrictedModeLine } from '../../core/trust/restrictedMode';
import { unusedWorkspaceSkills } from '../skills/unusedWorkspaceSkills';
import type { TurnSession } from './turnSession';
import { hiddenFromLoop } from '../../core/planner/turn/hiddenFromLoop';
import { describeDeferral } from '../../core/tools/modes/deferralDecision';
import { nativeSkillsLine } from '../../core/skills/packs/nativeAgentSkills';
import { countUncatalogued, deferredHeading, sentListHeading } from '../../core/tools/modes/toolsReport';

/** What `/skills` and `/skill` use: pack loading, skill queries and their context, pins, VS Code's own agent skills. */
type SkillCommandServices = Pick<ToolshedServices, 'skillPacks' | 'skills' | 'skillContext' | 'pinned' | 'nativeSkills'>;

/** What `/tools` and `/search` use: the tool catalog and search, tool modes, settings; `/search` finds skills too. */
type ToolCommandServices = Pick<
  ToolshedServices,
  'syncToolCatalog' | 'settings' | 'toolModes' | 'tools' | 'toolVisibility' | 'skillPacks' | 'skills' | 'skillContext' | 'turnExplanations'
>;

/** What the slash commands use of the services, together. */
export type SlashCommandServices = SkillCommandServices & ToolCommandServices;

/** Session id for `/search` (which activates nothing) so session scope is satisfied. */
const COMMAND_SEARCH_SESSION = 'toolshed-command-search';

type CommandResult = vscode.ChatResult;

/** Restricted Mode: what the workspace supplies that is not used, with the trust action (nothing when trusted). */
async function showRestrictedMode(stream: vscode.ChatResponseStream): Promise<void> {
  const unused = await unusedWorkspaceSkills();
  const line = unused && restrictedModeLine(unused);
  if (!line) return;
  // A paragraph of the answer itself, and only Markdown: the Chat view folds what comes before a
  // button (or a `> ` step line) into "Completed N steps", which hid this line behind the skill
  // list. The trust action is a command link in the same paragraph instead of a button.
  const paragraph = new vscode.MarkdownString(`${line} [Manage Workspace Trust](command:${MANAGE_TRUST_COMMAND})\n\n`);
  paragraph.isTrusted = { enabledCommands: [MANAGE_TRUST_COMMAND] };
  stream.markdown(paragraph);
}

/** `/skills`: the skill directory — what the model sees — plus how many skills exist in all. */
export async function skillsCommand(stream: vscode.ChatResponseStream, services: SkillCommandServices, session: TurnSession): Promise<CommandResult> {
  await services.skillPacks.ready;
  const ctx = services.skillContext(undefined, session.pinnedSkills);
  const directory = await services.skills.directory(ctx);
  const all = await services.skills.list({ page: 1, page_size: 1 }, ctx);
  await showRestrictedMode(stream);
  if (directory.entries.length === 0) {
    stream.markdown(
      'No skills are available yet. Add `*.skill.md` files or `<name>/SKILL.md` folders under `.github/skills`, or run **Toolshed: New Skill…**.',
    );
    stream.button({ command: 'toolshed.newSkill', title: 'New Skill…' });
    return { metadata: { toolshed: session.metadataBase() } };
  }
  const active = new Map(session.lastActiveSkills.map((skill) => [skill.name, skill.reason]));
  if (active.size > 0) {
    stream.markdown(`**Active in the last answer:** ${[...active].map(([name, reason]) => `\`${name}\`${reason ? ` (${reason})` : ''}`).join(', ')}\n\n`);
  }
  stream.markdown(`**Skills** (${directory.entries.length} shown of ${all.total}; pinned first)\n\n`);
  const native = services.nativeSkills.names();
  for (const entry of directory.entries) {
    const mark = active.has(entry.name) ? ` — ✅ active${active.get(entry.name) ? ` (${active.get(entry.name)})` : ''}` : '';
    const where = native.has(entry.name) ? ' · VS Code agent skill' : '';
    stream.markdown(`- ${entry.pinned ? '📌 ' : ''}\`${entry.name}\` — ${entry.title || entry.trigger}${mark}${where}\n`);
  }
  if (native.size > 0) stream.markdown(`\n${nativeSkillsLine(native.size)}\n`);
  stream.markdown('\nUse `/skill <name>` to pin one into this conversation, `/skill off <name>` to unpin it, or `/search <words>` to find more.');
  return { metadata: { toolshed: session.metadataBase() } };
}

/** `/skill <name>`: pins a skill for the rest of this conversation; `/skill off <name>` unpins it. */
export async function skillCommand(
  prompt: string,
  stream: vscode.ChatResponseStream,
  services: SkillCommandServices,
  session: TurnSession,
): Promise<CommandResult> {
  const words = prompt.trim().split(/\s+/).filter(Boolean);
  if (words[0] === 'off') return unpinCommand(words[1] ?? '', stream, services, session);
  const name = words[0] ?? '';
  if (!name) {
    stream.markdown('Usage: `/skill <name>` to pin, `/skill off <name>` to unpin — see `/skills` for names.');
    return { metadata: { toolshed: session.metadataBase() } };
  }
  await services.skillPacks.ready;
  const output = await services.skills.get({ names: [name], format: 'injection', max_tokens: 1500 }, services.skillContext(undefined, session.pinnedSkills));
  const skill = output.skills[0];
  if (!skill) {
    stream.markdown(output.message ?? `Unknown skill \`${name}\`.`);
    if (output.missing?.some((m) => m.reason === hiddenSkillReason())) await showRestrictedMode(stream);
    return { metadata: { toolshed: session.metadataBase() } };
  }
  if (!session.pinnedSkills.includes(skill.name)) session.pinnedSkills.push(skill.name);
  stream.markdown(`📌 Pinned **${skill.title || skill.name}** (\`${skill.name}\`) for this conversation; it will be followed in your next requests.\n\n`);
  stream.markdown(`*When:* ${skill.trigger}\n\n${skill.steps.map((step, i) => `${i + 1}. ${step}`).join('\n')}\n`);
  const file = services.skills.inspect(skill.name)?.source_file;
  if (file) stream.reference(vscode.Uri.file(file));
  return { metadata: { toolshed: session.metadataBase() } };
}

/** `/skill off <name>`: unpins a skill from this conversation (and from the Skill Directory view's pins). */
async function unpinCommand(name: string, stream: vscode.ChatResponseStream, services: SkillCommandServices, session: TurnSession): Promise<CommandResult> {
  if (!name) {
    stream.markdown('Usage: `/skill off <name>` — unpins a skill pinned with `/skill <name>`.');
    return { metadata: { toolshed: session.metadataBase() } };
  }
  const inSession = session.pinnedSkills.indexOf(name);
  const inView = services.pinned.has(name);
  if (inSession < 0 && !inView) {
    stream.markdown(
      `\`${name}\` is not pinned. Pinned now: ${[...session.pinnedSkills, ...services.pinned.names()].map((n) => `\`${n}\``).join(', ') || 'none'}.`,
    );
    return { metadata: { toolshed: session.metadataBase() } };
  }
  if (inSession >= 0) session.pinnedSkills.splice(inSession, 1);
  if (inView) await services.pinned.unpin(name);
  stream.markdown(`Unpinned \`${name}\`; from your next request it is active only when it is chosen for the request.`);
  return { metadata: { toolshed: session.metadataBase() } };
}

/** `/tools`: what this conversation's model sees, what it activated, what stays deferred. */
export async function toolsCommand(
  stream: vscode.ChatResponseStream,
  services: ToolCommandServices,
  session: TurnSession,
  model?: vscode.LanguageModelChat,
  token: vscode.CancellationToken = new vscode.CancellationTokenSource().token,
): Promise<CommandResult> {
  // A fresh read: tools an MCP server published a moment ago are counted, not reported missing.
  services.syncToolCatalog({ fresh: true });
  const run = await session.startRun();
  try {
    // The same filter as the planner loop: /tools lists what the model is sent, nothing more.
    const hiddenNames = hiddenFromLoop(services.settings.current.skills);
    const decision = model ? await services.toolModes.decide(run, model, token, hiddenNames) : undefined;
    if (decision) stream.markdown(`**Tool search** (\`toolshed.toolSearch.mode\` is ${decision.mode}): ${describeDeferral(decision)}\n\n`);
    const hidden = new Set(hiddenNames);
    const visible = run.visibleTools().filter((tool) => !hidden.has(tool.name));
    const activations = run.listActivations();
    stream.markdown(
      `**Always visible** (${visible.filter((t) => t.loadingMode === 'always').length}): ${
        visible
          .filter((t) => t.loadingMode === 'always')
          .map((t) => `\`${t.name}\``)
          .join(', ') || '—'
      }\n\n`,
    );
    if (activations.length > 0) {
      stream.markdown(`**Activated in this conversation** (${activations.length}):\n`);
      for (const activation of activations) {
        const how = activation.source === 'discovery' ? 'found by ' : activation.source === 'request' ? '' : 'via ';
        stream.markdown(`- \`${activation.toolName}\` — ${how}${activation.reason}, ${activation.calls} call${activation.calls === 1 ? '' : 's'}\n`);
      }
    } else {
      const scope = services.settings.current.toolSearch.activationScope;
      stream.markdown(
        scope === 'run'
          ? '**Activated:** none carried over — activation scope is `run`, so tools found in a request are visible for that request only (setting `toolshed.toolSearch.activationScope`).\n'
          : '**Activated:** none yet in this conversation.\n',
      );
    }
    // A tool whose description looks stuffed is never activated before round 1; say which, and why.
    const flagged = (services.turnExplanations.forSession(session.sessionId)?.tools.candidates ?? []).filter((tool) => tool.flagged);
    if (flagged.length > 0)
      stream.markdown(
        `\n**Looks stuffed, never activated before the first round** (${flagged.length}): ${flagged.map((tool) => `\`${tool.name}\` (${tool.flagged})`).join(', ')}\n`,
      );
    const overCap = run.overCapTools().length;
    stream.markdown(`\n**${deferredHeading(overCap)}**: ${run.deferredTools().length} tools.`);
    const sentNotPinned = visible.filter((t) => t.loadingMode !== 'always' && !activations.some((a) => a.toolName === t.name));
    if (sentNotPinned.length > 0)
      stream.markdown(
        `\n\n**${sentListHeading(decision, overCap)}** (${sentNotPinned.length}): ${sentNotPinned
          .slice(0, 40)
          .map((t) => `\`${t.name}\``)
          .join(', ')}${sentNotPinned.length > 40 ? ', …' : ''}`,
      );
    // Host tools outside the catalog: turned off by the user, or still arriving (never the policy's, which stay unnamed).
    const registry = services.tools.registryMap();
    const uncatalogued = countUncatalogued(
      vscode.lm.tools.map((tool) => tool.name),
      {
        catalogued: (name) => registry.has(name),
        policyAllowed: (name) => services.tools.isPolicyAllowed(name),
        offByUser: (name) => services.tools.isOffByUser(name),
      },
    );
    if (uncatalogued.offByUser > 0) stream.markdown(`\n\n**Turned off by you** (\`toolshed.tools.state\`): ${uncatalogued.offByUser} tools.`);
    if (uncatalogued.starting > 0)
      stream.markdown(
        `\n\n**Starting**: ${uncatalogued.starting} tools are still being published (MCP servers starting); they are counted above once Toolshed has indexed them.`,
      );
    stream.button({ command: 'toolshed.manageTools', title: 'Manage Tools…' });
    // What each tool cost and gave back over the last days: the Ledger view.
    stream.button({ command: 'toolshed.ledger.show', title: 'Ledger' });
    return { metadata: { toolshed: { ...session.metadataBase(), activations: session.exportActivations() ?? session.metadataBase().activations } } };
  } finally {
    run.end();
  }
}

/** `/search <query>`: tools and skills at once, ranked, without activating anything. */
export async function searchCommand(
  prompt: string,
  stream: vscode.ChatResponseStream,
  services: ToolCommandServices,
  session: TurnSession,
): Promise<CommandResult> {
  const query = prompt.trim();
  if (!query) {
    stream.markdown('Usage: `/search <what you need>`, e.g. `/search create a pull request`.');
    return { metadata: { toolshed: session.metadataBase() } };
  }
  services.syncToolCatalog();
  await services.skillPacks.ready;
  stream.progress(`Searching tools and skills for "${query}"`);
  const toolResult = await services.tools.withRun({ sessionId: COMMAND_SEARCH_SESSION, isVisible: services.toolVisibility() }, (run) =>
    run.search({ query, limit: 8, include_always_loaded: true }, { activate: false }),
  );
  let skills: Awaited<ReturnType<SkillService['search']>> | undefined;
  let skillError: string | undefined;
  try {
    skills = await services.skills.search({ query, limit: 8 }, services.skillContext(undefined, session.pinnedSkills));
  } catch (error) {
    skillError = describeToolInputError(SKILL_SEARCH_TOOL_NAME, error);
  }
  stream.markdown(`**Tools** for "${query}":\n`);
  if (!toolResult.ok) stream.markdown(`${toolResult.error}\n`);
  else if (toolResult.output.tools.length === 0) stream.markdown('_none found_\n');
  else
    for (const tool of toolResult.output.tools)
      stream.markdown(`- \`${tool.name}\` (${tool.score.toFixed(2)}, ${tool.loading_mode}) — ${tool.description.split('\n')[0]}\n`);
  stream.markdown(`\n**Skills** for "${query}":\n`);
  if (skillError) stream.markdown(`${skillError}\n`);
  else if (!skills || skills.skills.length === 0) stream.markdown('_none found_\n');
  else for (const skill of skills.skills) stream.markdown(`- \`${skill.name}\` (${skill.score.toFixed(2)}) — ${skill.title || skill.trigger}\n`);
  return { metadata: { toolshed: session.metadataBase() } };
}
