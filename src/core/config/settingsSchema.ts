import { z } from 'zod';
import { TOOLSHED_DISCOVERY_TOOL_NAMES } from '../platform/toolNames';

/**
 * The one schema for every Toolshed setting. It is the source of:
 * - the TypeScript types (`ToolshedSettings` and friends),
 * - validation with defaults (the VS Code accessor and the CLI parse through it),
 * - `contributes.configuration` in package.json (scripts/sync-manifest.ts flattens it into
 *   `toolshed.<section>.<key>` settings; a unit test fails when the manifest drifts).
 *
 * Field names are camelCase (VS Code convention). Tool input/output contracts (e.g.
 * `search_type`) are snake_case because models read those.
 */

export const loadingModeSchema = z.enum(['always', 'deferred']);
export type LoadingMode = z.infer<typeof loadingModeSchema>;

const sideEffectsSchema = z.enum(['pure', 'read', 'write', 'external', 'stateful']);
export type SideEffects = z.infer<typeof sideEffectsSchema>;

export const scopeModeSchema = z.enum(['project', 'tenant', 'global']);
export type ScopeMode = z.infer<typeof scopeModeSchema>;

export const taskTypeSchema = z.enum(['browser', 'api', 'code', 'domain', 'unknown']);
export type TaskType = z.infer<typeof taskTypeSchema>;

/** `auto`: defer only when all tool definitions would take too much of the model's context. */
const toolSearchModeSchema = z.enum(['auto', 'always', 'off']);
export type ToolSearchMode = z.infer<typeof toolSearchModeSchema>;

const deferredNamesListingSchema = z.enum(['off', 'names', 'namesAndServers']);
export type DeferredNamesListing = z.infer<typeof deferredNamesListingSchema>;

