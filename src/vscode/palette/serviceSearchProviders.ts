import type { SkillRequestContext, SkillService } from '../../core/skills/skillService';
import type { ToolSearchService } from '../../core/tools/toolSearchService';
import type { SkillDirectorySource } from '../views/skillDirectorySource';
import type { ToolDetails } from '../views/toolDetails';
import type { RankedResult, SearchProvider, ToolSearchProvider } from './searchProviders';

/** Session id of palette searches (never activates anything; see run.search's `activate`). */
const PALETTE_SESSION = 'toolshed-palette';

/** Skill search for the palette: `skill_search` (fts, or exact for a known name); empty query lists all. */
export function skillSearchProvider(service: SkillService, directory: SkillDirectorySource, context: () => SkillRequestContext): SearchProvider {
  return {
    async search(query, limit) {
      const skills = directory.packs().flatMap((p) => p.skills);
      const byName = new Map(skills.map((s) => [s.name, s]));
      const trimmed = query.trim();
      if (!trimmed) {
        return skills
          .slice()
          .sort((a, b) => a.name.localeCompare(b.name))
          .slice(0, 200)
          .map((s): RankedResult => ({
            name: s.name,
            title: s.title,
            description: s.trigger || s.description,
            score: 0,
            matchType: 'list',
            loadingMode: s.status,
            ...(s.sourceFile ? { sourceFile: s.sourceFile, sourceLine: s.sourceLine ?? 1 } : {}),
          }));
      }
      const searchType = byName.has(trimmed) ? 'exact' : 'fts';
      const output = await service.search({ query: trimmed.slice(0, 500), search_type: searchType, limit: Math.min(limit, 20) }, context());
      const fallback = output.note && /fallback|regex/i.test(output.note) ? ' (fallback)' : '';
      return output.skills.map((hit): RankedResult => {
        const known = byName.get(hit.name);
        return {
          name: hit.name,
          ...(hit.title ? { title: hit.title } : {}),
          description: hit.trigger,
          score: hit.score,
          matchType: `${output.search_type}${fallback}`,
          loadingMode: known?.status ?? 'active',
          ...(known?.sourceFile ? { sourceFile: known.sourceFile, sourceLine: known.sourceLine ?? 1 } : {}),
        };
      });
    },
  };
}

/**
 * Tool search for the palette: `tool_search` in a throwaway run (always-loaded tools included).
 * `syncCatalog` re-reads `vscode.lm.tools` first (the catalog is synced lazily, before use).
 */
export function toolSearchProvider(tools: ToolSearchService, syncCatalog: () => unknown = () => undefined): ToolSearchProvider {
  return {
    async search(query, limit) {
      syncCatalog();
      const trimmed = query.trim();
      if (!trimmed) {
        return tools
          .registry()
          .slice()
          .sort((a, b) => a.name.localeCompare(b.name))
          .slice(0, 200)
          .map((t): RankedResult => ({
            name: t.name,
            description: t.description,
            score: 0,
            matchType: 'list',
            loadingMode: t.loadingMode,
          }));
      }
      const registry = new Set(tools.registry().map((t) => t.name));
      // A person searching: nothing is activated, and a session id keeps session scope satisfied.
      const result = await tools.withRun({ sessionId: PALETTE_SESSION }, (run) =>
        run.search(
          {
            query: trimmed.slice(0, 500),
            search_type: registry.has(trimmed) ? 'exact' : 'fts',
            limit: Math.min(limit, 20),
            include_always_loaded: true,
          },
          { activate: false },
        ),
      );
      if (!result.ok) throw new Error(result.error);
      return result.output.tools.map((hit): RankedResult => ({
        name: hit.name,
        description: hit.description,
        score: hit.score,
        matchType: hit.match_type,
        loadingMode: hit.loading_mode,
      }));
    },
    async details(name): Promise<ToolDetails | undefined> {
      syncCatalog();
      const record = tools.registry().find((t) => t.name === name);
      if (!record) return undefined;
      return {
        name: record.name,
        description: record.description,
        inputSchema: record.inputSchema,
        examples: record.examples.map((e) => ({ args: e.args, ...(e.description ? { description: e.description } : {}) })),
        loadingMode: record.loadingMode,
        namespace: record.namespace,
        sideEffects: record.sideEffects,
        ...(record.source ? { source: record.source } : {}),
        tags: record.tags,
      };
    },
  };
}
