import type { ToolExamplesConfig, ToolSearchConfig, ToolsConfig } from '../config/settingsSchema';
import { CompiledToolConfig, normalizeTool } from './toolRecord';
import type { ToolInput, ToolRecord } from './toolRecord';
import type { ExampleProblem, ExampleSources } from './examples/toolExamples';

/**
 * The tool catalog: every tool the host reported (`ToolInput`s, changing at any time) and the
 * execution registry derived from it — the records that pass ToolPolicy (allow/deny globs).
 * Denied tools are kept only as names, so text shown to a model can be scrubbed of them.
 * Records are re-normalised only when their input, the settings or the example sources change.
 */
/** What changed in the registry since the last `takeDelta()` (names of removed records). */
export interface CatalogDelta {
  upserted: ToolRecord[];
  removed: string[];
}

export class ToolCatalog {
  private readonly inputs = new Map<string, InputEntry>();
  /** Marks the inputs seen by the current `setTools` call (removal detection without a copy). */
  private setMark = 0;
  /** Per input: its normalised record, or undefined when ToolPolicy denies it. */
  private recordCache = new Map<string, { entry: InputEntry; record: ToolRecord | undefined }>();
  /** The execution registry, kept current in place (O(changed) per change). */
  private readonly registryMap = new Map<string, ToolRecord>();
  /** True when the registry must be recomputed from every input (settings, example sources). */
  private stale = true;
  /** Names whose input changed since the registry was last brought up to date. */
  private readonly dirty = new Set<string>();
  /** Registry changes not yet taken by `takeDelta()`; `full` = a whole recompute happened. */
  private pending = { full: true, names: new Set<string>() };
  private generation = 0;
  private pinnedCache: { version: number; records: ToolRecord[] } | undefined;

  constructor(
    private compiled: CompiledToolConfig,
    private exampleSources: ExampleSources = {},
  ) {}

  get config(): CompiledToolConfig {
    return this.compiled;
  }

  /** Increments on every change (tools, settings, example sources). */
  get version(): number {
    return this.generation;
  }

  setConfig(search: ToolSearchConfig, examples: ToolExamplesConfig, tools?: ToolsConfig): void {
    this.compiled = new CompiledToolConfig(search, examples, tools);
    this.invalidateAll();
  }

  setExampleSources(sources: ExampleSources): void {
    this.exampleSources = sources;
    this.invalidateAll();
  }

  /**
   * Replaces the whole catalog (e.g. on `vscode.lm.onDidChangeTools`). Later duplicates win.
   * Unchanged inputs are recognised by identity first (cheapest: pass the same objects again),
   * else by their JSON text; only changed names are re-normalised.
   */
  setTools(inputs: readonly ToolInput[]): void {
    // In place: one Map lookup per input, a removal scan only when some name went missing.
    const mark = ++this.setMark;
    let seen = 0;
    for (const input of inputs) {
      if (!input || typeof input.name !== 'string' || input.name.length === 0) continue;
      const previous = this.inputs.get(input.name);
      if (previous && previous.mark === mark) seen--; // a later duplicate: replaces, counted once
      if (previous && previous.input === input) {
        previous.mark = mark;
        seen++;
        continue;
      }
      // A new object for a known name: compare JSON texts (computed only now, lazily).
      const entry: InputEntry = { input, mark };
      if (!previous || keyOf(previous) !== keyOf(entry)) this.dirty.add(input.name);
      this.inputs.set(input.name, entry);
      seen++;
    }
    if (seen !== this.inputs.size) {
      for (const [name, entry] of this.inputs) {
        if (entry.mark !== mark) {
          this.inputs.delete(name);
          this.dirty.add(name);
        }
      }
    }
    this.generation++;
  }

  upsertTools(inputs: readonly ToolInput[]): void {
    for (const input of inputs) {
      if (!input || typeof input.name !== 'string' || input.name.length === 0) continue;
      this.inputs.set(input.name, { input, mark: this.setMark });
      this.dirty.add(input.name);
    }
    this.generation++;
  }

  removeTools(names: readonly string[]): void {
    for (const name of names) {
      if (this.inputs.delete(name)) this.dirty.add(name);
    }
    this.generation++;
  }

  /** True for any name the host reported, allowed or not (used to scrub model-facing text). */
  isKnown(name: string): boolean {
    return this.inputs.has(name);
  }

  /** The execution registry: records allowed by ToolPolicy, by name. */
  /**
   * Records pinned `always` (Toolshed's own tools included), cached per catalog version: a
   * deferring request sends only these and the activated tools, so it need not scan the
   * registry (thousands of tools) on every new run.
   */
  pinnedRecords(): readonly ToolRecord[] {
    const registry = this.registry();
    if (this.pinnedCache?.version !== this.generation) {
      this.pinnedCache = { version: this.generation, records: [...registry.values()].filter((r) => r.loadingMode === 'always') };
    }
    return this.pinnedCache.records;
  }

  registry(): ReadonlyMap<string, ToolRecord> {
    if (this.stale) {
      this.registryMap.clear();
      const cache = new Map<string, { entry: InputEntry; record: ToolRecord | undefined }>();
      for (const [name, entry] of this.inputs) {
        const record = this.recordFor(name, entry);
        cache.set(name, { entry, record });
        if (record) this.registryMap.set(name, record);
      }
      this.recordCache = cache;
      this.stale = false;
      this.dirty.clear();
      this.pending = { full: true, names: new Set() };
    } else if (this.dirty.size > 0) {
      for (const name of this.dirty) {
        const entry = this.inputs.get(name);
        const record = entry ? this.recordFor(name, entry) : undefined;
        if (entry) this.recordCache.set(name, { entry, record });
        else this.recordCache.delete(name);
        if (record) this.registryMap.set(name, record);
        else this.registryMap.delete(name);
        if (!this.pending.full) this.pending.names.add(name);
      }
      this.dirty.clear();
    }
    return this.registryMap;
  }

  /**
   * Registry changes since the previous call: changed or added records and removed names, or
   * `undefined` when the registry was recomputed as a whole (the index then diffs everything).
   */
  takeDelta(): CatalogDelta | undefined {
    const registry = this.registry();
    const pending = this.pending;
    this.pending = { full: false, names: new Set() };
    if (pending.full) return undefined;
    const delta: CatalogDelta = { upserted: [], removed: [] };
    for (const name of pending.names) {
      const record = registry.get(name);
      if (record) delta.upserted.push(record);
      else delta.removed.push(name);
    }
    return delta;
  }

  exampleProblems(): ExampleProblem[] {
    return [...this.registry().values()].flatMap((r) => r.exampleProblems);
  }

  private recordFor(name: string, entry: InputEntry): ToolRecord | undefined {
    const cached = this.recordCache.get(name);
    if (cached && (cached.entry === entry || cached.entry.input === entry.input || keyOf(cached.entry) === keyOf(entry))) return cached.record;
    return this.compiled.isAllowed(name) ? normalizeTool(entry.input, this.compiled, this.exampleSources) : undefined;
  }

  private invalidateAll(): void {
    this.recordCache.clear();
    this.stale = true;
    this.generation++;
  }
}

interface InputEntry {
  input: ToolInput;
  /** JSON text of the input, computed on first need (change detection for a new object). */
  key?: string;
  mark: number;
}

function keyOf(entry: InputEntry): string {
  entry.key ??= inputKey(entry.input);
  return entry.key;
}

/** Change-detection key of an input (the record hash, computed later, is the canonical one). */
function inputKey(input: ToolInput): string {
  return JSON.stringify(input);
}
