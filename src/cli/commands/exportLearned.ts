import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { CliCommand, CliIo } from '../cliCommand';
import { exportLearnedSnapshot } from '../../core/learning/snapshot/snapshotTransfer';
import { TOOLSHED_VERSION } from '../../core/platform/version';
import { describeSkipped, exportLearnedAsPack } from '../../core/learning/snapshot/skillPackExport';
import { nodePackFolderWriter } from '../../core/platform/nodePackFolderWriter';
import { escapeForLine } from '../../core/platform/lineText';
import { checkStorageFolder, openStores } from './learnedSnapshotSupport';
import type { OpenedStores } from './learnedSnapshotSupport';
import { parseSkillArgs } from './skillCliSupport';

export const exportLearnedCommand: CliCommand = {
  path: ['export'],
  summary: 'Write learned skills, their counters, lineage and proposals as a snapshot (JSONL)',
  usage: [
    'Usage: toolshed export --storage DIR [--out FILE] [--project ID]',
    '       toolshed export --storage DIR --pack FOLDER [NAME…]',
    '',
    "DIR is the Toolshed storage folder (the extension's workspace storage, holding skills.db and learning.db).",
    'Writes a versioned snapshot: a header line {format, version, toolshed_version, scope, counts, exported_at},',
    'then one line per learned skill (with counters and lineage) and per proposal. --out FILE (default: stdout).',
    '--project ID exports only the learned skills of that project scope.',
    '',
    '--pack FOLDER writes learned skills (the NAMEs given, else every one not exported yet) as agentskills.io',
    'skill folders FOLDER/<name>/SKILL.md (e.g. FOLDER = <workspace>/.github/skills) to commit: name and description',
    'in the frontmatter, lineage, counters and the learned id under metadata:, the procedure as markdown, secrets',
    'redacted. Nothing is overwritten: a folder that exists or a name a loaded pack skill has is reported and skipped.',
    'When the extension loads the folder, each learned copy is retired (kept, not shown twice).',
    'Exit code: 0 on success, 2 on usage errors, 1 when the stores cannot be read or a skill was skipped.',
  ].join('\n'),
  async run(args, io) {
    const parsed = parseSkillArgs(args, { switches: [], values: ['out', 'pack', 'project', 'storage'] });
    let folder: string;
    try {
      folder = checkStorageFolder(parsed.flags.get('storage'));
    } catch (error) {
      io.stderr(`toolshed export: ${(error as Error).message} See --help.\n`);
      return 2;
    }
    const project = parsed.flags.get('project');
    const packFolder = parsed.flags.get('pack');
    if (packFolder === true || packFolder === '') {
      io.stderr('toolshed export: --pack needs the FOLDER to write skill folders into (e.g. .github/skills). See --help.\n');
      return 2;
    }
    const stores = await openStores(folder);
    if (typeof packFolder === 'string') {
      try {
        return await exportPack(stores, path.resolve(packFolder), parsed.positional, io);
      } finally {
        stores.close();
      }
    }
    try {
      const result = exportLearnedSnapshot(
        { skills: stores.skills, store: stores.learning, mergeThreshold: 1 },
        {
          toolshedVersion: TOOLSHED_VERSION,
          now: Date.now(),
          projectId: typeof project === 'string' ? project : undefined,
        },
      );
      const out = parsed.flags.get('out');
      if (typeof out === 'string' && out) {
        writeFileSync(out, result.text);
        io.stderr(`Exported ${result.learned} learned skill(s) and ${result.proposals} proposal(s) to ${out}.\n`);
      } else {
        io.stdout(result.text);
      }
      return 0;
    } finally {
      stores.close();
    }
  },
};

/** `--pack FOLDER [NAME…]`: learned skills as SKILL.md folders; 1 when any was skipped. */
async function exportPack(stores: OpenedStores, folder: string, names: readonly string[], io: CliIo): Promise<number> {
  const report = await exportLearnedAsPack(
    {
      skills: stores.skills,
      counters: (name) => stores.learning.counters(name),
      files: nodePackFolderWriter,
      now: Date.now(),
    },
    folder,
    names,
  );
  for (const written of report.written) io.stdout(`${escapeForLine(written.learned)} → ${escapeForLine(written.file)}\n`);
  for (const line of describeSkipped(report)) io.stderr(`skipped ${escapeForLine(line)}\n`);
  io.stderr(
    `Exported ${report.written.length} learned skill(s) as skill folders in ${folder}${report.skipped.length ? `; ${report.skipped.length} skipped` : ''}.\n`,
  );
  return report.skipped.length ? 1 : 0;
}
