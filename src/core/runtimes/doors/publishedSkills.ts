import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { skillRecordSchema } from '../../skills/skillSchema';
import type { SkillRecord } from '../../skills/skillSchema';
import { skillId } from '../../skills/store/skillRecords';

/**
 * What the extension tells the doors of one workspace: the learned skills its `@toolshed`
 * requests see (approved, active, of this project, this tenant or global) and the skills the user
 * retired in its Ledger view. Those live in the extension's own stores (its workspace storage and
 * `ledger.db`), which a hook or the MCP server cannot find; so the extension writes this file,
 * `extension-skills.json`, into the workspace's door folder whenever either changes, and the doors
 * read it.
 *
 * One writer, many readers, no lock: only the extension writes it, whole, by temp file + rename
 * (a door reads the old file or the new one, never half of one), and the doors never write it.
 * It is a copy: the extension's stores stay the truth, so a lost or damaged file costs the doors
 * their view of it until the next change, never a skill. A door that finds no file leaves its
 * learned skills as they are; a damaged one, as they were at the last good read.
 */

export const PUBLISHED_SKILLS_FILE = 'extension-skills.json';

const FORMAT_VERSION = 1;

const publishedSchema = z.object({
  version: z.literal(FORMAT_VERSION),
  /** The window's project id (its workspace folder, or its `.code-workspace` file). */
  projectId: z.string().optional(),
  /** `toolshed.scope.tenantId`, when set. */
  tenantId: z.string().optional(),
  learned: z.array(skillRecordSchema),
  retired: z.array(z.string()),
});

export type PublishedSkills = Omit<z.infer<typeof publishedSchema>, 'version'>;

/**
 * The extension's side: of every learned skill it holds, those its requests see (active; project
 * scope of this project, tenant scope of this tenant, or global), and the retired names, sorted
 * so the same state is the same text.
 */
export function publishedSkillsOf(
  learned: readonly SkillRecord[],
  retired: Iterable<string>,
  scope: { projectId?: string; tenantId?: string },
): PublishedSkills {
  const visible = learned.filter(
    (record) =>
      record.origin === 'learned' &&
      record.status === 'active' &&
      (record.scope_mode === 'global' ||
        (record.scope_mode === 'tenant' && scope.tenantId !== undefined && record.scope_tenant_id === scope.tenantId) ||
        (record.scope_mode === 'project' && scope.projectId !== undefined && record.scope_project_id === scope.projectId)),
  );
  return {
    ...(scope.projectId ? { projectId: scope.projectId } : {}),
    ...(scope.tenantId ? { tenantId: scope.tenantId } : {}),
    learned: [...visible].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    retired: [...new Set(retired)].sort(),
  };
}

/** Writes the file into `doorFolder` when its text changes; true when it wrote. */
export function writePublishedSkills(doorFolder: string, published: PublishedSkills): boolean {
  const target = path.join(doorFolder, PUBLISHED_SKILLS_FILE);
  const text = `${JSON.stringify({ version: FORMAT_VERSION, ...published })}\n`;
  try {
    if (readFileSync(target, 'utf8') === text) return false;
  } catch {
    // Absent or unreadable: written below.
  }
  mkdirSync(doorFolder, { recursive: true });
  const temp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return true;
}

type PublishedRead = { status: 'absent' } | { status: 'read'; skills: PublishedSkills } | { status: 'damaged'; reason: string };

/** The doors' side: the file in `doorFolder`, checked against its format. */
export function readPublishedSkills(doorFolder: string): PublishedRead {
  let text: string;
  try {
    text = readFileSync(path.join(doorFolder, PUBLISHED_SKILLS_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'absent' };
    return { status: 'damaged', reason: (error as Error).message };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { status: 'damaged', reason: `not JSON (${(error as Error).message})` };
  }
  const parsed = publishedSchema.safeParse(value);
  if (!parsed.success) return { status: 'damaged', reason: `not in the format Toolshed writes (${parsed.error.issues[0]?.message ?? 'invalid'})` };
  const { version: _version, ...skills } = parsed.data;
  return { status: 'read', skills };
}

/** Identifies one state of the file (size, time, inode), so a door re-reads it only after a change. */
export function publishedSkillsStamp(doorFolder: string): string {
  try {
    const stat = statSync(path.join(doorFolder, PUBLISHED_SKILLS_FILE), { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return 'absent';
  }
}

/**
 * The published learned skills as the door's own records. The door's project is its workspace
 * folder; a skill of the window's project (the same folder, or the `.code-workspace` file of a
 * window with several folders) moves to it, with the id that scope gives it.
 */
export function learnedForWorkspace(published: PublishedSkills, workspaceFolder: string): SkillRecord[] {
  return published.learned.map((record) => {
    if (record.scope_mode !== 'project' || record.scope_project_id === workspaceFolder) return record;
    const scope = { scope_mode: record.scope_mode, scope_tenant_id: record.scope_tenant_id, scope_project_id: workspaceFolder };
    return { ...record, ...scope, id: skillId('learned', record.name, scope) };
  });
}
