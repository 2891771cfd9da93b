/**
 * agentskills `allowed-tools`: a skill may restrict the tools it uses. For its own scripts
 * that means: with no list, every script may run (after confirmation); with a list, a script
 * runs only when the list names its tool, its file, or a `Bash`/`Bash(<interpreter>:*)`
 * entry that covers its interpreter (the Claude Code spelling skills are written in).
 */
export function allowedToolsPermit(allowed: readonly string[], script: { toolName: string; relativePath: string; interpreter: string }): boolean {
  if (allowed.length === 0) return true;
  const program = script.interpreter.split('/').pop() ?? script.interpreter;
  return allowed.some((entry) => {
    const item = entry.trim();
    if (item === script.toolName || item === script.relativePath || item === 'Bash' || item === 'Bash(*)') return true;
    const bash = /^Bash\(([^:)]+)(?::\*)?\)$/.exec(item);
    if (!bash) return false;
    const command = bash[1].trim();
    return command === program || command === script.relativePath || command.endsWith(`/${script.relativePath}`);
  });
}
