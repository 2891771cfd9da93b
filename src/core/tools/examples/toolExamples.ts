import { isMap, isScalar, parseDocument, stringify as stringifyYaml } from 'yaml';
import { z } from 'zod';
import { toolExampleSchema } from '../../config/settingsSchema';
import type { ToolExample, ToolExamplesConfig } from '../../config/settingsSchema';
import type { FileSystemPort } from '../../platform/ports';
import { validateAgainstSchema } from '../../schema/jsonSchemaSubset';
import { describeZodIssues } from '../../schema/zodSchemas';

/**
 * Tool use examples (docs/tools.md#tool-use-examples): where they come from, which win, which are valid, and how
 * they are rendered under a tool's description.
 *
 * Precedence per tool (highest first): `settings` (toolshed.toolExamples.overrides) >
 * `file` (`*.tools.yaml` example files) > `tool` (examples provided with the tool) >
 * `builtin` (Toolshed's table). The highest source that has at least one VALID example wins
 * whole — sources are not mixed, so an override fully replaces what a tool ships. Invalid
 * examples (args not matching the tool's inputSchema) are reported and never rendered.
 */

export type ExampleSourceKind = 'settings' | 'file' | 'tool' | 'builtin';

const EXAMPLE_SOURCE_ORDER: readonly ExampleSourceKind[] = ['settings', 'file', 'tool', 'builtin'];

export interface ExampleProblem {
  tool: string;
  source: ExampleSourceKind;
  index: number;
  message: string;
}

export interface ResolvedExamples {
  examples: ToolExample[];
  source?: ExampleSourceKind;
  problems: ExampleProblem[];
}

/** Examples per tool name from each shared source (the tool's own come with the tool). */
export interface ExampleSources {
  settings?: Readonly<Record<string, readonly ToolExample[]>>;
  files?: Readonly<Record<string, readonly ToolExample[]>>;
  builtin?: Readonly<Record<string, readonly ToolExample[]>>;
}

const TAG_RANK: Record<string, number> = { minimal: 0, basic: 0, common: 1, typical: 1, 'edge-case': 3, edge: 3, edge_case: 3 };
const UNTAGGED_RANK = 2;

function exampleRank(example: ToolExample): number {
  const ranks = example.tags.map((tag) => TAG_RANK[tag.toLowerCase()]).filter((r): r is number => r !== undefined);
  return ranks.length > 0 ? Math.min(...ranks) : UNTAGGED_RANK;
}

/** Orders minimal → common → untagged → edge-case, stable within a rank. */
export function orderExamples(examples: readonly ToolExample[]): ToolExample[] {
  return examples
    .map((example, index) => ({ example, index }))
    .sort((a, b) => exampleRank(a.example) - exampleRank(b.example) || a.index - b.index)
    .map((entry) => entry.example);
}

/**
 * `record[name]` when it is the record's own entry: a tool may be named `constructor` or
 * `toString`, which a plain lookup would answer from Object.prototype (a function, not examples).
 */
function ownEntry<V>(record: Readonly<Record<string, V>> | undefined, name: string): V | undefined {
  return record !== undefined && Object.hasOwn(record, name) ? record[name] : undefined;
}

export function resolveToolExamples(
  toolName: string,
  toolExamples: readonly ToolExample[] | undefined,
  inputSchema: unknown,
  sources: ExampleSources,
  maxExamples: number,
): ResolvedExamples {
  const problems: ExampleProblem[] = [];
  const bySource: Record<ExampleSourceKind, readonly ToolExample[] | undefined> = {
    settings: ownEntry(sources.settings, toolName),
    file: ownEntry(sources.files, toolName),
    tool: toolExamples,
    builtin: ownEntry(sources.builtin, toolName),
  };
  for (const source of EXAMPLE_SOURCE_ORDER) {
    const candidates = bySource[source];
    if (!candidates || candidates.length === 0) continue;
    const valid: ToolExample[] = [];
    candidates.forEach((raw, index) => {
      const parsed = toolExampleSchema.safeParse(raw);
      if (!parsed.success) {
        problems.push({ tool: toolName, source, index, message: `not an example object: ${parsed.error.issues[0]?.message ?? 'invalid'}` });
        return;
      }
      const schemaProblems = validateAgainstSchema(parsed.data.args, inputSchema);
      if (schemaProblems.length > 0) {
        problems.push({ tool: toolName, source, index, message: schemaProblems.map((p) => `${p.path} ${p.message}`).join('; ') });
        return;
      }
      valid.push(parsed.data);
    });
    if (valid.length > 0) return { examples: orderExamples(valid).slice(0, Math.max(0, maxExamples)), source, problems };
  }
  return { examples: [], problems };
}

