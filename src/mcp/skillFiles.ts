import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { redact } from '../core/privacy/redaction';
import { neutralizeBlockTags } from '../core/privacy/promptBlocks';
import { declaredToolNames } from '../core/skills/render/skillRendering';
import { ToolReferenceGate } from '../core/skills/render/toolReferenceGate';
import type { SkillRecord } from '../core/skills/skillSchema';
import type { SkillRequestContext } from '../core/skills/skillRequestContext';

/**
 * One file of a skill's folder (`scripts/`, `references/`, `assets/`), read for a model: only a
 * file the skill lists (so `../../etc/passwd` is simply not one of its files), only when its real
 * path is still inside the skill's real folder (a link out of the folder is refused, whatever the
 * listing says), never more than MAX_FILE_BYTES read, text only, then redacted, tool-gated and
 * unable to open or close one of Toolshed's prompt blocks.
 */

/** The most bytes read from a skill file; a larger file is refused (a model gets a bounded answer). */
const MAX_FILE_BYTES = 256 * 1024;
/** The most characters of a file's text returned in one answer (≈ 8k tokens); the rest is cut with a note. */
export const MAX_FILE_CHARS = 32_000;

export type SkillFileResult = { ok: true; text: string; truncated: boolean; bytes: number } | { ok: false; message: string };

/** `scripts/x.sh`, `./scripts/x.sh` and `scripts\x.sh` name the same listed file. */
function normalizeSkillFilePath(file: string): string {
  return file
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '');
}

export async function readSkillFile(record: SkillRecord, file: string, ctx: SkillRequestContext): Promise<SkillFileResult> {
  const relative = normalizeSkillFilePath(file);
  if (!record.resources.includes(relative)) {
    const listed = record.resources.length
      ? `Its files are: ${record.resources.slice(0, 40).join(', ')}${record.resources.length > 40 ? ', …' : ''}.`
      : 'It has no files besides its instructions.';
    return { ok: false, message: `"${relative.slice(0, 200)}" is not a file of skill "${record.name}". ${listed}` };
  }
  let folder: string;
  let target: string;
  try {
    folder = await realpath(path.dirname(record.source_file));
    target = await realpath(path.join(path.dirname(record.source_file), ...relative.split('/')));
  } catch {
    return { ok: false, message: `The file "${relative}" of skill "${record.name}" can no longer be read (it was moved or deleted).` };
  }
  if (!target.startsWith(folder + path.sep))
    return { ok: false, message: `The file "${relative}" of skill "${record.name}" links outside the skill's folder; it is not read.` };
  const read = await readBounded(target);
  if (!read.ok) return { ok: false, message: `The file "${relative}" of skill "${record.name}" ${read.reason}.` };
  if (read.bytes.subarray(0, 8192).includes(0))
    return { ok: false, message: `The file "${relative}" of skill "${record.name}" is binary; only text files are returned.` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    return { ok: false, message: `The file "${relative}" of skill "${record.name}" is not UTF-8 text; it is not returned.` };
  }
  // Redacted and gated as a whole before any cut, so a cut can never hide the marker of a secret.
  const gate = new ToolReferenceGate(ctx.toolGate, ctx.knownToolNames);
  const safe = neutralizeBlockTags(gate.text(redact(text), declaredToolNames(record)));
  const truncated = safe.length > MAX_FILE_CHARS;
  return { ok: true, text: truncated ? safe.slice(0, MAX_FILE_CHARS) : safe, truncated, bytes: read.bytes.byteLength };
}

/**
 * The skill's listed files a model may read: those whose real path stays inside the skill's real
 * folder (the listing can include files under a linked folder; their names are not shown either).
 */
export async function readableSkillFiles(record: SkillRecord): Promise<string[]> {
  if (record.resources.length === 0) return [];
  let folder: string;
  try {
    folder = await realpath(path.dirname(record.source_file));
  } catch {
    return [];
  }
  const inside = await Promise.all(
    record.resources.map(async (file) => {
      const real = await realpath(path.join(path.dirname(record.source_file), ...file.split('/'))).catch(() => undefined);
      return real !== undefined && real.startsWith(folder + path.sep);
    }),
  );
  return record.resources.filter((_, i) => inside[i]);
}

async function readBounded(file: string): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; reason: string }> {
  let handle;
  try {
    // O_NOFOLLOW: the real path was resolved above; a link swapped in since then is not followed.
    handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return { ok: false, reason: 'cannot be opened' };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { ok: false, reason: 'is not a regular file' };
    if (stats.size > MAX_FILE_BYTES) return { ok: false, reason: `is too large (${stats.size} bytes; the limit is ${MAX_FILE_BYTES})` };
    const buffer = Buffer.alloc(stats.size);
    const { bytesRead } = await handle.read(buffer, 0, stats.size, 0);
    return { ok: true, bytes: buffer.subarray(0, bytesRead) };
  } catch {
    return { ok: false, reason: 'cannot be read' };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
