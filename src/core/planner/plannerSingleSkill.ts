import { renderPromptBlock } from '../privacy/promptBlocks';
import { SKILL_TOOL_NAME } from '../platform/toolNames';
import type { SkillRequestContext, SkillService } from '../skills/skillService';
import { skillSearchInputSchema } from '../skills/skillToolSchemas';
import {
  buildSkillListing,
  orderSkillListing,
  parseSkillToolInput,
  SKILL_TOOL_CONTENT_MAX_TOKENS,
  skillNotFoundMessage,
  skillToolInputSchema,
} from '../skills/singleSkillTool';
import type { SkillListing, SkillListingEntry } from '../skills/singleSkillTool';
import type { ToolDefinition } from '../platform/chatTypes';
import type { PlannerSkills, PlannerToolRun, SkillUse } from './plannerPorts';
import { describeToolInputError } from '../schema/zodSchemas';

/**
 * The single `skill` tool over the skill service, for one request. Entries come only from the
 * service's gated queries (pinned and recent from the directory, relevant from `skill_search`,
 * the rest and the total from `skill_list`), so scope, workspace trust, inactive skills,
 * redaction and tool-reference gating apply exactly as they do for the discovery tools.
 */
export interface SingleSkillToolOptions {
  maxEntries: number;
  maxTokens: number;
  /** The request's text: the listing ranks skills relevant to it right after pinned ones. */
  prompt: string;
  /** Pinned for this conversation (`/skill`) or in the Skill Directory view. */
  pinnedNames: readonly string[];
  /** Exact token count for the request's model. */
  countTokens(text: string): Promise<number>;
}

export interface SingleSkillTool {
  /** The `skill` definition for this run (built once), or undefined when no skill is visible. */
  definition(): Promise<ToolDefinition | undefined>;
  /** The listing behind the definition (built once). */
  listing(): Promise<SkillListing>;
  /** Answers a `skill` call: the skill's content, or a message the model can act on. */
  call(input: unknown): Promise<{ resultText: string; used: SkillUse[] }>;
}

const LIST_PAGE_SIZE = 50;
const RELEVANT_LIMIT = 20;

export function createSingleSkillTool(service: SkillService, ctx: SkillRequestContext, options: SingleSkillToolOptions): SingleSkillTool {
  let listingPromise: Promise<SkillListing> | undefined;
  const listing = () => (listingPromise ??= collectListing(service, ctx, options));
  return {
    listing,
    async definition() {
      const built = await listing();
      if (built.entries.length === 0) return undefined;
      return { name: SKILL_TOOL_NAME, description: built.description, inputSchema: skillToolInputSchema(built.entries.map((e) => e.name)) };
    },
    async call(input) {
      // Only a listing built in this run says a name existed a moment ago.
      const listed = listingPromise ? (await listingPromise).entries.map((e) => e.name) : [];
      return answerSkillCall(service, ctx, input, listed);
    },
  };
}

/**
 * One `skill` call: the skill's content within SKILL_TOOL_CONTENT_MAX_TOKENS, or a message the
 * model can act on. `listedNames`: this run's listing (empty in agent mode, where the name is
 * free text and an unknown one gets the closest visible names).
 */
export async function answerSkillCall(
  service: SkillService,
  ctx: SkillRequestContext,
  input: unknown,
  listedNames: readonly string[],
): Promise<{ resultText: string; used: SkillUse[] }> {
  const parsed = parseSkillToolInput(input);
  if (!parsed.ok) return { resultText: parsed.message, used: [] };
  try {
    const output = await service.get({ names: [parsed.name], format: 'injection', max_tokens: SKILL_TOOL_CONTENT_MAX_TOKENS }, ctx);
    const found = output.skills[0];
    if (found && output.formatted_context) {
      const record = service.inspect(found.name);
      return { resultText: output.formatted_context, used: [{ name: found.name, title: found.title, path: record?.source_file || undefined }] };
    }
    // get() answers an unknown name with the closest names visible in ctx (never a hidden one).
    const missing = output.missing?.[0];
    const inactiveReason = missing && missing.reason !== 'unknown skill' ? missing.reason : undefined;
    return {
      resultText: skillNotFoundMessage(missing?.name ?? parsed.name, {
        wasListed: listedNames.includes(parsed.name),
        suggestions: missing?.suggestions ?? [],
        inactiveReason,
      }),
      used: [],
    };
  } catch (error) {
    return { resultText: describeToolInputError(SKILL_TOOL_NAME, error), used: [] };
  }
}