export const toolSearchConfigSchema = z.object({
  mode: toolSearchModeSchema
    .default('auto')
    .describe(
      "`auto`: send every tool while their definitions take at most `autoThresholdPercent` of the model's context window (and there are at most 128), else defer them behind `tool_search`. `always`: always defer. `off`: never defer (still at most 128 tools per request; the rest stay reachable through `tool_search`). Replaces the former `toolshed.toolSearch.enabled`.",
    ),
  autoThresholdPercent: z
    .number()
    .min(1)
    .max(100)
    .default(10)
    .describe(
      "In `auto` mode: defer tools when their definitions exceed this percentage of the chosen model's input context (a model reporting no context size counts as 128k tokens).",
    ),
  listDeferredNames: deferredNamesListingSchema
    .default('names')
    .describe(
      "Add an `<available_deferred_tools>` block naming the deferred tools (grouped by namespace) so the model knows what `tool_search` can find. `namesAndServers` also names each namespace's source. Denied and hidden tools are never listed.",
    ),
  deferredNamesMaxTokens: z
    .number()
    .int()
    .min(0)
    .max(4000)
    .default(400)
    .describe('Token cap of the `<available_deferred_tools>` block; names beyond it are summarised as a count.'),
  learnFromUse: z
    .boolean()
    .default(true)
    .describe(
      'Remember (per workspace, tool names and query words only) which `tool_search` results the model called successfully, and rank those slightly higher for similar queries (at most +0.1, fading with a 30-day half-life).',
    ),
  defaultLoadingMode: loadingModeSchema
    .default('deferred')
    .describe('Loading mode for tools that match no `alwaysLoadedPatterns`: `deferred` hides them until discovered, `always` sends them every time.'),
  alwaysLoadedPatterns: z
    .array(z.string())
    .default([...TOOLSHED_DISCOVERY_TOOL_NAMES])
    .describe("Glob patterns of tool names that are always visible (never deferred). Toolshed's own tools should stay here."),
  activationScope: z
    .enum(['run', 'session'])
    .default('run')
    .describe('`run`: activated tools are visible for the current request only. `session`: they stay visible for later turns of the same chat.'),
  activateOn: z
    .enum(['discovery', 'firstUse'])
    .default('discovery')
    .describe(
      '`discovery`: tools returned by `tool_search` become visible for the next round. `firstUse`: they become visible only when the model calls them.',
    ),
  preferredNamespaces: z.array(z.string()).default([]).describe('Namespaces ranked first when scores tie (e.g. `github`, `vscode`).'),
  allow: z.array(z.string()).default(['*']).describe('Tool policy: glob patterns of tool names that may be used at all.'),
  deny: z.array(z.string()).default([]).describe('Tool policy: glob patterns of tool names that are never listed, found or run. Deny wins over allow.'),
  namespaces: z
    .record(z.string(), z.string())
    .default({})
    .describe('Map of tool-name glob → namespace, overriding the namespace derived from the name (e.g. `mcp_github_*` → `github`).'),
  sideEffects: z
    .record(z.string(), sideEffectsSchema)
    .default({})
    .describe('Map of tool-name glob → side effects (`pure`, `read`, `write`, `external`, `stateful`). Unknown tools count as `external`.'),
  enableIncrementalIndex: z.boolean().default(true).describe('Re-index only tools whose metadata changed (catalog fingerprinting).'),
  rebuildIndexOnInit: z.boolean().default(false).describe('Drop and rebuild the tool index at start-up.'),
  maxSearchResults: z.number().int().min(1).max(20).default(10).describe('Upper bound on the number of tools one `tool_search` call returns.'),
  learnCoreSet: z
    .boolean()
    .default(true)
    .describe(
      "Learn a core set from use: a deferred tool @toolshed called in at least 6 of the last 100 turns without round 1 offering it (a search had to find it, or the model named it) is sent without a search (at most 8 tools, at most 3 % of the model's context), and dropped again once called in fewer than 2 of them. A tool your requests' own words already activate is not promoted: it costs no search round. Your own Always / Deferred / Off in `#toolshed.tools.state#` always wins; tools the policy denies are never sent, and in Restricted Mode nothing is. The footer says which tools it sent and why; **Toolshed: Reset Learned Core Set** forgets it.",
    ),
  preActivateTools: z
    .number()
    .int()
    .min(0)
    .max(20)
    .default(4)
    .describe(
      'Before the first round of an @toolshed request, search the request and activate up to this many deferred tools whose relevance reaches `#toolshed.toolSearch.minRelevance#`, so the model can call them without a `tool_search` round first. Policy, visibility and Restricted Mode apply as everywhere; `tool_search` stays available. 0 turns it off.',
    ),
  minRelevance: z
    .number()
    .min(0)
    .max(1)
    .default(0.2)
    .describe(
      "The absolute relevance (0–1) a tool must reach before Toolshed activates it without the model choosing it: pre-activation before the first round, and `tool_search` results beyond the top hit. Relevance needs both: the request is about the tool (the share of the request's words, weighted by rarity in the tool catalog, that the tool's name, description, tags and parameters contain) and the tool is about the request (the share of the tool's own name, tags and description words the request contains), so a description stuffed with common words gains nothing. Before the first round a tool must also reach 0.6 × the best match's relevance and share two of the request's words, so a tool that shares one common word with the request is not activated beside a much better match.",
    ),
  maxRounds: z.number().int().min(1).max(100).default(12).describe('Maximum model round trips per @toolshed request before the loop stops.'),
});
export type ToolSearchConfig = z.infer<typeof toolSearchConfigSchema>;

export const toolExampleSchema = z.object({
  args: z.record(z.string(), z.unknown()),
  description: z.string().optional(),
  tags: z.array(z.string()).default([]),
});
export type ToolExample = z.infer<typeof toolExampleSchema>;

export const toolExamplesConfigSchema = z.object({
  enabled: z.boolean().default(true).describe('Render tool use examples under tool descriptions.'),
  maxExamplesPerTool: z.number().int().min(0).max(10).default(3).describe('At most this many examples per tool (ordered minimal → common → edge-case).'),
  includeDescriptions: z.boolean().default(true).describe("Include each example's one-line description."),
  overrides: z
    .record(z.string(), z.array(toolExampleSchema))
    .default({})
    .describe('Examples per tool name; these take precedence over examples shipped with the tool and `*.tools.yaml` files.'),
});
export type ToolExamplesConfig = z.infer<typeof toolExamplesConfigSchema>;

/**
 * Every skill-file format, the one list: a pack's `format` setting takes one of them, a stored
 * skill's `format` is one of them or `learned` (skills/skillSchema.ts), and the file-name table
 * (skills/packs/document/skillFileNames.ts) gives each its file names. It lives here, the lowest
 * layer that settings and skills both read.
 */
export const SKILL_DOCUMENT_FORMATS = ['md', 'yaml', 'json', 'jsonl', 'skill-md'] as const;

const skillPackFormatSchema = z.enum(SKILL_DOCUMENT_FORMATS);
export type SkillPackFormat = z.infer<typeof skillPackFormatSchema>;

