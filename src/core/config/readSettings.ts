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
export function readSettings(raw: unknown): { settings: ToolshedSettings; problems: SettingsProblem[]; notices: string[] } {
  const { migrated, notices } = migrateDeprecatedSettings(raw);
  const parsed = parseWithDefaults(migrated);
  return { ...parsed, notices };
}

/**
 * `toolshed.toolSearch.enabled` (boolean) became `toolshed.toolSearch.mode`: `false` means
 * `off`, `true` the default `auto`. An explicit `mode` wins. The user is told to move the value.
 */
function migrateDeprecatedSettings(raw: unknown): { migrated: unknown; notices: string[] } {
  const toolSearch = raw && typeof raw === 'object' ? (raw as Record<string, unknown>).toolSearch : undefined;
  if (!toolSearch || typeof toolSearch !== 'object' || !('enabled' in toolSearch)) return { migrated: raw, notices: [] };
  const { enabled, ...rest } = toolSearch as Record<string, unknown>;
  const explicitMode = 'mode' in rest;
  const mode = explicitMode ? rest.mode : enabled === false ? 'off' : rest.mode;
  const notice = explicitMode
    ? 'toolshed.toolSearch.enabled is deprecated and ignored because toolshed.toolSearch.mode is set; remove it from your settings.'
    : `toolshed.toolSearch.enabled is deprecated: it now reads as toolshed.toolSearch.mode = "${enabled === false ? 'off' : 'auto'}". Set toolshed.toolSearch.mode instead and remove toolshed.toolSearch.enabled.`;
  return { migrated: { ...(raw as object), toolSearch: { ...rest, ...(mode === undefined ? {} : { mode }) } }, notices: [notice] };
}

function parseWithDefaults(raw: unknown): { settings: ToolshedSettings; problems: SettingsProblem[] } {
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
