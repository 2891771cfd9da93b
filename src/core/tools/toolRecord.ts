import type { LoadingMode, SideEffects, ToolExample, ToolExamplesConfig, ToolSearchConfig, ToolsConfig } from '../config/settingsSchema';
import { canonicalJson, sha256Hex } from '../platform/canonicalJson';
import { GlobMap, GlobSet } from './toolGlobs';
import { resolveToolExamples } from './examples/toolExamples';
import { ToolStates } from './modes/toolStates';
import type { ExampleProblem, ExampleSourceKind, ExampleSources } from './examples/toolExamples';

/**
 * ToolRecord: the normalised, hashed description of one tool (its record hash: docs/contracts.md#hashes).
 * `ToolInput` is what the VS Code layer feeds in (the shape of `vscode.lm.tools` entries plus
 * optional hints); `normalizeTool` derives namespace, side effects, loading mode and examples
 * from it and the settings.
 */

export interface ToolInput {
  name: string;
  description?: string;
  inputSchema?: unknown;
  tags?: readonly string[];
  /** Where the tool comes from when known: `mcp`, `extension`, `builtin`, `toolshed`… */
  source?: string;
  examples?: readonly ToolExample[];
  loadingMode?: LoadingMode;
  sideEffects?: SideEffects;
  namespace?: string;
}

export interface ToolRecord {
  readonly name: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly namespace: string;
  readonly sideEffects: SideEffects;
  readonly loadingMode: LoadingMode;
  readonly inputSchema: unknown;
  readonly source?: string;
  /** Effective examples after precedence, validation and the per-tool cap. */
  readonly examples: readonly ToolExample[];
  readonly exampleSource?: ExampleSourceKind;
  readonly exampleProblems: readonly ExampleProblem[];
  /**
   * sha256 of the canonical metadata, examples included. Computed on first read: a cold index
   * needs it only when the index is persisted, not to answer the first search.
   */
  readonly recordHash: string;
}

export const SIDE_EFFECTS_RANK: Readonly<Record<SideEffects, number>> = { pure: 0, read: 1, write: 2, external: 3, stateful: 4 };

const SIDE_EFFECT_TAGS: Readonly<Record<string, SideEffects>> = {
  pure: 'pure',
  read: 'read',
  readonly: 'read',
  'read-only': 'read',
  read_only: 'read',
  write: 'write',
  external: 'external',
  network: 'external',
  stateful: 'stateful',
};

/** Settings compiled once (globs) and shared by every record normalisation. */
export class CompiledToolConfig {
  readonly alwaysLoaded: GlobSet;
  readonly allow: GlobSet;
  readonly deny: GlobSet;
  readonly namespaces: GlobMap<string>;
  readonly sideEffects: GlobMap<SideEffects>;
  readonly preferredNamespaceRank: ReadonlyMap<string, number>;
  /** The user's per-tool states (`toolshed.tools.state`). */
  readonly toolStates: ToolStates;

  readonly tools: ToolsConfig;

  constructor(
    readonly search: ToolSearchConfig,
    readonly examples: ToolExamplesConfig,
    tools?: ToolsConfig,
  ) {
    this.tools = { state: tools?.state ?? {} };
    this.toolStates = new ToolStates(this.tools.state);
    this.alwaysLoaded = new GlobSet(search.alwaysLoadedPatterns);
    this.allow = new GlobSet(search.allow);
    this.deny = new GlobSet(search.deny);
    this.namespaces = new GlobMap(search.namespaces);
    this.sideEffects = new GlobMap(search.sideEffects);
    this.preferredNamespaceRank = new Map(search.preferredNamespaces.map((ns, i) => [ns, i]));
  }

  /** ToolPolicy (allowed by some allow glob and by no deny glob; deny wins), and not turned off by the user. */
  isAllowed(name: string): boolean {
    return this.isPolicyAllowed(name) && !this.isOffByUser(name);
  }

  /** The team's policy alone (allow/deny), before the user's own states. */
  isPolicyAllowed(name: string): boolean {
    return this.allow.matches(name) && !this.deny.matches(name);
  }

  /** Turned off in `toolshed.tools.state` (kept apart from the policy's deny). */
  isOffByUser(name: string): boolean {
    return this.toolStates.stateOf(name) === 'off';
  }

  namespaceRank(namespace: string): number {
    return this.preferredNamespaceRank.get(namespace) ?? this.preferredNamespaceRank.size;
  }
}

