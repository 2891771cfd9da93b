import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { isOurs, setupTargets, type SetupContext, type SetupSlot, type SetupTarget } from './runtimeTargets';
import { SetupRecord } from './setupRecord';
import { findTable, removeTable, scanToml, setTable, tomlValue, TomlShapeError } from './tomlTable';

/**
 * `toolshed setup`: what it would change in a runtime's config files, then the change. Planning
 * reads every file first and refuses — before anything is written — a file it cannot parse or
 * an entry of Toolshed's name that Toolshed did not write. Applying keeps one backup of each file
 * (`<file>.toolshed-backup`, made before the first change and never overwritten) and writes each
 * file whole by temp file + rename.
 */

export class SetupError extends Error {}

/** One entry added, replaced or removed. `before` / `after`: the entry as JSON, absent when it is not there. */
interface SetupChange {
  file: string;
  entry: string;
  before?: string;
  after?: string;
}

interface FileWrite {
  file: string;
  /** The new text; undefined deletes a file setup created and emptied. */
  text: string | undefined;
  existed: boolean;
  /** False for setup's own record, which needs no backup. */
  backup?: false;
}

export interface SetupPlan {
  changes: SetupChange[];
  writes: FileWrite[];
}

const BACKUP_SUFFIX = '.toolshed-backup';

type Json = Record<string, unknown>;

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SetupError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

function parseJson(file: string, text: string): Json {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new SetupError(`${file} is not valid JSON (${(error as Error).message}); Toolshed will not overwrite it. Fix or move it, then run setup again.`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new SetupError(`${file} does not hold a JSON object; Toolshed will not overwrite it. Fix or move it, then run setup again.`);
  return value as Json;
}

/** The object at `keys` (created when `create`); a non-object in the way is the user's and stops setup. */
function objectAt(doc: Json, keys: readonly string[], file: string, create: boolean): Json | undefined {
  let node = doc;
  for (const key of keys) {
    const next = node[key];
    if (next === undefined) {
      if (!create) return undefined;
      node[key] = {};
    } else if (!next || typeof next !== 'object' || Array.isArray(next))
      throw new SetupError(`${file}: "${keys.join('.')}" is not an object; Toolshed will not change it.`);
    node = node[key] as Json;
  }
  return node;
}

/** Deletes the now-empty containers along `keys` (those the entry alone filled), at most the last `levels` of them. */
function prune(doc: Json, keys: readonly string[], levels = keys.length): void {
  for (let depth = keys.length; depth > keys.length - levels && depth > 0; depth--) {
    const parent = keys.slice(0, depth - 1).reduce<Json | undefined>((node, key) => node?.[key] as Json | undefined, doc);
    const key = keys[depth - 1]!;
    const value = parent?.[key];
    const empty = Array.isArray(value) ? value.length === 0 : value && typeof value === 'object' && Object.keys(value).length === 0;
    if (!parent || !empty) return;
    delete parent[key];
  }
}

const show = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));

/**
 * Strings setup adds to a list the user shares (`permissions.allow`): only those missing, each
 * recorded; a removal takes out only what the record names (setupRecord.ts).
 */
function planStringsSlot(
  doc: Json,
  slot: Extract<SetupSlot, { kind: 'strings' }>,
  file: string,
  remove: boolean,
  record: SetupRecord,
): SetupChange | undefined {
  const key = SetupRecord.key(file, slot.path);
  const owned = record.get(key);
  const entry = `${slot.path.join('.')} (${slot.label})`;
  const last = slot.path[slot.path.length - 1]!;
  let missingFrom = slot.path.length;
  for (let i = 0, node: unknown = doc; i < slot.path.length; i++) {
    node = node && typeof node === 'object' ? (node as Json)[slot.path[i]!] : undefined;
    if (node === undefined) {
      missingFrom = i;
      break;
    }
  }
  const parent = objectAt(doc, slot.path.slice(0, -1), file, !remove);
  const list = parent?.[last];
  if (list !== undefined && !Array.isArray(list)) throw new SetupError(`${file}: "${slot.path.join('.')}" is not a list; Toolshed will not change it.`);
  const items = (list ?? []) as unknown[];
  const stillOurs = (owned?.added ?? []).filter((value) => items.includes(value));
  if (remove) {
    record.set(key, undefined);
    if (!parent || stillOurs.length === 0) return undefined;
    const kept = [...items];
    // The last copy of each: setup appended it (a user's duplicate added later stays).
    for (const value of stillOurs) kept.splice(kept.lastIndexOf(value), 1);
    parent[last] = kept;
    prune(doc, slot.path, owned?.created ?? 0);
    return { file, entry, before: show(stillOurs) };
  }
  const toAdd = slot.values.filter((value) => !items.includes(value));
  if (toAdd.length === 0) return undefined;
  parent![last] = [...items, ...toAdd];
  record.set(key, { added: [...stillOurs, ...toAdd], created: stillOurs.length ? (owned?.created ?? 0) : slot.path.length - missingFrom });
  return { file, entry, before: stillOurs.length ? show(stillOurs) : undefined, after: show([...stillOurs, ...toAdd]) };
}

