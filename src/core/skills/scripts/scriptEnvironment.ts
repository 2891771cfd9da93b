/**
 * The environment a skill script gets: a small allow-list, never the extension host's full
 * environment (which holds tokens of every extension and the user's shell). A skill receives
 * exactly the variables its `requires` names, so a secret reaches it only when the skill says
 * it needs it — and the confirmation shows which names those are.
 */

const BASE_ENV_ALLOW_LIST = ['PATH', 'HOME', 'LANG'] as const;

/** Names that must never be passed through, even when a skill's `requires` lists them. */
const NEVER_PASSED = new Set([
  'NODE_OPTIONS',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'DYLD_INSERT_LIBRARIES',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'BASH_ENV',
  'ENV',
  'ELECTRON_RUN_AS_NODE',
]);

export function scriptEnvironment(
  source: Readonly<Record<string, string | undefined>>,
  requires: readonly string[],
): { env: Record<string, string>; passed: string[]; refused: string[] } {
  const env: Record<string, string> = {};
  const refused: string[] = [];
  for (const name of [...BASE_ENV_ALLOW_LIST, ...requires]) {
    if (NEVER_PASSED.has(name)) {
      refused.push(name);
      continue;
    }
    const value = source[name];
    if (typeof value === 'string') env[name] = value;
  }
  return { env, passed: Object.keys(env), refused };
}