const skillPackConfigSchema = z.object({
  name: z
    .string()
    .min(1)
    .regex(/^[a-z0-9][a-z0-9._-]*$/, 'Pack names use lowercase letters, digits, dot, dash and underscore.'),
  path: z.string().min(1),
  format: skillPackFormatSchema.optional(),
  scopeMode: scopeModeSchema.default('project'),
  enabled: z.boolean().default(true),
  updateExistingPackSkills: z.boolean().default(true),
  pinnedSkillNames: z.array(z.string()).default([]),
});

const skillsDirectoryConfigSchema = z.object({
  enabled: z.boolean().default(true).describe('Add a bounded `<skill_directory>` of skill names to the prompt.'),
  maxEntries: z.number().int().min(0).max(200).default(30).describe('Hard cap on skill names in the directory.'),
  includeFields: z
    .array(z.enum(['name', 'title', 'trigger', 'task_type']))
    .default(['name', 'title', 'trigger'])
    .describe('Fields shown for each directory entry.'),
  selectionStrategy: z
    .enum(['pinned_then_recent', 'pinned_then_top'])
    .default('pinned_then_recent')
    .describe('Pinned skills first, then the most recently used (`pinned_then_recent`) or most used (`pinned_then_top`).'),
});

export const skillsConfigSchema = z.object({
  enabled: z.boolean().default(true).describe('Load skill packs and offer `skill_search`, `skill_get` and `skill_list`.'),
  maxTokens: z
    .number()
    .int()
    .min(100)
    .max(20000)
    .default(2000)
    .describe(
      'Token budget for skills injected before a request (pre-flight), pinned skills included: pinned skills are fitted first, relevant ones get the rest, and what does not fit is named in the response.',
    ),
  topK: z.number().int().min(0).max(20).default(3).describe('How many relevant skills pre-flight injection considers.'),
  minRelevance: z
    .number()
    .min(0)
    .max(1)
    .default(0.25)
    .describe(
      "Pre-flight injects a skill only when its absolute relevance to the request reaches this (0–1: the share of the request's words, weighted by how rare they are, that the skill's name, title, trigger, description or tags contain; words only in its body count a quarter). Below it nothing is injected: the skill directory still lists names and pinned skills always apply. A skill below 0.7 × the best match's relevance is not injected either. 0 = inject the best matches whatever they are.",
    ),
  summarize: z
    .boolean()
    .default(false)
    .describe(
      "When pre-flight skills do not fit `#toolshed.skills.maxTokens#` even after structured compression, ask the request's model to condense them (redacted and tool-gated again, within the same budget); on any failure the structured result is used.",
    ),
  redactPii: z.boolean().default(true).describe('Redact e-mails, phone numbers, tokens/API keys and URL query strings in skill text sent to a model.'),
  scopeMode: scopeModeSchema.default('project').describe('Default scope of skills: `project` (this workspace), `tenant`, or `global`.'),
  includeAgentSkillFolders: z
    .boolean()
    .default(true)
    .describe(
      'Also load SKILL.md folders VS Code and Claude use: `.github/skills`, `.claude/skills`, `.agents/skills` in the workspace and `~/.copilot/skills`, `~/.claude/skills`.',
    ),
  includeBuiltInPacks: z.boolean().default(true).describe('Load the skill packs shipped with Toolshed.'),
  packs: z
    .array(skillPackConfigSchema)
    .default([])
    .describe(
      'Additional skill packs: `{ name, path, format?, scopeMode?, enabled?, updateExistingPackSkills?, pinnedSkillNames? }`. Relative paths resolve against the workspace folder.',
    ),
  directory: skillsDirectoryConfigSchema.default(skillsDirectoryConfigSchema.parse({})),
  selection: z
    .enum(['search', 'model', 'hybrid'])
    .default('hybrid')
    .describe(
      "How @toolshed picks the active skills of a request: `search` (the best matches that pass `#toolshed.skills.minRelevance#`), `model` (a model picks from every skill's name and description on every request), or `hybrid` (search narrows to at most 30 candidates that pass `#toolshed.skills.minRelevance#`; a model is asked only when the best is below `#toolshed.skills.askModelBelowRelevance#` or more than `#toolshed.skills.maxActive#` are about as relevant). On any failure or timeout the search order is used, without the candidates the model was asked to confirm.",
    ),
  maxActive: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(3)
    .describe('At most this many skills are active (loaded in full) per @toolshed request. Pinned skills take the first slots and are always included.'),
  askModelBelowRelevance: z
    .number()
    .min(0)
    .max(1)
    .default(0.45)
    .describe(
      'With `#toolshed.skills.selection#` `hybrid`: when the best skill that passed `#toolshed.skills.minRelevance#` is below this absolute relevance, the model confirms it or picks none (one short request). At or above it the search answer is used without a model request, unless more skills than `#toolshed.skills.maxActive#` are about as relevant. 0 = ask only for close candidates.',
    ),
  selectionModel: z
    .enum(['smaller', 'request'])
    .default('smaller')
    .describe(
      "Which model chooses the active skills when `#toolshed.skills.selection#` asks one: `smaller` uses a small model of the same vendor as the request's model (a name with mini, nano, haiku, flash, lite or small) when one is available, else the request's model; `request` always uses the request's model. The footer names the model and what the choice cost.",
    ),
  selectionTimeoutMs: z
    .number()
    .int()
    .min(100)
    .max(60000)
    .default(5000)
    .describe('How long the model may take to pick the active skills before the search order is used.'),
  scriptTimeoutMs: z
    .number()
    .int()
    .min(1000)
    .max(600000)
    .default(30000)
    .describe("A skill script (a tool from a skill's `scripts/`) is stopped after this many milliseconds."),
  toolStyle: z
    .enum(['discovery', 'single', 'both'])
    .default('discovery')
    .describe(
      'How models reach skills. `discovery`: `skill_search`, `skill_get` and `skill_list`. `single`: one `skill` tool whose description lists the available skills and whose `skill_name` is picked from that closed list (better for small models). `both`: all four.',
    ),
  singleToolMaxEntries: z
    .number()
    .int()
    .min(1)
    .max(500)
    .default(40)
    .describe('Most skills the `skill` tool lists (pinned first, then the most relevant to the request, then recent). The listing says how many more exist.'),
  singleToolMaxTokens: z
    .number()
    .int()
    .min(100)
    .max(20000)
    .default(2000)
    .describe("Token cap for the `skill` tool's description (its skill listing), counted with the request's model."),
  clusterExpansion: z
    .number()
    .int()
    .min(0)
    .max(5)
    .default(1)
    .describe(
      'Pre-flight may add up to this many skills of the same `cluster` as a top match (search) or as the first skill the model chose (`model` / `hybrid` selection), only when they fit what is left of `#toolshed.skills.maxTokens#` (the matches themselves are never shortened for them). 0 = off.',
    ),
  directoryGroupBy: z
    .enum(['pack', 'cluster'])
    .default('pack')
    .describe('How the Skill Directory view groups skills: by the `pack` they come from, or by their `cluster` (skills without one under "No cluster").'),
});
export type SkillsConfig = z.infer<typeof skillsConfigSchema>;

