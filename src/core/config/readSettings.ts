import { toolshedSettingsSchema, type ToolshedSettings } from './settingsSchema';

export interface SettingsProblem {
  /** Dotted setting key, e.g. `toolSearch.maxSearchResults`. */
  key: string;
  message: string;
}

/**
 * Parses raw settings (possibly user-edited, possibly wrong) into typed settings.
 * A bad value never breaks the extension: that one key falls back to its default and a
 * problem is reported so the caller can tell the user which setting to fix.
 */
export function readSettings(raw: unknown): { settings: ToolshedSettings; problems: SettingsProblem[] } {
  const first = toolshedSettingsSchema.safeParse(raw ?? {});
  if (first.success) return { settings: first.data, problems: [] };

  const problems: SettingsProblem[] = first.error.issues.map((issue) => ({
    key: issue.path.join('.'),
    message: issue.message,
  }));
  const cleaned = structuredClone(raw ?? {}) as Record<string, unknown>;
  for (const issue of first.error.issues) removePath(cleaned, issue.path.map(String));
  const second = toolshedSettingsSchema.safeParse(cleaned);
  return { settings: second.success ? second.data : toolshedSettingsSchema.parse({}), problems };
}

/** Deletes the offending leaf; for an element of an array, drops the whole array so it defaults. */
function removePath(target: Record<string, unknown>, path: string[]): void {
  let node: unknown = target;
  for (let i = 0; i < path.length - 1; i++) {
    if (node === null || typeof node !== 'object') return;
    const next = (node as Record<string, unknown>)[path[i]];
    if (Array.isArray(next)) {
      delete (node as Record<string, unknown>)[path[i]];
      return;
    }
    node = next;
  }
  if (node !== null && typeof node === 'object' && path.length > 0) {
    delete (node as Record<string, unknown>)[path[path.length - 1]];
  }
}
