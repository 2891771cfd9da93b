import { SKILL_FILE_GLOBS } from '../skills/packs/document/skillFileNames';
import { TOOL_EXAMPLES_FILE_GLOB } from '../tools/examples/toolExamples';

/**
 * The manifest's `activationEvents`: Toolshed starts in a workspace that holds a skill file or a
 * tool-examples file. `scripts/sync-manifest.ts` writes them into package.json; a unit test
 * checks they agree, so a new skill-file format cannot be missed there.
 */
export function workspaceActivationEvents(): string[] {
  return [...SKILL_FILE_GLOBS, TOOL_EXAMPLES_FILE_GLOB].map((glob) => `workspaceContains:${glob}`);
}