const toolStateSchema = z.enum(['always', 'deferred', 'off']);
export type ToolState = z.infer<typeof toolStateSchema>;

export const toolsConfigSchema = z.object({
  state: z
    .record(z.string().min(1).max(200), toolStateSchema)
    .default({})
    .describe(
      'Your per-tool choice, by tool-name glob: `always` (sent with every request), `deferred` (found with `tool_search`), `off` (never listed, found or run for you; separate from the `toolshed.toolSearch.deny` policy). Set it with **Toolshed: Manage Tools…**.',
    ),
});
export type ToolsConfig = z.infer<typeof toolsConfigSchema>;

export const learningConfigSchema = z.object({
  mode: z
    .enum(['off', 'propose'])
    .default('off')
    .describe(
      '`propose`: after an @toolshed turn that used tools successfully, or after a failure that repeats, Toolshed proposes a skill for you to approve, edit or discard (nothing is used before you approve it); 👍/👎 and `skill_report_outcome` adjust ranking. `off`: no learning. Always off in an untrusted workspace.',
    ),
  extractor: z
    .enum(['trace', 'model'])
    .default('trace')
    .describe(
      "How a proposal is written: `trace` from the tool calls alone (no model call); `model` asks the turn's chat model once for strict JSON and falls back to `trace` on any failure.",
    ),
  ingestMode: z
    .enum(['background', 'persisted'])
    .default('background')
    .describe(
      '`background`: extraction runs after the answer, best effort. `persisted`: the (already depersonalized) turn is written to workspace storage before extraction, so a reload or crash mid-extraction resumes it on the next start instead of losing or half-storing it.',
    ),
  autoActivateTools: z
    .boolean()
    .default(false)
    .describe(
      'Before the first model round of an @toolshed request, activate tools that the injected skills name in `tools` / `allowed-tools` (only tools this request may use and that were deferred), so the model need not search for them first.',
    ),
  maxAutoActivatedTools: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(3)
    .describe('At most this many tools are activated per request by `#toolshed.learning.autoActivateTools#`.'),
  mergeThreshold: z
    .number()
    .min(0.5)
    .max(1)
    .default(0.9)
    .describe(
      'Approving a learned skill whose trigger and steps are at least this similar (weighted overlap of their analysed terms, 0.5–1) to a learned skill of the same project merges it into that skill — steps, preconditions and failure modes united, feedback counters summed, lineage kept and undoable — instead of adding a near-duplicate. `1` merges only skills with the same analysed terms. Pack skills are never merged into.',
    ),
});
export type LearningConfig = z.infer<typeof learningConfigSchema>;

