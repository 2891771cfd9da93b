import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseJsonWithComments } from '../../core/schema/jsonWithComments';
import { serverSlug } from './gatewayNames';

/**
 * The user's other MCP servers, read from the files the runtimes already keep them in:
 * VS Code's `mcp.json` (`{"servers": {…}}`), Copilot CLI's `~/.copilot/mcp-config.json` and
 * Claude Code's `.mcp.json` (both `{"mcpServers": {…}}`). Only stdio servers (a `command`) are
 * started; an HTTP/SSE entry, an entry that needs a prompt (`${input:…}`) or one that would start
 * Toolshed's own gateway again is skipped with a line saying why.
 */

export interface UpstreamSpec {
  /** The key in the config file (`github`, `memory`). */
  name: string;
  /** The server's part of its tools' names (`mcp_<slug>_<tool>`), unique among upstreams. */
  slug: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface UpstreamConfig {
  upstreams: UpstreamSpec[];
  /** One line per entry skipped or field ignored, for stderr. */
  problems: string[];
}

/** Set in every upstream's environment: a gateway started below a gateway starts no upstreams (no fork loop). */
export const GATEWAY_DEPTH_ENV = 'TOOLSHED_GATEWAY_DEPTH';

const MAX_SERVERS = 100;

export interface ParseOptions {
  /** Folder relative `cwd`s and `${workspaceFolder}` resolve against (default: the file's folder's parent for `.vscode/mcp.json`, else its folder). */
  baseDir: string;
  env?: Readonly<Record<string, string | undefined>>;
}

/** Reads and parses a config file; a missing or unreadable file is one problem, not a throw. */
export function readUpstreamConfig(file: string, env: Readonly<Record<string, string | undefined>> = process.env): UpstreamConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { upstreams: [], problems: [`${file}: cannot be read (${error instanceof Error ? error.message : String(error)})`] };
  }
  const folder = path.dirname(path.resolve(file));
  const baseDir = path.basename(folder) === '.vscode' ? path.dirname(folder) : folder;
  return parseUpstreamConfig(text, file, { baseDir, env });
}

export function parseUpstreamConfig(text: string, fileName: string, options: ParseOptions): UpstreamConfig {
  const data = parseJsonWithComments(text);
  const problems: string[] = [];
  if (!isRecord(data)) return { upstreams: [], problems: [`${fileName}: not JSON (expected {"servers": {…}} or {"mcpServers": {…}})`] };
  const servers = isRecord(data.mcpServers) ? data.mcpServers : isRecord(data.servers) ? data.servers : undefined;
  if (!servers) return { upstreams: [], problems: [`${fileName}: no "servers" or "mcpServers" object`] };
  const upstreams: UpstreamSpec[] = [];
  const slugs = new Set<string>();
  for (const [name, entry] of Object.entries(servers)) {
    if (upstreams.length >= MAX_SERVERS) {
      problems.push(`${fileName}: more than ${MAX_SERVERS} servers; the rest are skipped`);
      break;
    }
    const spec = upstreamOf(name, entry, options, (line) => problems.push(`${fileName}: server "${name}": ${line}`));
    if (!spec) continue;
    let slug = spec.slug;
    for (let n = 2; slugs.has(slug); n++) slug = `${spec.slug}-${n}`;
    slugs.add(slug);
    upstreams.push({ ...spec, slug });
  }
  return { upstreams, problems };
}

function upstreamOf(name: string, entry: unknown, options: ParseOptions, problem: (line: string) => void): UpstreamSpec | undefined {
  if (!isRecord(entry)) return skip(problem, 'not an object');
  if (entry.disabled === true) return skip(problem, 'disabled');
  const type = typeof entry.type === 'string' ? entry.type : undefined;
  if (type !== undefined && type !== 'stdio' && type !== 'local')
    return skip(problem, `type "${type}" is not a local (stdio) server; only stdio servers are started`);
  if (typeof entry.command !== 'string' || entry.command.trim() === '') {
    return skip(problem, typeof entry.url === 'string' ? 'a remote (url) server; only stdio servers are started' : 'no "command"');
  }
  const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string') : [];
  if (Array.isArray(entry.args) && args.length !== entry.args.length) problem('non-string "args" entries ignored');
  const env: Record<string, string> = {};
  if (isRecord(entry.env)) for (const [key, value] of Object.entries(entry.env)) if (typeof value === 'string') env[key] = value;
  const raw = [entry.command, ...args, ...Object.values(env), typeof entry.cwd === 'string' ? entry.cwd : ''];
  if (raw.some((text) => /\$\{input:/.test(text))) return skip(problem, 'needs a value VS Code prompts for (${input:…}); start it from VS Code');
  if (args.includes('--upstream')) return skip(problem, "it is Toolshed's gateway itself");
  const expand = (text: string) => expandVariables(text, options);
  const cwd = typeof entry.cwd === 'string' ? path.resolve(options.baseDir, expand(entry.cwd)) : undefined;
  return {
    name,
    slug: serverSlug(name),
    command: expand(entry.command),
    args: args.map(expand),
    env: Object.fromEntries(Object.entries(env).map(([key, value]) => [key, expand(value)])),
    ...(cwd ? { cwd } : {}),
  };
}

/** `${workspaceFolder}`, `${env:NAME}` (VS Code) and `${NAME}` / `${NAME:-default}` (Claude Code); an unset variable becomes empty. */
function expandVariables(text: string, options: ParseOptions): string {
  const env = options.env ?? {};
  return text.replace(/\$\{([^}]{1,200})\}/g, (whole, inner: string) => {
    if (inner === 'workspaceFolder') return options.baseDir;
    const envMatch = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner);
    if (envMatch) return env[envMatch[1]] ?? '';
    const plain = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/.exec(inner);
    if (plain) return env[plain[1]] ?? plain[2] ?? '';
    return whole;
  });
}

function skip(problem: (line: string) => void, why: string): undefined {
  problem(`skipped: ${why}`);
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
