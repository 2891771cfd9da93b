import { agentSkillFrontmatterJsonSchema, skillFileJsonSchema } from '../../core/skills/skillSchema';
import type { SkillFileKind } from './skillFileKinds';

/**
 * Field documentation for completions and hovers, read from the JSON Schema generated from the
 * zod skill schema — so every `.describe()` text has one source.
 */

export interface FieldDoc {
  readonly key: string;
  readonly description: string;
  /** `string`, `list`, `boolean`, `map`, `string | list`, … */
  readonly type: string;
  readonly enumValues?: readonly string[];
  readonly required: boolean;
  /** Shape of the value for snippets. */
  readonly valueShape: 'scalar' | 'list' | 'map' | 'boolean';
}

interface JsonSchemaNode {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  additionalProperties?: unknown;
}

function typeOf(node: JsonSchemaNode): string {
  if (node.enum) return 'string';
  if (node.anyOf) return [...new Set(node.anyOf.map(typeOf))].join(' | ');
  const type = Array.isArray(node.type) ? node.type.join(' | ') : node.type;
  if (type === 'array') return `list of ${node.items ? typeOf(node.items) : 'values'}`;
  if (type === 'object') return 'map';
  return type ?? 'any';
}

function shapeOf(node: JsonSchemaNode): FieldDoc['valueShape'] {
  if (node.type === 'array') return 'list';
  if (node.type === 'object') return 'map';
  if (node.type === 'boolean') return 'boolean';
  if (node.anyOf?.every((n) => n.type === 'array')) return 'list';
  return 'scalar';
}

function fieldsFrom(schema: Record<string, unknown>): FieldDoc[] {
  const root = schema as JsonSchemaNode;
  const required = new Set(root.required ?? []);
  return Object.entries(root.properties ?? {}).map(([key, node]) => ({
    key,
    description: node.description ?? '',
    type: typeOf(node),
    ...(node.enum ? { enumValues: node.enum.map(String) } : {}),
    required: required.has(key),
    valueShape: shapeOf(node),
  }));
}

/** Fields of a format, in schema order. Step-based formats and SKILL.md differ in rules. */
export function fieldDocs(kind: SkillFileKind): readonly FieldDoc[] {
  return fieldsFrom(kind === 'skill-md' ? agentSkillFrontmatterJsonSchema() : skillFileJsonSchema());
}

export function fieldDoc(kind: SkillFileKind, key: string): FieldDoc | undefined {
  return fieldDocs(kind).find((f) => f.key === key);
}

/** Markdown for a hover on a field key. */
export function fieldHoverMarkdown(doc: FieldDoc): string {
  const lines = [`**\`${doc.key}\`** — ${doc.type}${doc.required ? ' (required)' : ''}`, doc.description];
  if (doc.enumValues) lines.push(`Values: ${doc.enumValues.map((v) => `\`${v}\``).join(', ')}`);
  return lines.filter(Boolean).join('\n\n');
}
