/**
 * Tool names for skill scripts: `<skill>_<script>` reduced to the characters VS Code accepts
 * in a tool name (`[A-Za-z0-9_-]`, at most 64). A script never takes a name some other tool
 * already has — shadowing a real tool with a script would let a skill hijack calls meant for
 * it — so collisions are reported and the script is left out instead.
 */

const MAX_TOOL_NAME_LENGTH = 64;

/** Replaces every run of characters a tool name may not contain by one `_`. */
function sanitizeNamePart(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^[_-]+|[_-]+$/g, '');
}

/** File name without its last extension (`count_lines.py` → `count_lines`). */
function scriptStem(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

/** `<skill>_<script stem>`, sanitized and cut to 64 characters ('' when nothing usable is left). */
export function scriptToolName(skillName: string, fileName: string, withExtension = false): string {
  const stem = withExtension ? fileName : scriptStem(fileName);
  const skill = sanitizeNamePart(skillName);
  const script = sanitizeNamePart(stem);
  if (!skill || !script) return '';
  return `${skill}_${script}`.slice(0, MAX_TOOL_NAME_LENGTH).replace(/[_-]+$/, '');
}

export interface NameRequest {
  skillName: string;
  /** File name inside `scripts/` (no folder). */
  fileName: string;
}

export interface NameCollision<T extends NameRequest> {
  request: T;
  name: string;
  /** What already holds the name: another tool's name, or `skill/scripts/file` of a script. */
  takenBy: string;
}

/**
 * Assigns names in order (callers sort by skill, then file, so the result is stable). Two
 * scripts of one skill with the same stem (`count.py`, `count.sh`) keep the extension in the
 * later one's name (`skill_count_sh`); anything still taken is a collision.
 */
export function assignScriptToolNames<T extends NameRequest>(
  requests: readonly T[],
  existingToolNames: ReadonlySet<string>,
): { named: Array<{ request: T; name: string }>; collisions: Array<NameCollision<T>>; unnamed: T[] } {
  const owners = new Map<string, string>();
  const named: Array<{ request: T; name: string }> = [];
  const collisions: Array<NameCollision<T>> = [];
  const unnamed: T[] = [];
  const free = (name: string) => name !== '' && !existingToolNames.has(name) && !owners.has(name);
  for (const request of requests) {
    const plain = scriptToolName(request.skillName, request.fileName);
    if (!plain) {
      unnamed.push(request);
      continue;
    }
    const withExtension = scriptToolName(request.skillName, request.fileName, true);
    const sameSkillTwin = owners.get(plain)?.startsWith(`${request.skillName}/`) ?? false;
    const name = free(plain) ? plain : sameSkillTwin && free(withExtension) ? withExtension : undefined;
    if (name) {
      owners.set(name, `${request.skillName}/scripts/${request.fileName}`);
      named.push({ request, name });
    } else {
      collisions.push({ request, name: plain, takenBy: existingToolNames.has(plain) ? `the tool \`${plain}\`` : `\`${owners.get(plain)}\`` });
    }
  }
  return { named, collisions, unnamed };
}