async function collectListing(service: SkillService, ctx: SkillRequestContext, options: SingleSkillToolOptions): Promise<SkillListing> {
  const entry = (skill: { name: string; title?: string; trigger: string }): SkillListingEntry => ({
    name: skill.name,
    description: skill.title && skill.title !== skill.name ? `${skill.title}: ${skill.trigger}` : skill.trigger,
  });
  // The directory already orders pack pins and conversation pins first, then recent skills.
  const directory = await service.directory(ctx);
  const pinnedFromDirectory = directory.entries.filter((e) => e.pinned).map(entry);
  const pinnedTaken = new Set(pinnedFromDirectory.map((e) => e.name));
  const pinnedExact: SkillListingEntry[] = [];
  for (const name of options.pinnedNames.filter((n) => !pinnedTaken.has(n)).slice(0, options.maxEntries)) {
    const exact = await service.search({ query: name, search_type: 'exact', limit: 1 }, ctx);
    pinnedExact.push(...exact.skills.map(entry));
  }
  const query = options.prompt.trim().slice(0, skillSearchInputSchema.shape.query.maxLength ?? undefined);
  const relevant = query ? (await service.search({ query, limit: RELEVANT_LIMIT }, ctx)).skills.map(entry) : [];
  const recent = directory.entries.filter((e) => !e.pinned).map(entry);

  const groups: SkillListingEntry[][] = [pinnedFromDirectory, pinnedExact, relevant, recent];
  let total = 0;
  // The rest in name order, only as far as needed to fill the cap; page 1 also gives the total.
  for (let page = 1; ; page++) {
    const listed = await service.list({ page, page_size: LIST_PAGE_SIZE }, ctx);
    total = listed.total;
    groups.push(listed.skills.map(entry));
    if (!listed.has_more || orderSkillListing(groups).length >= options.maxEntries) break;
  }
  return buildSkillListing(orderSkillListing(groups), total, options);
}

/**
 * Offers `skill` in the @toolshed loop: its dynamic definition replaces the static one VS Code
 * knows (agent mode's free-text version), calls to it are answered by `single`, and with
 * `single` the prompt no longer points at skill_search / skill_get (they are hidden from the
 * loop by the caller) and the `<skill_directory>` is left out (the listing replaces it).
 */
export function withSingleSkillTool(
  tools: PlannerToolRun,
  skills: PlannerSkills,
  single: SingleSkillTool,
  style: 'single' | 'both',
): { tools: PlannerToolRun; skills: PlannerSkills } {
  const withSkill = async (definitions: ToolDefinition[]) => {
    const own = await single.definition();
    const rest = definitions.filter((d) => d.name !== SKILL_TOOL_NAME);
    return own ? [...rest, own] : rest;
  };
  return {
    tools: {
      ...tools,
      visibleDefinitions: async () => withSkill(await tools.visibleDefinitions()),
      allDefinitions: async () => withSkill(await tools.allDefinitions()),
    },
    skills: {
      ...skills,
      promptBlocks: () => (style === 'single' ? [SINGLE_SKILL_PROMPT] : [...skills.promptBlocks(), SINGLE_SKILL_PROMPT]),
      directory: async () => (style === 'single' ? '' : skills.directory()),
      handles: (toolName) => toolName === SKILL_TOOL_NAME || skills.handles(toolName),
      handle: async (toolName, input) => (toolName === SKILL_TOOL_NAME ? single.call(input) : skills.handle(toolName, input)),
    },
  };
}

const SINGLE_SKILL_PROMPT = renderPromptBlock('skill_tool', [
  'The `skill` tool lists the skills (vetted playbooks) available here. When one fits the request, call `skill` with its exact name and follow what it returns.',
]);
