// ESLint rule `toolshed/import-boundaries`: imports only run downward through the layers below.
// The import is resolved to a path first (not matched as text), so `../tools/x` from
// src/vscode/chat is the VS Code layer's tools folder, not core's.
//
//   src/core/platform, src/core/config,     (bottom: ports, settings, the workspace-trust rule,
//   src/core/trust, src/core/privacy,        redaction of secrets, a JSON Schema subset validator)
//   src/core/schema
//   src/core/sql, src/core/search           (storage and text search)
//   src/core/skills, src/core/tools         (siblings: neither imports the other)
//   src/core/learning                       (may use skills)
//   src/core/planner, src/core/lmTools      (top of core)
//   src/vscode, src/cli, src/workers        (adapters over core; never each other; workers are
//                                            worker-thread entries, bundled on their own)
// `vscode` itself: type-only imports are allowed in core (core has no runtime `vscode`
// import), runtime imports only in src/vscode.
import path from 'node:path';

const CORE_ALLOWED = {
  platform: [],
  config: ['platform'],
  trust: ['platform', 'config'],
  privacy: ['platform'],
  schema: [],
  sql: ['platform'],
  search: ['platform', 'config'],
  skills: ['platform', 'config', 'trust', 'privacy', 'schema', 'sql', 'search'],
  tools: ['platform', 'config', 'trust', 'privacy', 'schema', 'sql', 'search'],
  learning: ['platform', 'config', 'trust', 'privacy', 'schema', 'sql', 'search', 'skills'],
  planner: ['platform', 'config', 'trust', 'privacy', 'schema', 'sql', 'search', 'skills', 'tools', 'learning'],
  lmTools: ['platform', 'config', 'trust', 'privacy', 'schema', 'skills', 'tools', 'learning'],
};

/** `{ area: 'core', part }`, `{ area: 'vscode' | 'cli' | 'workers' }` or undefined (outside src). */
function layerOf(file, srcRoot) {
  const relative = path.relative(srcRoot, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const [area, part] = relative.split(path.sep);
  if (area === 'core') return { area, part };
  if (area === 'vscode' || area === 'cli' || area === 'workers') return { area };
  return undefined;
}

function violation(from, to) {
  if (from.area === 'core') {
    if (to.area !== 'core') return `src/core must not import src/${to.area}`;
    if (from.part === to.part) return undefined;
    const allowed = CORE_ALLOWED[from.part];
    if (!allowed) return `src/core/${from.part} is not a known layer: add it to eslint/importBoundaries.mjs`;
    return allowed.includes(to.part) ? undefined : `src/core/${from.part} must not import src/core/${to.part} (layers run downward)`;
  }
  if (from.area !== to.area && to.area !== 'core') return `src/${from.area} must not import src/${to.area}`;
  return undefined;
}

export const importBoundaries = {
  meta: { type: 'problem', docs: { description: 'imports run downward through the layers' }, schema: [{ type: 'object', properties: { srcRoot: { type: 'string' } } }] },
  create(context) {
    const srcRoot = path.resolve(context.options[0]?.srcRoot ?? path.join(context.cwd, 'src'));
    const file = context.filename;
    const from = layerOf(file, srcRoot);
    if (!from) return {};
    const check = (node, specifier, typeOnly) => {
      if (typeof specifier !== 'string') return;
      if (specifier === 'vscode') {
        if (from.area !== 'vscode' && !typeOnly) context.report({ node, message: `Runtime import of 'vscode' outside src/vscode (core stays plain TypeScript; use \`import type\`).` });
        return;
      }
      if (!specifier.startsWith('.')) return;
      const to = layerOf(path.resolve(path.dirname(file), specifier), srcRoot);
      const message = to && violation(from, to);
      if (message) context.report({ node, message: `${message}: '${specifier}'.` });
    };
    return {
      ImportDeclaration(node) {
        const typeOnly = node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'));
        check(node, node.source.value, typeOnly);
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value, node.exportKind === 'type');
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value, node.exportKind === 'type');
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source.value, false);
      },
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') check(node, node.arguments[0].value, false);
      },
    };
  },
};