const scopeConfigSchema = z.object({
  // `machine`: only user (or remote) settings may set it, never a workspace — a repository must
  // not be able to put a window into another team's tenant and read that tenant's skills.
  tenantId: z
    .string()
    .trim()
    .max(100)
    .regex(/^[^\u0000]*$/, 'A tenant id cannot contain NUL characters.')
    .default('')
    .describe(
      'Your team or organisation (e.g. `acme-platform`). Skills of scope `tenant` are visible only in windows with the same tenant id, and learned skills can be promoted to it from the Skill Directory. Empty: no tenant (tenant skills stay invisible). A user setting: a workspace cannot set it.',
    )
    .meta({ scope: 'machine' }),
});

const embeddingsConfigSchema = z.object({
  embedder: z
    .enum(['off', 'bundled', 'endpoint'])
    .default('off')
    .describe(
      "Hybrid ranking for `tool_search`, `skill_search` and @toolshed's pre-flight: the lexical matches fused with an embedding of meaning. `bundled`: small word vectors shipped with Toolshed (no network; on the held-out half of the BFCL benchmark they raise any-version recall@5 from 0.860 to 0.873 and exact recall@5 from 0.679 to 0.684, see the docs); their calibrated similarity also counts in the relevance that `#toolshed.skills.minRelevance#` and `#toolshed.toolSearch.minRelevance#` gate. `endpoint`: a local embedding server (`#toolshed.embeddings.endpointUrl#`) for tools and skills, asked once per @toolshed turn for the request; it reorders results but does not change that relevance. `off`: lexical ranking only.",
    ),
  endpointUrl: z
    .string()
    .trim()
    .max(2000)
    .default('http://127.0.0.1:11434/api/embed')
    .describe(
      'The embedding server: Ollama `/api/embed` (e.g. with `ollama pull nomic-embed-text`) or any OpenAI-compatible `/v1/embeddings`. Only this machine (loopback) unless `#toolshed.embeddings.allowRemoteEndpoint#` is set; a remote server is never used in Restricted Mode. Tool and skill names and descriptions are sent (secrets redacted); vectors are cached by record hash.',
    ),
  endpointModel: z.string().trim().min(1).max(200).default('nomic-embed-text').describe('The model the embedding server is asked for.'),
  endpointTimeoutMs: z
    .number()
    .int()
    .min(100)
    .max(60000)
    .default(2000)
    .describe('How long one request to the embedding server may take; after a failure search stays lexical for 30 seconds before the server is asked again.'),
  // `machine`: a workspace must not be able to send every tool and skill description elsewhere.
  allowRemoteEndpoint: z
    .boolean()
    .default(false)
    .describe(
      'Allow `#toolshed.embeddings.endpointUrl#` to point to another machine (its text then leaves this one). A user setting: a workspace cannot set it. Never used in Restricted Mode.',
    )
    .meta({ scope: 'machine' }),
});
export type EmbeddingsConfig = z.infer<typeof embeddingsConfigSchema>;

export const toolshedSettingsSchema = z.object({
  toolSearch: toolSearchConfigSchema.default(toolSearchConfigSchema.parse({})),
  tools: toolsConfigSchema.default(toolsConfigSchema.parse({})),
  toolExamples: toolExamplesConfigSchema.default(toolExamplesConfigSchema.parse({})),
  skills: skillsConfigSchema.default(skillsConfigSchema.parse({})),
  learning: learningConfigSchema.default(learningConfigSchema.parse({})),
  scope: scopeConfigSchema.default(scopeConfigSchema.parse({})),
  embeddings: embeddingsConfigSchema.default(embeddingsConfigSchema.parse({})),
});
export type ToolshedSettings = z.infer<typeof toolshedSettingsSchema>;

export function defaultSettings(): ToolshedSettings {
  return toolshedSettingsSchema.parse({});
}