function planJsonSlot(doc: Json, slot: SetupSlot, target: SetupTarget, ctx: SetupContext, remove: boolean, record: SetupRecord): SetupChange | undefined {
  const file = target.file;
  if (slot.kind === 'strings') return planStringsSlot(doc, slot, file, remove, record);
  if (slot.kind === 'map') {
    const map = objectAt(doc, slot.path, file, !remove);
    const before = map?.[slot.name];
    if (before !== undefined && !isOurs(before, ctx.toolshedHome))
      throw new SetupError(`${file}: an entry "${slot.name}" that Toolshed did not write is already there; rename or remove it, then run setup again.`);
    const entry = `${[...slot.path, slot.name].join('.')}`;
    if (remove) {
      if (before === undefined || !map) return undefined;
      delete map[slot.name];
      prune(doc, slot.path);
      return { file, entry, before: show(before) };
    }
    if (JSON.stringify(before) === JSON.stringify(slot.value)) return undefined;
    map![slot.name] = slot.value;
    return { file, entry, before: show(before), after: show(slot.value) };
  }
  const parent = objectAt(doc, slot.path.slice(0, -1), file, !remove);
  const key = slot.path[slot.path.length - 1]!;
  const list = parent?.[key];
  if (list !== undefined && !Array.isArray(list)) throw new SetupError(`${file}: "${slot.path.join('.')}" is not a list; Toolshed will not change it.`);
  const items = (list ?? []) as unknown[];
  const ours = items.filter((item) => isOurs(item, ctx.toolshedHome));
  const entry = `${slot.path.join('.')} (${slot.label})`;
  if (remove) {
    if (ours.length === 0 || !parent) return undefined;
    parent[key] = items.filter((item) => !ours.includes(item));
    prune(doc, slot.path);
    return { file, entry, before: show(ours.length === 1 ? ours[0] : ours) };
  }
  if (ours.length === 1 && JSON.stringify(ours[0]) === JSON.stringify(slot.value)) return undefined;
  // Replaces Toolshed's item where it stands (one, however many there were), or appends it.
  const at = ours.length ? items.indexOf(ours[0]) : items.length;
  const next = items.filter((item, i) => i === at || !ours.includes(item));
  if (ours.length) next[next.indexOf(ours[0])] = slot.value;
  else next.push(slot.value);
  parent![key] = next;
  return { file, entry, before: show(ours.length === 0 ? undefined : ours.length === 1 ? ours[0] : ours), after: show(slot.value) };
}

