// @ts-check
// ESLint rule `toolshed/narrow-services`: only the composition root handles the whole
// `ToolshedServices` bag. Every other file under src/vscode names what it uses, either as
// `Pick<ToolshedServices, 'skills' | 'learning'>` or as its own narrow interface, so a reader sees
// a surface's dependencies in its signature and a test builds it with just those.
import path from 'node:path';

/** Files (relative to src/vscode) that build the services or wire them into the surfaces. */
export const COMPOSITION_ROOT = ['extension.ts', 'services.ts'];

const BAG = 'ToolshedServices';

/**
 * @param {any} node a TSTypeReference naming the bag
 * @returns {boolean} whether it is the first type argument of `Pick<…>`
 */
function isPicked(node) {
  const args = node.parent;
  const pick = args?.parent;
  return args?.type === 'TSTypeParameterInstantiation' && args.params[0] === node && pick?.type === 'TSTypeReference' && pick.typeName?.name === 'Pick';
}

/** @type {import('eslint').Rule.RuleModule} */
export const narrowServices = {
  meta: {
    type: 'problem',
    docs: { description: 'adapters take the narrow services they use, not the whole ToolshedServices' },
    schema: [{ type: 'object', properties: { srcRoot: { type: 'string' } } }],
  },
  create(context) {
    const vscodeRoot = path.join(path.resolve(context.options[0]?.srcRoot ?? path.join(context.cwd, 'src')), 'vscode');
    const relative = path.relative(vscodeRoot, context.filename);
    if (relative.startsWith('..') || path.isAbsolute(relative) || COMPOSITION_ROOT.includes(relative.split(path.sep).join('/'))) return {};
    return {
      /** @param {any} node */
      TSTypeReference(node) {
        if (node.typeName?.type !== 'Identifier' || node.typeName.name !== BAG || isPicked(node)) return;
        context.report({
          node,
          message: `Take the services this file uses (Pick<${BAG}, '…'> or a narrow interface), not the whole ${BAG}: only ${COMPOSITION_ROOT.join(' and ')} handle the bag.`,
        });
      },
    };
  },
};
