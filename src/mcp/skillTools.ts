import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MCP_READ_SKILL_FILE_TOOL_NAME, MCP_READ_SKILL_TOOL_NAME, MCP_SEARCH_SKILLS_TOOL_NAME } from '../core/platform/toolNames';
import { MAX_FILE_CHARS } from './skillFiles';
import type { McpSkillSource } from './skillAccess';
import { MAX_SKILL_TOKENS, safeText } from './skillAccess';

/**
 * The three skill tools, in the order of progressive disclosure: `search_skills` (name, what it
 * is for, relevance), `read_skill` (the instructions), `read_skill_file` (one supporting file).
 * Their descriptions are what a model reads to decide whether to call them. Input is checked by
 * the SDK against these zod shapes (a wrong type, a huge string: an error result, the server
 * keeps serving); whatever else goes wrong in a call becomes an error result too.
 */

/** A skill name as Toolshed stores them (pack names are `pack.<pack>.<file>` at most a few hundred characters). */
const skillName = z.string().min(1).max(200);

const searchShape = {
  query: z
    .string()
    .min(1)
    .max(20_000)
    .describe('The task in plain words; the whole request is a good query (e.g. "write a commit message for the staged changes").'),
  limit: z.number().int().min(1).max(20).default(5).describe('How many skills at most (1–20, default 5).'),
};

const readShape = {
  name: skillName.describe(`A skill name, as ${MCP_SEARCH_SKILLS_TOOL_NAME} returned it.`),
  max_tokens: z.number().int().min(200).max(MAX_SKILL_TOKENS).default(2000).describe(`Token budget of the answer (200–${MAX_SKILL_TOKENS}, default 2000).`),
};

const fileShape = {
  name: skillName.describe(`The skill's name, as ${MCP_SEARCH_SKILLS_TOOL_NAME} returned it.`),
  file: z.string().min(1).max(500).describe(`A path from the skill's file list in ${MCP_READ_SKILL_TOOL_NAME}'s answer, e.g. "references/guide.md".`),
};

export function registerSkillTools(server: McpServer, source: McpSkillSource): void {
  server.registerTool(
    MCP_SEARCH_SKILLS_TOOL_NAME,
    {
      title: 'Search skills',
      description: [
        "Find skills — the user's and team's playbooks for tasks like this one — before you start a task they may cover.",
        'Give the task in plain words. Returns the matching skills, best first, each with its name, what it is for and its relevance (0–1);',
        `returns none when no skill applies (then go on without one). Read a skill's instructions with ${MCP_READ_SKILL_TOOL_NAME}.`,
      ].join(' '),
      inputSchema: searchShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const found = await source.search(args.query, args.limit);
        if (found.length === 0) return text(`No skill applies to this request. Go on without one.`);
        const lines = found.map((skill, i) => {
          const relevance = skill.relevance === undefined ? '' : ` (relevance ${skill.relevance.toFixed(2)})`;
          const copies = skill.nearCopies?.length ? ` [near-copies left out: ${skill.nearCopies.join(', ')}]` : '';
          return `${i + 1}. ${skill.name} — ${skill.description}${relevance}${copies}`;
        });
        return text(
          [`${found.length} skill${found.length === 1 ? '' : 's'}, best first:`, ...lines, '', `Read one with ${MCP_READ_SKILL_TOOL_NAME} {"name": "…"}.`].join(
            '\n',
          ),
        );
      }),
  );

  server.registerTool(
    MCP_READ_SKILL_TOOL_NAME,
    {
      title: 'Read a skill',
      description: [
        `Read one skill's instructions (a name from ${MCP_SEARCH_SKILLS_TOOL_NAME}): when to use it, its steps, preconditions, failure modes and body, within a token budget,`,
        `and the paths of its supporting files. Follow them for the task at hand; read a file with ${MCP_READ_SKILL_FILE_TOOL_NAME} only when the instructions need it.`,
      ].join(' '),
      inputSchema: readShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const read = await source.read(args.name, args.max_tokens);
        if (!read.ok) return failure(read.message);
        const files = read.skill.files.length
          ? `\n\nFiles of this skill (read one with ${MCP_READ_SKILL_FILE_TOOL_NAME} {"name": "${read.skill.name}", "file": "…"}):\n${read.skill.files.map((f) => `- ${f}`).join('\n')}`
          : '';
        return text(`${read.skill.markdown}${files}`);
      }),
  );

  server.registerTool(
    MCP_READ_SKILL_FILE_TOOL_NAME,
    {
      title: 'Read a file of a skill',
      description: [
        `Read one supporting file of a skill (a path from ${MCP_READ_SKILL_TOOL_NAME}'s file list, e.g. references/guide.md or scripts/check.sh).`,
        `Returns its text, at most ${MAX_FILE_CHARS.toLocaleString('en-US')} characters. Nothing runs: a script comes back as text to read.`,
      ].join(' '),
      inputSchema: fileShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const read = await source.readFile(args.name, args.file);
        if (!read.ok) return failure(read.message);
        return text(read.truncated ? `${read.text}\n\n[cut at ${MAX_FILE_CHARS} characters of ${read.bytes} bytes]` : read.text);
      }),
  );
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Any failure inside a call is the model's error result (redacted), never a dead server. */
async function answer(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return failure(`Toolshed could not answer: ${safeText(error instanceof Error ? error.message : String(error)).slice(0, 500)}`);
  }
}
