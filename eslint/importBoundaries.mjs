// @ts-check
// ESLint rule `toolshed/import-boundaries`: imports only run downward through the layers below.
// The import is resolved to a path first (not matched as text), so `../tools/x` from
// src/vscode/chat is the VS Code layer's tools folder, not core's.
//
//   src/core/platform, src/core/config,     (bottom: ports, settings, the workspace-trust rule,
//   src/core/trust, src/core/privacy,        redaction of secrets, JSON Schema: a subset
//   src/core/schema                          validator, zod → JSON Schema and issue text)
//   src/core/sql, src/core/search           (storage and text search)
//   src/core/ledger                         (the cost-and-benefit ledger store, on sql)
//   src/core/skills, src/core/tools         (siblings: neither imports the other)
//   src/core/learning                       (may use skills)
//   src/core/planner, src/core/lmTools      (top of core)
//   src/core/runtimes                       (the agent runtimes and their doors: over the planner)
//   src/vscode, src/cli, src/workers,       (adapters over core; never each other; workers are
//   src/mcp                                  worker-thread entries, bundled on their own; mcp is
//                                            the MCP server, its gateway in src/mcp/gateway —
//                                            the one exception: src/cli may import src/mcp, since
//                                            `toolshed mcp` launches the server)
// Inside src/vscode, feature folders import each other in one direction only (VSCODE_ALLOWED);
// the files directly in src/vscode are the composition root (VSCODE_COMPOSITION_ROOT: it wires
// every folder, and no folder imports it) and shared basics (lifecycle.ts, settingsAccessor.ts, …:
// every folder may use them, and they import no folder — a basic that did would hide a loop
// between folders).
// `vscode` itself: type-only imports are allowed in core (core has no runtime `vscode`
// import), runtime imports only in src/vscode.
import path from 'node:path';

/** @type {Readonly<Record<string, readonly string[]>>} */
const CORE_ALLOWED = {
  platform: [],
  config: ['platform', 'schema'],
  trust: ['platform', 'config'],
  privacy: ['platform'],
  schema: [],
  sql: ['platform'],
  search: ['platform', 'config'],
  ledger: ['platform', 'config', 'privacy', 'sql'],
  skills: ['platform', 'config', 'trust', 'privacy', 'schema', 'sql', 'search'],
  tools: ['platform', 'config', 'trust', 'privacy', 'schema', 'sql', 'search', 'ledger'],
  learning: ['platform', 'config', 'trust', 'privacy', 'schema', 'sql', 'search', 'skills'],
  planner: ['platform', 'config', 'trust', 'privacy', 'schema', 'sql', 'search', 'ledger', 'skills', 'tools', 'learning'],
  lmTools: ['platform', 'config', 'trust', 'privacy', 'schema', 'skills', 'tools', 'learning'],
  runtimes: ['platform', 'config', 'trust', 'privacy', 'schema', 'sql', 'search', 'ledger', 'skills', 'tools', 'learning', 'planner'],
};

/**
 * Feature folders of src/vscode and the feature folders each may import. No two folders may
 * list each other (a unit test checks the table), so features build on one another one way.
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const VSCODE_ALLOWED = {
  state: [],
  skills: [],
  lmTools: ['skills'],
  views: ['state', 'skills'],
  authoring: ['views'],
  palette: ['views'],
  tools: ['views'],
  learning: ['skills', 'views'],
  chat: ['learning', 'lmTools', 'tools', 'skills'],
  runtimes: [],
};

/**
 * Files directly in src/vscode (without extension) that wire the feature folders: they may import every folder. Every
 * other file there is a shared basic. `services.ts` builds the services whose types every folder
 * names, so folders may import it; the other two are imported by no folder.
 * @type {readonly string[]}
 */
const VSCODE_COMPOSITION_ROOT = ['extension', 'services', 'registerSkillSurfaces'];

/** @typedef {{ area: string, part?: string, file?: string }} Layer */

/**
 * `{ area: 'core', part }`, `{ area: 'vscode', part? }` (part: the feature folder; none for the
 * files directly in src/vscode), `{ area: 'cli' | 'workers' | 'mcp' }`, or undefined (outside src).
 * @param {string} file
 * @param {string} srcRoot
 * @returns {Layer | undefined}
 */