/** Compact YAML block: one flow-style line per example, its description as a comment. */
export function renderExamples(examples: readonly ToolExample[], includeDescriptions: boolean): string {
  if (examples.length === 0) return '';
  const lines = ['Examples:'];
  for (const example of examples) {
    const args = stringifyYaml(example.args, { collectionStyle: 'flow', lineWidth: 0 }).trim();
    const comment = includeDescriptions && example.description ? `  # ${example.description.replace(/\s+/g, ' ').trim()}` : '';
    lines.push(`- ${args}${comment}`);
  }
  return lines.join('\n');
}

/** The description a model sees: the tool's description, then its examples (when enabled). */
export function describeWithExamples(description: string, examples: readonly ToolExample[], config: ToolExamplesConfig): string {
  if (!config.enabled || config.maxExamplesPerTool === 0 || examples.length === 0) return description;
  const block = renderExamples(examples.slice(0, config.maxExamplesPerTool), config.includeDescriptions);
  return description.trim().length > 0 ? `${description.trimEnd()}\n\n${block}` : block;
}

/** Tool-example files, at any depth (the file watcher and the manifest's `activationEvents` use it). */
export const TOOL_EXAMPLES_FILE_GLOB = '**/*.tools.yaml';

/** `*.tools.yaml`: `examples: { <toolName>: [ { args, description?, tags? } ] }`. */
const toolExamplesFileSchema = z.object({
  examples: z.record(z.string(), z.array(toolExampleSchema)),
});

export interface ParsedExamplesFile {
  examples: Record<string, ToolExample[]>;
  problems: string[];
}

/** Larger `*.tools.yaml` files are refused unread (the limit of skill files). */
export const MAX_EXAMPLES_FILE_BYTES = 1024 * 1024;

/**
 * Parses one `*.tools.yaml`. Keys are checked for duplicates here, in one pass, not by the YAML
 * parser: its own check compares every key with every other (4.5 s for a file of 20,000 tools,
 * a frozen extension host). A tool listed twice keeps its last list, with a problem saying so.
 */
export function parseToolExamplesFile(text: string, fileName: string): ParsedExamplesFile {
  let data: unknown;
  const problems: string[] = [];
  try {
    const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false, logLevel: 'error' });
    if (doc.errors.length > 0) throw doc.errors[0];
    data = doc.toJS({ maxAliasCount: 100 });
    const examples = doc.get('examples', true);
    if (isMap(examples)) {
      const seen = new Set<string>();
      const repeated = new Set<string>();
      for (const item of examples.items) {
        const key = isScalar(item.key) ? String(item.key.value) : String(item.key);
        if (seen.has(key)) repeated.add(key);
        seen.add(key);
      }
      if (repeated.size > 0) {
        const names = [...repeated]
          .slice(0, 5)
          .map((name) => `"${name}"`)
          .join(', ');
        problems.push(
          `${fileName}: ${repeated.size === 1 ? 'a tool is' : `${repeated.size} tools are`} listed twice under examples (${names}${repeated.size > 5 ? ', …' : ''}); the last list of each is used`,
        );
      }
    }
  } catch (error) {
    return { examples: {}, problems: [`${fileName}: not valid YAML (${error instanceof Error ? error.message : String(error)})`] };
  }
  const parsed = toolExamplesFileSchema.safeParse(data);
  if (!parsed.success) {
    return {
      examples: {},
      problems: [
        `${fileName}: expected "examples: { <toolName>: [ { args: {...}, description?, tags? } ] }" — ${describeZodIssues(parsed.error, '(root)', 5)}`,
      ],
    };
  }
  return { examples: parsed.data.examples, problems };
}

/** How example files are parsed: `parseToolExamplesFile`, here or on another thread. */
export type ToolExamplesParse = (text: string, fileName: string) => Promise<ParsedExamplesFile>;

/** Reads several example files; later files add to (not replace) earlier ones per tool. */
export async function loadToolExampleFiles(fs: FileSystemPort, paths: readonly string[], parse?: ToolExamplesParse): Promise<ParsedExamplesFile> {
  const merged: Record<string, ToolExample[]> = {};
  const problems: string[] = [];
  for (const path of paths) {
    let text: string;
    try {
      const size = (await fs.stat(path))?.size ?? 0;
      if (size > MAX_EXAMPLES_FILE_BYTES) {
        problems.push(`${path}: too large (${size} bytes; the limit is ${MAX_EXAMPLES_FILE_BYTES}) — split it into smaller *.tools.yaml files`);
        continue;
      }
      text = new TextDecoder().decode(await fs.readFile(path));
    } catch (error) {
      problems.push(`${path}: cannot be read (${error instanceof Error ? error.message : String(error)})`);
      continue;
    }
    const parsed = parse ? await parse(text, path) : parseToolExamplesFile(text, path);
    problems.push(...parsed.problems);
    for (const [tool, examples] of Object.entries(parsed.examples)) (merged[tool] ??= []).push(...examples);
  }
  return { examples: merged, problems };
}
