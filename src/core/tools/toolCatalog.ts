import type { ToolExamplesConfig, ToolSearchConfig } from '../config/settingsSchema';
import { CompiledToolConfig, normalizeTool } from './toolRecord';
import type { ToolInput, ToolRecord } from './toolRecord';
import type { ExampleProblem, ExampleSources } from './toolExamples';

/**
 * The tool catalog: every tool the host reported (`ToolInput`s, changing at any time) and the
 * execution registry derived from it — the records that pass ToolPolicy (allow/deny globs).
 * Denied tools are kept only as names, so text shown to a model can be scrubbed of them.
 * Records are re-normalised only when their input, the settings or the example sources change.
 */
export class ToolCatalog {
  private inputs = new Map<string, { input: ToolInput; key: string }>();
  /** Per input: its normalised record, or undefined when ToolPolicy denies it. */
  private recordCache = new Map<string, { key: string; record: ToolRecord | undefined }>();
  private registryCache: Map<string, ToolRecord> | undefined;
  private generation = 0;

  constructor(private compiled: CompiledToolConfig, private exampleSources: ExampleSources = {}) {}

  get config(): CompiledToolConfig {
    return this.compiled;
  }

  /** Increments on every change (tools, settings, example sources). */
  get version(): number {
    return this.generation;
  }

  setConfig(search: ToolSearchConfig, examples: ToolExamplesConfig): void {
    this.compiled = new CompiledToolConfig(search, examples);
    this.invalidate(true);
  }

  setExampleSources(sources: ExampleSources): void {
    this.exampleSources = sources;
    this.invalidate(true);
  }

  /**
   * Replaces the whole catalog (e.g. on `vscode.lm.onDidChangeTools`). Later duplicates win.
   * Unchanged inputs are recognised by identity first (cheapest: pass the same objects again),
   * else by their JSON text.
   */
  setTools(inputs: readonly ToolInput[]): void {
    const next = new Map<string, { input: ToolInput; key: string }>();
    for (const input of inputs) {
      if (!input || typeof input.name !== 'string' || input.name.length === 0) continue;
      const previous = this.inputs.get(input.name);
      next.set(input.name, previous && previous.input === input ? previous : { input, key: inputKey(input) });
    }
    this.inputs = next;
    this.invalidate(false);
  }

  upsertTools(inputs: readonly ToolInput[]): void {
    for (const input of inputs) {
      if (!input || typeof input.name !== 'string' || input.name.length === 0) continue;
      this.inputs.set(input.name, { input, key: inputKey(input) });
    }
    this.invalidate(false);
  }

  removeTools(names: readonly string[]): void {
    for (const name of names) this.inputs.delete(name);
    this.invalidate(false);
  }

  /** True for any name the host reported, allowed or not (used to scrub model-facing text). */
  isKnown(name: string): boolean {
    return this.inputs.has(name);
  }

  /** The execution registry: records allowed by ToolPolicy, by name. */
  registry(): ReadonlyMap<string, ToolRecord> {
    if (this.registryCache) return this.registryCache;
    const registry = new Map<string, ToolRecord>();
    const cache = new Map<string, { key: string; record: ToolRecord | undefined }>();
    for (const [name, { input, key }] of this.inputs) {
      const cached = this.recordCache.get(name);
      let record: ToolRecord | undefined;
      if (cached && cached.key === key) record = cached.record;
      else record = this.compiled.isAllowed(name) ? normalizeTool(input, this.compiled, this.exampleSources) : undefined;
      cache.set(name, { key, record });
      if (record) registry.set(name, record);
    }
    this.recordCache = cache;
    this.registryCache = registry;
    return registry;
  }

  exampleProblems(): ExampleProblem[] {
    return [...this.registry().values()].flatMap((r) => r.exampleProblems);
  }

  private invalidate(dropRecords: boolean): void {
    if (dropRecords) this.recordCache.clear();
    this.registryCache = undefined;
    this.generation++;
  }
}

/** Change-detection key of an input (the record hash, computed later, is the canonical one). */
function inputKey(input: ToolInput): string {
  return JSON.stringify(input);
}