function layerOf(file, srcRoot) {
  const relative = path.relative(srcRoot, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const [area, part, ...rest] = relative.split(path.sep);
  if (area === 'core') return { area, part };
  if (area === 'vscode') return rest.length > 0 ? { area, part } : { area, file: part.replace(/\.[cm]?[jt]s$/, '') };
  if (area === 'cli' || area === 'workers' || area === 'mcp') return { area };
  return undefined;
}

/**
 * @param {Layer} from
 * @param {Layer} to
 * @returns {string | undefined}
 */
function violation(from, to) {
  if (from.area === 'core') {
    if (to.area !== 'core') return `src/core must not import src/${to.area}`;
    if (from.part === to.part) return undefined;
    const allowed = CORE_ALLOWED[from.part ?? ''];
    if (!allowed) return `src/core/${from.part} is not a known layer: add it to eslint/importBoundaries.mjs`;
    return allowed.includes(to.part ?? '') ? undefined : `src/core/${from.part} must not import src/core/${to.part} (layers run downward)`;
  }
  if (from.area === 'cli' && to.area === 'mcp') return undefined;
  if (from.area !== to.area && to.area !== 'core') return `src/${from.area} must not import src/${to.area}`;
  if (from.area === 'vscode' && to.area === 'vscode') return vscodeViolation(from, to);
  return undefined;
}

/**
 * Inside src/vscode: feature folders one way (VSCODE_ALLOWED), shared basics import no folder and
 * no composition-root file, and no folder imports the files that wire the folders.
 * @param {Layer} from
 * @param {Layer} to
 * @returns {string | undefined}
 */
function vscodeViolation(from, to) {
  const isRoot = (/** @type {Layer} */ layer) => layer.file !== undefined && VSCODE_COMPOSITION_ROOT.includes(layer.file);
  if (from.file !== undefined && !isRoot(from)) {
    if (to.part)
      return `src/vscode/${from.file} is a shared basic and must not import the feature folder src/vscode/${to.part} (move it into a feature folder, or what it needs into core)`;
    if (isRoot(to)) return `src/vscode/${from.file} is a shared basic and must not import the composition root src/vscode/${to.file}`;
    return undefined;
  }
  if (from.part && isRoot(to) && to.file !== 'services') return `src/vscode/${from.part} must not import src/vscode/${to.file}: it wires the feature folders`;
  if (from.part && to.part && from.part !== to.part) {
    const allowed = VSCODE_ALLOWED[from.part];
    if (!allowed) return `src/vscode/${from.part} is not a known feature folder: add it to VSCODE_ALLOWED in eslint/importBoundaries.mjs`;
    return allowed.includes(to.part)
      ? undefined
      : `src/vscode/${from.part} must not import src/vscode/${to.part} (feature folders import one way: see VSCODE_ALLOWED)`;
  }
  return undefined;
}

/**
 * TypeScript's parser marks `import type` / `export type` with `importKind` / `exportKind`.
 * @param {object} node
 * @returns {{ importKind?: string, exportKind?: string }}
 */
const typeScriptKinds = (node) => node;

/** @type {import('eslint').Rule.RuleModule} */
export const importBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'imports run downward through the layers' },
    schema: [{ type: 'object', properties: { srcRoot: { type: 'string' } } }],
  },
  create(context) {
    const srcRoot = path.resolve(context.options[0]?.srcRoot ?? path.join(context.cwd, 'src'));
    const file = context.filename;
    const from = layerOf(file, srcRoot);
    if (!from) return {};
    /** @type {(node: import('eslint').Rule.Node, specifier: unknown, typeOnly: boolean) => void} */
    const check = (node, specifier, typeOnly) => {
      if (typeof specifier !== 'string') return;
      if (specifier === 'vscode') {
        if (from.area !== 'vscode' && !typeOnly)
          context.report({ node, message: `Runtime import of 'vscode' outside src/vscode (core stays plain TypeScript; use \`import type\`).` });
        return;
      }
      if (!specifier.startsWith('.')) return;
      const to = layerOf(path.resolve(path.dirname(file), specifier), srcRoot);
      const message = to && violation(from, to);
      if (message) context.report({ node, message: `${message}: '${specifier}'.` });
    };
    return {
      ImportDeclaration(node) {
        const typeOnly =
          typeScriptKinds(node).importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((s) => typeScriptKinds(s).importKind === 'type'));
        check(node, node.source.value, typeOnly);
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value, typeScriptKinds(node).exportKind === 'type');
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value, typeScriptKinds(node).exportKind === 'type');
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source.value, false);
      },
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal')
          check(node, node.arguments[0].value, false);
      },
    };
  },
};