function deriveNamespace(input: ToolInput, config: CompiledToolConfig): string {
  const configured = config.namespaces.get(input.name);
  if (configured) return configured;
  if (input.namespace) return input.namespace;
  const mcp = /^mcp_([A-Za-z0-9-]+)_/.exec(input.name);
  if (mcp) return mcp[1].toLowerCase();
  const dot = input.name.indexOf('.');
  if (dot > 0) return input.name.slice(0, dot);
  return input.source ?? 'default';
}

function deriveSideEffects(input: ToolInput, config: CompiledToolConfig): SideEffects {
  const configured = config.sideEffects.get(input.name);
  if (configured) return configured;
  if (input.sideEffects) return input.sideEffects;
  for (const tag of input.tags ?? []) {
    const lower = tag.toLowerCase().replace(/^side[_-]?effects?[:=]/, '');
    const mapped = SIDE_EFFECT_TAGS[lower];
    if (mapped) return mapped;
  }
  return 'external';
}

/**
 * The tool's own loading mode; whether a request defers at all (`toolshed.toolSearch.mode`) is
 * decided per request (modes/deferralDecision.ts). The user's per-tool state wins over patterns.
 */
function deriveLoadingMode(input: ToolInput, config: CompiledToolConfig): LoadingMode {
  const state = config.toolStates.stateOf(input.name);
  if (state === 'always' || state === 'deferred') return state;
  if (config.alwaysLoaded.matches(input.name)) return 'always';
  return input.loadingMode ?? config.search.defaultLoadingMode;
}

export function normalizeTool(input: ToolInput, config: CompiledToolConfig, exampleSources: ExampleSources): ToolRecord {
  const description = typeof input.description === 'string' ? input.description : '';
  const tags = [...new Set((input.tags ?? []).filter((t) => typeof t === 'string'))];
  const inputSchema = input.inputSchema ?? { type: 'object', properties: {} };
  const resolved = resolveToolExamples(input.name, input.examples, inputSchema, exampleSources, config.examples.maxExamplesPerTool);
  const record = {
    name: input.name,
    description,
    tags,
    namespace: deriveNamespace(input, config),
    sideEffects: deriveSideEffects(input, config),
    loadingMode: deriveLoadingMode(input, config),
    inputSchema,
    source: input.source,
    examples: resolved.examples,
    exampleSource: resolved.source,
    exampleProblems: resolved.problems,
  };
  Object.defineProperties(record, RECORD_HASH_PROPERTIES);
  return record as typeof record & Pick<ToolRecord, 'recordHash'>;
}

/** Where a record keeps its hash once computed (non-enumerable: not part of its metadata). */
const HASH_CACHE = Symbol('recordHash');

/**
 * `recordHash`, computed on first read: an own enumerable getter (not a prototype one), so
 * `{ ...record }` copies the value. One shared getter for every record, so records share one
 * hidden class (a getter written in the object literal is a new function per record, which gave
 * each record its own class and made every property read on records megamorphic).
 */
const RECORD_HASH_PROPERTIES: PropertyDescriptorMap = {
  recordHash: {
    enumerable: true,
    get(this: Omit<ToolRecord, 'recordHash'> & { [HASH_CACHE]?: string }): string {
      this[HASH_CACHE] ??= sha256Hex(canonicalJson(hashedMetadata(this)));
      return this[HASH_CACHE];
    },
  },
  [HASH_CACHE]: { value: undefined, writable: true },
};

/** What the record hash covers: the metadata, examples included (not their provenance or problems). */
function hashedMetadata(record: Omit<ToolRecord, 'recordHash'>): Record<string, unknown> {
  const { name, description, tags, namespace, sideEffects, loadingMode, inputSchema, source, examples } = record;
  return { name, description, tags, namespace, sideEffects, loadingMode, inputSchema, source, examples };
}

/** A compact parameter line for a model: `filePath: string, startLine?: number, mode?: "a"|"b"`. */
export function summarizeParameters(inputSchema: unknown, maxLength = 240): string {
  const schema = inputSchema as { properties?: Record<string, { type?: unknown; enum?: unknown[] }>; required?: unknown } | undefined;
  const properties = schema && typeof schema === 'object' && schema.properties && typeof schema.properties === 'object' ? schema.properties : {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  const parts = Object.entries(properties).map(([key, prop]) => {
    const enumValues = Array.isArray(prop?.enum) && prop.enum.length <= 5 ? prop.enum.map((v) => JSON.stringify(v)).join('|') : undefined;
    const type = enumValues ?? (Array.isArray(prop?.type) ? prop.type.join('|') : typeof prop?.type === 'string' ? prop.type : 'any');
    return `${key}${required.has(key) ? '' : '?'}: ${type}`;
  });
  const text = parts.join(', ');
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
