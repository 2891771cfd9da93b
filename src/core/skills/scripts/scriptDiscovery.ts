import * as path from 'node:path';
import type { FileSystemPort } from '../../platform/ports';
import { allowedToolsPermit } from './allowedTools';
import { DEFAULT_SCRIPT_SCHEMA, INTERPRETERS, headerDescription, kindFromExtension, readScriptEntries } from './scriptInterface';
import type { ScriptKind } from './scriptInterface';
import { assignScriptToolNames } from './scriptNaming';
import { checkScriptText } from './scriptStaticCheck';
import type { ScriptRisk } from './scriptStaticCheck';

/**
 * Finds the runnable files in each SKILL.md folder's `scripts/` and turns them into tool
 * descriptions. Defensive like the pack scanner: links are never followed (a link could point
 * out of the skill folder), a non-runnable file is reported, a skill offers at most
 * MAX_SCRIPTS_PER_SKILL tools, and no problem stops the other scripts from loading.
 */

export const MAX_SCRIPTS_PER_SKILL = 50;
/** Larger scripts still run; their text is not read for a description or the static check. */
const MAX_INSPECTED_BYTES = 512 * 1024;
/** Files that sit in scripts/ as documentation and are skipped without a warning. */
const QUIET_EXTENSIONS = /\.(md|txt|rst|json|ya?ml|toml|lock|pyc)$/i;

/** File access for discovery: the read-only port plus whether a file has an executable bit. */
export interface ScriptFileSystem extends FileSystemPort {
  isExecutable(file: string): Promise<boolean>;
}

export interface SkillScriptSource {
  skillName: string;
  /** Absolute path of SKILL.md (diagnostics attach to it). */
  skillFile: string;
  allowedTools: readonly string[];
  requires: readonly string[];
  /** The frontmatter `scripts:` value as parsed (validated here). */
  scriptsFrontmatter?: unknown;
}

export interface SkillScriptTool {
  toolName: string;
  skillName: string;
  skillFolder: string;
  skillFile: string;
  /** Absolute path of the script. */
  file: string;
  /** `scripts/<file>`. */
  relativePath: string;
  kind: ScriptKind;
  /** Program to start: `python3`, `node`, `sh`, or the script itself (resolved on PATH at run time). */
  interpreter: string;
  description: string;
  inputSchema: Readonly<Record<string, unknown>>;
  /** True when the schema came from a `scripts:` entry (input properties become `--name value`). */
  declaredSchema: boolean;
  risks: ScriptRisk[];
  allowedTools: readonly string[];
  requires: readonly string[];
}

export interface ScriptProblem {
  skillName: string;
  skillFile: string;
  /** The script concerned ('' for the skill as a whole). */
  file: string;
  severity: 'warning' | 'error';
  message: string;
}

export interface ScriptCatalog {
  tools: SkillScriptTool[];
  problems: ScriptProblem[];
}

interface Candidate {
  skillName: string;
  fileName: string;
  source: SkillScriptSource;
  kind: ScriptKind;
  file: string;
  description: string;
  inputSchema: Readonly<Record<string, unknown>>;
  declaredSchema: boolean;
  risks: ScriptRisk[];
}

/**
 * Every script tool of `skills`, named `<skill>_<script>` without taking a name in
 * `existingToolNames`. Skills are processed in name order so names are stable.
 */
export async function discoverScriptTools(
  fs: ScriptFileSystem,
  skills: readonly SkillScriptSource[],
  existingToolNames: ReadonlySet<string>,
): Promise<ScriptCatalog> {
  const problems: ScriptProblem[] = [];
  const candidates: Candidate[] = [];
  const ordered = [...skills].sort((a, b) => (a.skillName < b.skillName ? -1 : a.skillName > b.skillName ? 1 : 0));
  for (const source of ordered) candidates.push(...(await discoverSkill(fs, source, problems)));

  const { named, collisions, unnamed } = assignScriptToolNames(candidates, existingToolNames);
  for (const { request, name, takenBy } of collisions) {
    problems.push(
      problemOf(
        request.source,
        request.file,
        'warning',
        `scripts/${request.fileName} is not offered as a tool: its name \`${name}\` is already taken by ${takenBy}. Rename the script.`,
      ),
    );
  }
  for (const request of unnamed) {
    problems.push(
      problemOf(
        request.source,
        request.file,
        'warning',
        `scripts/${request.fileName} is not offered: no usable tool name can be made from it. Use letters, digits, \`_\` or \`-\`.`,
      ),
    );
  }
  const tools: SkillScriptTool[] = [];
  for (const { request, name } of named) {
    const relativePath = `scripts/${request.fileName}`;
    const interpreter = request.kind === 'executable' ? request.file : INTERPRETERS[request.kind];
    if (!allowedToolsPermit(request.source.allowedTools, { toolName: name, relativePath, interpreter })) {
      problems.push(
        problemOf(
          request.source,
          request.file,
          'warning',
          `${relativePath} is not offered: the skill's \`allowed-tools\` (${request.source.allowedTools.join(' ')}) does not include \`${name}\`, \`${relativePath}\` or \`Bash(${interpreter.split('/').pop()}:*)\`.`,
        ),
      );
      continue;
    }
    for (const risk of request.risks) {
      problems.push(
        problemOf(
          request.source,
          request.file,
          'warning',
          `${relativePath} ${risk.message} (line ${risk.line}: \`${risk.evidence}\`). This is a pattern check, not a guarantee; review the script before allowing it to run.`,
        ),
      );
    }
    tools.push({
      toolName: name,
      skillName: request.skillName,
      skillFolder: path.dirname(request.source.skillFile),
      skillFile: request.source.skillFile,
      file: request.file,
      relativePath,
      kind: request.kind,
      interpreter,
      description: request.description,
      inputSchema: request.inputSchema,
      declaredSchema: request.declaredSchema,
      risks: request.risks,
      allowedTools: request.source.allowedTools,
      requires: request.source.requires,
    });
  }
  return { tools, problems };
}

