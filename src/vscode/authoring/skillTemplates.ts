import { AGENT_SKILL_NAME_PATTERN, SKILL_NAME_PATTERN } from '../../core/skills/skillSchema';
import { skillFilePath } from '../../core/skills/packs/document/skillFileNames';

/** Templates for "Toolshed: New Skill…" (pure). Each one parses as a valid skill (unit-tested). */

export type NewSkillFormat = 'skill-md' | 'md' | 'yaml' | 'json';

export interface NewSkillFormatInfo {
  readonly format: NewSkillFormat;
  readonly label: string;
  readonly detail: string;
}

export const NEW_SKILL_FORMATS: readonly NewSkillFormatInfo[] = [
  { format: 'skill-md', label: 'SKILL.md folder (agentskills.io)', detail: '<name>/SKILL.md — also read by VS Code, Copilot and Claude' },
  { format: 'md', label: 'Markdown skill (*.skill.md)', detail: 'Frontmatter with trigger and steps, Markdown body' },
  { format: 'yaml', label: 'YAML skill (*.skill.yaml)', detail: 'All fields in YAML, validated by the JSON Schema' },
  { format: 'json', label: 'JSON skill (*.skill.json)', detail: 'All fields in JSON, validated by the JSON Schema' },
];

/** `undefined` when the name is fine for the format, else the message to show. */
export function validateNewSkillName(name: string, format: NewSkillFormat): string | undefined {
  if (!name.trim()) return 'Enter a name.';
  if (format === 'skill-md') {
    if (name.length > 64) return 'At most 64 characters.';
    if (!AGENT_SKILL_NAME_PATTERN.test(name)) return 'Use lowercase letters, digits and single hyphens, e.g. `write-tests` (it becomes the folder name).';
    return undefined;
  }
  if (!SKILL_NAME_PATTERN.test(name)) return 'Use letters, digits, `.`, `_` and `-`, starting with a letter or digit (at most 128 characters).';
  return undefined;
}

/** Path of the new file relative to the chosen folder. */
export function newSkillRelativePath(name: string, format: NewSkillFormat): string {
  return skillFilePath(name, format);
}

function titleOf(name: string): string {
  const words = name.replace(/[._-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The YAML fields of a step-based skill (a `.skill.yaml` file, or a `.skill.md` frontmatter). */
function stepBasedFields(name: string, title: string): string[] {
  return [
    `name: ${name}`,
    `title: ${title}`,
    `trigger: When the user asks to ${title.toLowerCase()}.`,
    'task_type: code',
    'tags:',
    '  - example',
    'steps:',
    '  - First step.',
    '  - Second step.',
  ];
}

export function newSkillTemplate(name: string, format: NewSkillFormat): string {
  const title = titleOf(name);
  switch (format) {
    case 'skill-md':
      return [
        '---',
        `name: ${name}`,
        `description: ${title}. Use when the user asks to ${title.toLowerCase()}.`,
        '---',
        '',
        `# ${title}`,
        '',
        '## When to use',
        '',
        'Describe the situations this skill is for.',
        '',
        '## Steps',
        '',
        '1. First step.',
        '2. Second step.',
        '',
      ].join('\n');
    case 'md':
      return ['---', ...stepBasedFields(name, title), '---', '', `# ${title}`, '', 'Notes, background and examples for the model.', ''].join('\n');
    case 'yaml':
      return [...stepBasedFields(name, title), ''].join('\n');
    case 'json':
      return `${JSON.stringify(
        {
          name,
          title,
          trigger: `When the user asks to ${title.toLowerCase()}.`,
          task_type: 'code',
          tags: ['example'],
          steps: ['First step.', 'Second step.'],
        },
        null,
        2,
      )}\n`;
  }
}
