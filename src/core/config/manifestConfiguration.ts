import { toolshedSettingsSchema } from './settingsSchema';
import { zodJsonSchema } from '../schema/zodSchemas';

/** Settings UI sections, one per nested object of the schema, in display order. */
const SECTIONS: Array<{ path: string[]; title: string }> = [
  { path: ['toolSearch'], title: 'Tool Search' },
  { path: ['tools'], title: 'Tools' },
  { path: ['toolExamples'], title: 'Tool Use Examples' },
  { path: ['skills'], title: 'Skills' },
  { path: ['skills', 'directory'], title: 'Skill Directory' },
  { path: ['learning'], title: 'Learning' },
  { path: ['scope'], title: 'Scope' },
  { path: ['embeddings'], title: 'Embeddings' },
];

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  description?: string;
  default?: unknown;
  [key: string]: unknown;
};

/**
 * Builds the `contributes.configuration` array for package.json: every leaf setting becomes
 * `toolshed.<section>.<key>` with its type, default, enum, bounds and description.
 */
export function buildConfigurationContribution(): Array<{ id: string; title: string; properties: Record<string, unknown> }> {
  const root = zodJsonSchema(toolshedSettingsSchema, 'settings') as JsonSchema;
  let order = 1;
  return SECTIONS.map((section) => {
    let node: JsonSchema | undefined = root;
    for (const key of section.path) node = node?.properties?.[key];
    const properties: Record<string, unknown> = {};
    for (const [key, schema] of Object.entries(node?.properties ?? {})) {
      const isSubSection = SECTIONS.some((s) => s.path.join('.') === [...section.path, key].join('.'));
      if (isSubSection) continue;
      properties[`toolshed.${[...section.path, key].join('.')}`] = toSetting(schema, order++);
    }
    return { id: `toolshed.${section.path.join('.')}`, title: `Toolshed: ${section.title}`, properties };
  });
}

function toSetting(schema: JsonSchema, order: number): Record<string, unknown> {
  const { description, $schema: _ignored, ...rest } = schema;
  const setting: Record<string, unknown> = { ...rest, order };
  if (description) setting.markdownDescription = description;
  return setting;
}