/**
 * Why `file` must not run: a symbolic link at any level between the skill folder and the file
 * (the `scripts/` folder included), or a file that is no longer a regular file; undefined when it
 * may. Discovery checks this, and the runner checks it again right before a run, because the
 * folder can be swapped for a link after discovery.
 */
export async function linkedScriptPath(fs: FileSystemPort, skillFolder: string, file: string): Promise<string | undefined> {
  const parts = path.relative(skillFolder, file).split(path.sep);
  if (parts.some((part) => part === '..' || part === '') || path.isAbsolute(parts[0] ?? '')) return `${file} is not inside the skill folder ${skillFolder}.`;
  let current = skillFolder;
  for (const [i, part] of parts.entries()) {
    current = path.join(current, part);
    const stat = await fs.stat(current).catch(() => undefined);
    const shown = parts.slice(0, i + 1).join('/');
    if (!stat) return `${shown} does not exist.`;
    if (stat.kind === 'symlink') return `${shown} is a symbolic link: links are not followed inside a skill (they could point out of the skill folder).`;
    if (i < parts.length - 1 ? stat.kind !== 'directory' : stat.kind !== 'file')
      return `${shown} is not a ${i < parts.length - 1 ? 'folder' : 'regular file'}.`;
  }
  return undefined;
}

async function discoverSkill(fs: ScriptFileSystem, source: SkillScriptSource, problems: ScriptProblem[]): Promise<Candidate[]> {
  const folder = path.join(path.dirname(source.skillFile), 'scripts');
  const { entries: declared, problems: entryProblems } = readScriptEntries(source.scriptsFrontmatter);
  for (const message of entryProblems) problems.push(problemOf(source, '', 'warning', message));
  const folderStat = await fs.stat(folder).catch(() => undefined);
  if (folderStat?.kind === 'symlink') {
    problems.push(
      problemOf(
        source,
        folder,
        'warning',
        'scripts/ is a symbolic link, so none of its files are offered as tools: links are not followed at any level inside a skill (they could point out of the skill folder). Make scripts/ a real folder holding the scripts.',
      ),
    );
    return [];
  }
  // No scripts/ at all: nothing to offer, but a `scripts:` entry still names a missing file (below).
  const entries = !folderStat
    ? []
    : await fs.readDirectory(folder).catch((error: unknown) => {
        problems.push(problemOf(source, folder, 'warning', `scripts/ could not be read: ${error instanceof Error ? error.message : String(error)}`));
        return undefined;
      });
  if (!entries) return [];
  const sorted = entries.filter((e) => !e.name.startsWith('.') && !/[\\/\u0000]/.test(e.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: Candidate[] = [];
  let skipped = 0;
  for (const entry of sorted) {
    const file = path.join(folder, entry.name);
    if (entry.kind === 'symlink') {
      problems.push(
        problemOf(
          source,
          file,
          'warning',
          `scripts/${entry.name} is a symbolic link and is not offered: links are not followed (they could point out of the skill folder). Copy the script into scripts/ instead.`,
        ),
      );
      continue;
    }
    if (entry.kind !== 'file') continue;
    const extensionKind = kindFromExtension(entry.name);
    const kind: ScriptKind | undefined = extensionKind ?? ((await fs.isExecutable(file).catch(() => false)) ? 'executable' : undefined);
    if (!kind) {
      if (!QUIET_EXTENSIONS.test(entry.name)) {
        problems.push(
          problemOf(
            source,
            file,
            'warning',
            `scripts/${entry.name} is not offered: it is not a .py, .js, .mjs or .sh file and not executable. Give it one of those extensions or make it executable (chmod +x).`,
          ),
        );
      }
      continue;
    }
    if (out.length >= MAX_SCRIPTS_PER_SKILL) {
      skipped++;
      continue;
    }
    const stat = await fs.stat(file).catch(() => undefined);
    let text = '';
    if (stat && stat.size <= MAX_INSPECTED_BYTES) {
      const bytes = await fs.readFile(file).catch(() => undefined);
      text = bytes && !bytes.subarray(0, 4096).includes(0) ? new TextDecoder('utf-8').decode(bytes) : '';
    }
    const entrySpec = declared.get(entry.name);
    const description = entrySpec?.description?.trim() || headerDescription(text) || `Runs scripts/${entry.name} of the skill ${source.skillName}.`;
    out.push({
      skillName: source.skillName,
      fileName: entry.name,
      source,
      kind,
      file,
      description: `${description}\n(Script of the skill \`${source.skillName}\`; runs only after the user confirms.)`,
      inputSchema: entrySpec?.args ?? DEFAULT_SCRIPT_SCHEMA,
      declaredSchema: entrySpec?.args !== undefined,
      risks: text ? checkScriptText(text) : [],
    });
  }
  if (skipped > 0) {
    problems.push(
      problemOf(
        source,
        folder,
        'warning',
        `This skill has more than ${MAX_SCRIPTS_PER_SKILL} scripts; ${skipped} were not offered as tools. Split it into smaller skills.`,
      ),
    );
  }
  for (const file of declared.keys()) {
    if (!sorted.some((e) => e.name === file)) problems.push(problemOf(source, '', 'warning', `\`scripts\` lists ${file}, but scripts/${file} does not exist.`));
  }
  return out;
}

function problemOf(source: SkillScriptSource, file: string, severity: ScriptProblem['severity'], message: string): ScriptProblem {
  return { skillName: source.skillName, skillFile: source.skillFile, file, severity, message };
}