/** The indentation a JSON file uses (two spaces when it shows none), so a rewrite keeps its look. */
function indentOf(text: string): string | number {
  const match = /\n([ \t]+)["}\]]/.exec(text);
  return match?.[1] ?? 2;
}

function planJson(
  target: SetupTarget,
  ctx: SetupContext,
  remove: boolean,
  text: string | undefined,
  record: SetupRecord,
): { changes: SetupChange[]; write?: FileWrite } {
  const doc = text === undefined ? (structuredClone(target.template) as Json) : parseJson(target.file, text);
  const changes = target.slots.map((slot) => planJsonSlot(doc, slot, target, ctx, remove, record)).filter((c): c is SetupChange => c !== undefined);
  if (changes.length === 0) return { changes };
  // Nothing left but the template's own keys (version, an empty hooks map): nothing of the user's.
  const emptied = Object.entries(doc).every(([key, value]) => {
    const empty = value && typeof value === 'object' && Object.keys(value).length === 0;
    return key in target.template && (empty || JSON.stringify(value) === JSON.stringify(target.template[key]));
  });
  // A file setup created and then emptied goes away; one that was there before (its backup says so) stays.
  if (remove && emptied && !existsSync(target.file + BACKUP_SUFFIX))
    return { changes, write: { file: target.file, text: undefined, existed: text !== undefined } };
  const trailing = text === undefined || text.endsWith('\n') ? '\n' : '';
  return { changes, write: { file: target.file, text: `${JSON.stringify(doc, null, text ? indentOf(text) : 2)}${trailing}`, existed: text !== undefined } };
}

function planToml(target: SetupTarget, remove: boolean, text: string | undefined): { changes: SetupChange[]; write?: FileWrite } {
  let next = text ?? '';
  const changes: SetupChange[] = [];
  try {
    scanToml(next);
    // Removed last-added first, so each removal takes out exactly what its addition put in.
    for (const slot of remove ? [...target.slots].reverse() : target.slots) {
      if (slot.kind === 'strings') throw new Error('a TOML file has no string-list slots');
      const tablePath = [...slot.path, slot.kind === 'map' ? slot.name : slot.label];
      const state = findTable(next, tablePath);
      if (state.foreign)
        throw new SetupError(
          `${target.file}: [${tablePath.join('.')}] is already defined by something other than toolshed setup; rename or remove it, then run setup again.`,
        );
      const entry = `[${tablePath.join('.')}]`;
      const before = state.ours?.body;
      if (remove) {
        if (!state.ours) continue;
        next = removeTable(next, tablePath);
        changes.push({ file: target.file, entry, before });
        continue;
      }
      const updated = setTable(
        next,
        tablePath,
        Object.entries(slot.value).map(([key, value]) => [key, tomlValue(value)] as const),
      );
      if (updated === next) continue;
      const after = findTable(updated, tablePath).ours?.body;
      if (after === before) continue;
      next = updated;
      changes.push({ file: target.file, entry, before, after });
    }
  } catch (error) {
    if (error instanceof TomlShapeError)
      throw new SetupError(
        `${target.file} could not be read as TOML (${error.message}); Toolshed will not overwrite it. Fix or move it, then run setup again.`,
      );
    throw error;
  }
  if (changes.length === 0) return { changes };
  if (remove && next === '' && !existsSync(target.file + BACKUP_SUFFIX))
    return { changes, write: { file: target.file, text: undefined, existed: text !== undefined } };
  return { changes, write: { file: target.file, text: next, existed: text !== undefined } };
}

/** What setup would change for `ctx` (install, or `remove`), without writing anything. Throws SetupError. */
export function planSetup(ctx: SetupContext, remove: boolean): SetupPlan {
  const plan: SetupPlan = { changes: [], writes: [] };
  const record = SetupRecord.read(ctx.toolshedHome);
  for (const target of setupTargets(ctx)) {
    const text = readText(target.file);
    const planned = target.format === 'json' ? planJson(target, ctx, remove, text, record) : planToml(target, remove, text);
    plan.changes.push(...planned.changes);
    if (planned.write) plan.writes.push(planned.write);
  }
  const recordText = record.text();
  if (recordText !== undefined) {
    // Recorded before a string is added, forgotten after it is removed: a write cut short leaves
    // at worst a recorded string that is not there (nothing to remove), never one of ours unrecorded.
    const write: FileWrite = { file: record.file, text: recordText, existed: record.existed, backup: false };
    if (remove) plan.writes.push(write);
    else plan.writes.unshift(write);
  }
  return plan;
}

/** Writes the plan: a backup of each existing file before its first change, then each file whole. */
export function applySetup(plan: SetupPlan): void {
  for (const write of plan.writes) {
    const backup = write.file + BACKUP_SUFFIX;
    // A file deleted here is one setup created: it has nothing of the user's to keep.
    if (write.backup !== false && write.existed && write.text !== undefined && !existsSync(backup)) copyFileSync(write.file, backup);
    if (write.text === undefined) {
      rmSync(write.file, { force: true });
      continue;
    }
    mkdirSync(path.dirname(write.file), { recursive: true });
    const temp = `${write.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temp, write.text, { mode: 0o600 });
    renameSync(temp, write.file);
  }
}

/** The plan as lines for a person: each file, each entry, before → after. */
export function describePlan(plan: SetupPlan, dryRun: boolean): string {
  if (plan.changes.length === 0) return 'Nothing to change: the entries are already as setup writes them.\n';
  const lines: string[] = [];
  for (const change of plan.changes) {
    const verb = change.after === undefined ? 'remove' : change.before === undefined ? 'add' : 'update';
    lines.push(`${dryRun ? 'Would ' : ''}${dryRun ? verb : `${verb[0]!.toUpperCase()}${verb.slice(1)}`} ${change.entry} in ${change.file}`);
    if (change.before !== undefined)
      lines.push(
        ...change.before
          .trimEnd()
          .split('\n')
          .map((line) => `  - ${line}`),
      );
    if (change.after !== undefined)
      lines.push(
        ...change.after
          .trimEnd()
          .split('\n')
          .map((line) => `  + ${line}`),
      );
  }
  return `${lines.join('\n')}\n`;
}
