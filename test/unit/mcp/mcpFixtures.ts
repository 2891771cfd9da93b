import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { tempFolder } from '../../tempFolder';

/** The CLI bundle the tests run, as a runtime would (`node dist/cli.js mcp …`). */
export const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

/** A GitHub token in a skill's body and in one of its files: no answer may carry it. */
export const SECRET = 'ghp_4fK9xQ2mZ7pL1sV8bN3cR6tY0wE5uI2oA9dH';
/** Text outside every skill folder, reachable only through links planted in one. */
export const OUTSIDE_TEXT = 'outside-the-skill-folder';

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/**
 * A pack folder of SKILL.md skills: `release-notes` (a secret in its body and in
 * references/format.md, a script, a file link and a folder link out of its folder) and
 * `db-migrate`. Returns the pack folder.
 */
export function writeSkillPack(): string {
  const root = tempFolder('toolshed-mcp-');
  const pack = path.join(root, 'skills');
  const outside = path.join(root, 'outside');
  write(path.join(outside, 'secret.txt'), `${OUTSIDE_TEXT}\n`);
  write(
    path.join(pack, 'release-notes', 'SKILL.md'),
    [
      '---',
      'name: release-notes',
      'description: Write the release notes of a new version from the merged pull requests and the changelog.',
      '---',
      '',
      '1. List the pull requests merged since the last tag.',
      `2. Publish with the token ${SECRET} only from CI.`,
      '3. Follow references/format.md for the layout.',
      '',
    ].join('\n'),
  );
  write(path.join(pack, 'release-notes', 'references', 'format.md'), `# Format\n\nOne line per change. Never paste ${SECRET} here.\n`);
  write(path.join(pack, 'release-notes', 'scripts', 'collect.sh'), '#!/bin/sh\ngit log --merges --oneline "$1"..HEAD\n');
  symlinkSync(path.join(outside, 'secret.txt'), path.join(pack, 'release-notes', 'references', 'leak.md'));
  symlinkSync(outside, path.join(pack, 'release-notes', 'assets'), 'dir');
  write(
    path.join(pack, 'db-migrate', 'SKILL.md'),
    [
      '---',
      'name: db-migrate',
      'description: Plan and run a database schema migration without downtime.',
      '---',
      '',
      'Write the migration, run it against a copy of production, then deploy it behind a flag.',
      '',
    ].join('\n'),
  );
  return pack;
}

/** A real client on `node dist/cli.js mcp …args`, its stderr kept for failure messages. */
export async function startCliServer(args: string[], env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string; pid: number }> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (node esbuild.mjs)`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    stderr: 'pipe',
    env: { ...getDefaultEnvironment(), ...env },
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'toolshed-test', version: '1.0.0' });
  await client.connect(transport);
  if (!transport.pid) throw new Error('the server process has no pid');
  return { client, stderr: () => stderr, pid: transport.pid };
}

/** The text of a tool result (its text parts joined). */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content ?? [];
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}
