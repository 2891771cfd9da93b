import * as path from 'node:path';
import type { FileSystemPort } from '../../platform/ports';
import { parseSkillDocument } from './document/skillDocumentParser';
import type { SkillDocumentParse } from './document/offThreadParser';
import type { ParsedSkill } from './document/parsedSkill';
import { FILE_START, makeProblem, PROBLEM_CODES } from './document/skillProblems';
import type { SkillProblem } from './document/skillProblems';
import { listSkillResources, readSkillFile } from './skillPackScanner';
import type { SkillFileRef } from './skillPackScanner';

/** What reading and parsing one skill file gives: its skills, its problems, its resource files. */
export interface FileRead {
  skills: ParsedSkill[];
  problems: SkillProblem[];
  resources: string[];
}

/**
 * Reads and parses one skill file of pack `packName`, and lists its resources. The one home of
 * this step: a load runs it here or on its load thread (offThreadLoad.ts), a reload here. A
 * file-system or parser failure costs this file only (a `load-failed` problem).
 */
export async function readAndParseFile(fs: FileSystemPort, parse: SkillDocumentParse | undefined, packName: string, ref: SkillFileRef): Promise<FileRead> {
  try {
    const read = await readSkillFile(fs, ref.file);
    if (!read.ok) return { skills: [], problems: [read.problem], resources: [] };
    const options = { format: ref.format, packName, relativePath: ref.relativePath };
    const result = parse ? await parse(read.text, ref.file, options) : parseSkillDocument(read.text, ref.file, options);
    // The scan saw which resource folders exist: none (most skills) means nothing to list.
    const listed = ref.format === 'skill-md' && result.skills.length > 0 && ref.resourceDirs?.length !== 0;
    const resources = listed ? await listSkillResources(fs, path.dirname(ref.file)) : [];
    return { skills: result.skills, problems: result.problems, resources };
  } catch (error) {
    return {
      skills: [],
      resources: [],
      problems: [
        makeProblem(
          ref.file,
          FILE_START,
          'error',
          PROBLEM_CODES.loadFailed,
          `This file could not be loaded: ${error instanceof Error ? error.message : String(error)}.`,
        ),
      ],
    };
  }
}
