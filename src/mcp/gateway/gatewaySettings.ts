import { readFileSync } from 'node:fs';
import { readSettings } from '../../core/config/readSettings';
import type { ToolshedSettings } from '../../core/config/settingsSchema';
import { parseJsonWithComments } from '../../core/schema/jsonWithComments';

/**
 * The gateway's settings come from the same file the extension reads: a VS Code `settings.json`
 * (flat keys such as `"toolshed.toolSearch.deny": ["mcp_github_delete_*"]`), or the same keys
 * nested (`{"toolshed": {"toolSearch": {…}}}`). Only `toolshed.*` keys are read; a bad value
 * falls back to its default with a problem line, as in the extension.
 */

export interface GatewaySettings {
  settings: ToolshedSettings;
  problems: string[];
}

export function gatewaySettingsFromText(text: string, fileName: string): GatewaySettings {
  const data = parseJsonWithComments(text);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { settings: readSettings({}).settings, problems: [`${fileName}: not a JSON object; the default settings are used`] };
  }
  const nested: Record<string, unknown> = {};
  const toolshed = (data as Record<string, unknown>).toolshed;
  if (typeof toolshed === 'object' && toolshed !== null && !Array.isArray(toolshed)) Object.assign(nested, structuredClone(toolshed));
  for (const [key, value] of Object.entries(data)) {
    if (!key.startsWith('toolshed.')) continue;
    setPath(nested, key.slice('toolshed.'.length).split('.'), value);
  }
  const { settings, problems, notices } = readSettings(nested);
  return { settings, problems: [...problems.map((p) => `${fileName}: toolshed.${p.key}: ${p.message} (its default is used)`), ...notices] };
}

export function readGatewaySettings(file: string): GatewaySettings {
  try {
    return gatewaySettingsFromText(readFileSync(file, 'utf8'), file);
  } catch (error) {
    return { settings: readSettings({}).settings, problems: [`${file}: cannot be read (${error instanceof Error ? error.message : String(error)})`] };
  }
}

function setPath(target: Record<string, unknown>, keys: readonly string[], value: unknown): void {
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return;
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1];
  if (last && last !== '__proto__' && last !== 'constructor' && last !== 'prototype') node[last] = value;
}
