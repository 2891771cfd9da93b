import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpSkillSource } from './skillAccess';
import { MAX_SKILL_TOKENS, safeText } from './skillAccess';

/**
 * Skills as MCP resources, after "Skills over MCP" (SEP-2640, extension
 * `io.modelcontextprotocol/skills`): each skill's instructions are `skill://<name>/SKILL.md` and
 * each supporting file `skill://<name>/<path>`, read with `resources/read`; `resources/list` and
 * the extension's `skills/list` enumerate the skills this request may see, and `skills/get`
 * answers for one by URI. Everything served goes through the same source as the tools (filters,
 * budget, redaction, tool gate), so a `SKILL.md` here is generated from what `read_skill` returns,
 * not the file on disk: its entries carry no digests (the extension allows that for generated
 * content).
 */

const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
/** The most skills `resources/list` and one `skills/list` page enumerate; the rest stay readable by URI and found with search. */
const MAX_LISTED_SKILLS = 1000;
const SKILLS_PAGE_SIZE = 100;

function skillUri(name: string, file = 'SKILL.md'): string {
  return `skill://${encodeURIComponent(name)}/${file.split('/').map(encodeURIComponent).join('/')}`;
}

/** `skill://<name>/<file>` → its parts, or undefined when the URI is not one of a skill's. */
function parseSkillUri(uri: string): { name: string; file: string } | undefined {
  const match = /^skill:\/\/([^/?#]+)\/([^?#]+)$/.exec(uri);
  if (!match?.[1] || !match[2]) return undefined;
  try {
    return { name: decodeURIComponent(match[1]), file: match[2].split('/').map(decodeURIComponent).join('/') };
  } catch {
    return undefined;
  }
}

/** A generated `SKILL.md`: frontmatter with the name and description (JSON strings are YAML), then the instructions. */
function skillMarkdown(name: string, description: string, body: string): string {
  return `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(description)}\n---\n\n${body}\n`;
}

function mimeTypeOf(file: string): string {
  if (/\.(md|markdown)$/i.test(file)) return 'text/markdown';
  if (/\.json$/i.test(file)) return 'application/json';
  return 'text/plain';
}

const skillsListRequest = z.object({
  method: z.literal('skills/list'),
  params: z
    .object({ cursor: z.string().max(20).optional() })
    .loose()
    .optional(),
});
const skillsGetRequest = z.object({
  method: z.literal('skills/get'),
  params: z.object({ uri: z.string().max(2000) }).loose(),
});

export function registerSkillResources(server: McpServer, source: McpSkillSource): void {
  const read = async (uri: URL): Promise<ReadResourceResult> => {
    const parsed = parseSkillUri(uri.href);
    if (!parsed) throw new McpError(ErrorCode.InvalidParams, `Not a skill resource: ${safeText(uri.href.slice(0, 300))}`);
    if (parsed.file === 'SKILL.md') {
      const answer = await source.read(parsed.name, MAX_SKILL_TOKENS);
      if (!answer.ok) throw new McpError(ErrorCode.InvalidParams, answer.message);
      const { skill } = answer;
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: skillMarkdown(skill.name, skill.description, skill.markdown) }] };
    }
    const file = await source.readFile(parsed.name, parsed.file);
    if (!file.ok) throw new McpError(ErrorCode.InvalidParams, file.message);
    return { contents: [{ uri: uri.href, mimeType: mimeTypeOf(parsed.file), text: file.text }] };
  };

  server.registerResource(
    'skill',
    new ResourceTemplate('skill://{skill}/{+file}', {
      list: async () => ({
        resources: (await source.list(MAX_LISTED_SKILLS)).map((skill) => ({
          uri: skillUri(skill.name),
          name: skill.name,
          description: skill.description,
          mimeType: 'text/markdown',
        })),
      }),
    }),
    {
      title: 'Toolshed skill',
      description: "A skill's instructions (skill://<name>/SKILL.md) or one of its supporting files (skill://<name>/<path>).",
    },
    (uri) => read(uri),
  );

  // The extension's own methods: the SDK has no helper for them, so they are plain request handlers.
  server.server.registerCapabilities({ extensions: { [SKILLS_EXTENSION]: {} } });
  server.server.setRequestHandler(skillsListRequest, async (request) => {
    const start = Number(request.params?.cursor ?? 0);
    if (!Number.isInteger(start) || start < 0) throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
    const all = await source.list(Math.min(MAX_LISTED_SKILLS, start + SKILLS_PAGE_SIZE + 1));
    const page = all.slice(start, start + SKILLS_PAGE_SIZE);
    const more = all.length > start + SKILLS_PAGE_SIZE && start + SKILLS_PAGE_SIZE < MAX_LISTED_SKILLS;
    return {
      skills: page.map((skill) => ({ uri: skillUri(skill.name), frontmatter: { name: skill.name, description: skill.description } })),
      ...(more ? { nextCursor: String(start + SKILLS_PAGE_SIZE) } : {}),
    };
  });
  server.server.setRequestHandler(skillsGetRequest, async (request) => {
    const parsed = parseSkillUri(request.params.uri);
    if (!parsed || parsed.file !== 'SKILL.md') throw new McpError(ErrorCode.InvalidParams, 'Not the URI of a skill (skill://<name>/SKILL.md)');
    const answer = await source.read(parsed.name, 200, false);
    if (!answer.ok) throw new McpError(ErrorCode.InvalidParams, answer.message);
    return { skill: { uri: skillUri(answer.skill.name), frontmatter: { name: answer.skill.name, description: answer.skill.description } } };
  });
}
