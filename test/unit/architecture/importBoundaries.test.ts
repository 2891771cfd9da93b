import * as assert from 'node:assert/strict';
import { RuleTester } from 'eslint';
import path from 'node:path';
import tseslint from 'typescript-eslint';

// The rule is ESM (it runs inside ESLint's flat config); load it the same way.
const rulePath = path.join(__dirname, '..', '..', '..', 'eslint', 'importBoundaries.mjs');

describe('lint: toolshed/import-boundaries (layers run downward)', () => {
  const src = path.join(path.sep, 'repo', 'src');
  const file = (relative: string) => path.join(src, relative);
  const options = [{ srcRoot: src }];
  /** Runs the rule over TypeScript sources, as the lint does. */
  const runRule = async (cases: Parameters<RuleTester['run']>[2]) => {
    const { importBoundaries } = (await import(rulePath)) as { importBoundaries: never };
    new RuleTester({ languageOptions: { parser: tseslint.parser as never, ecmaVersion: 2022, sourceType: 'module' } }).run(
      'import-boundaries',
      importBoundaries,
      cases,
    );
  };

  it('accepts downward imports and rejects upward, sideways and adapter imports', async () => {
    await runRule({
      valid: [
        { filename: file('core/tools/toolRun.ts'), code: "import { x } from '../search/bm25f';", options },
        { filename: file('core/tools/index/toolIndex.ts'), code: "import { x } from '../../sql/sqlEngine';", options },
        { filename: file('core/planner/plannerLoop.ts'), code: "import { x } from '../skills/skillService';", options },
        { filename: file('core/ledger/ledgerStore.ts'), code: "import { x } from '../sql/persistentDatabase';", options },
        { filename: file('core/planner/ledgerTurnFrom.ts'), code: "import { x } from '../ledger/ledgerTurn';", options },
        { filename: file('core/skills/skillService.ts'), code: "import type * as vscode from 'vscode';", options },
        {
          filename: file('vscode/chat/x.ts'),
          code: "import * as vscode from 'vscode'; import { y } from '../tools/lmToolCatalog'; import { z } from '../../core/tools/toolRun';",
          options,
        },
        {
          filename: path.join(path.sep, 'repo', 'test', 'unit', 'x.ts'),
          code: "import * as vscode from 'vscode'; import { a } from '../../src/cli/main';",
          options,
        },
      ],
      invalid: [
        { filename: file('core/search/bm25f.ts'), code: "import { x } from '../tools/toolRun';", options, errors: 1 },
        { filename: file('core/ledger/ledgerStore.ts'), code: "import { x } from '../tools/toolRun';", options, errors: 1 },
        { filename: file('core/skills/skillService.ts'), code: "import { x } from '../ledger/ledgerStore';", options, errors: 1 },
        { filename: file('core/skills/skillService.ts'), code: "import { x } from '../tools/toolRun';", options, errors: 1 },
        { filename: file('core/tools/toolRun.ts'), code: "import { x } from '../planner/plannerLoop';", options, errors: 1 },
        { filename: file('core/tools/toolRun.ts'), code: "import * as vscode from 'vscode';", options, errors: 1 },
        { filename: file('core/tools/toolRun.ts'), code: "import { x } from '../../vscode/services';", options, errors: 1 },
        { filename: file('vscode/services.ts'), code: "import { x } from '../cli/main';", options, errors: 1 },
        { filename: file('cli/main.ts'), code: "export { x } from '../vscode/services';", options, errors: 1 },
      ],
    });
  });

  it('src/mcp is an adapter over core that only the CLI launches: it imports core, the CLI may import it, nothing else may', async () => {
    await runRule({
      valid: [
        { filename: file('mcp/toolshedMcpServer.ts'), code: "import { x } from '../core/skills/skillService';", options },
        { filename: file('mcp/gateway/gatewayTools.ts'), code: "import { x } from '../../core/tools/toolRun'; import { y } from '../skillAccess';", options },
        { filename: file('cli/commands/mcp.ts'), code: "import { x } from '../../mcp/toolshedMcpServer';", options },
      ],
      invalid: [
        { filename: file('mcp/toolshedMcpServer.ts'), code: "import { x } from '../cli/commands/skillCliSupport';", options, errors: 1 },
        { filename: file('mcp/skillTools.ts'), code: "import { x } from '../vscode/services';", options, errors: 1 },
        { filename: file('mcp/skillTools.ts'), code: "import * as vscode from 'vscode';", options, errors: 1 },
        { filename: file('vscode/mcpServerDefinitions.ts'), code: "import { x } from '../mcp/toolshedMcpServer';", options, errors: 1 },
        { filename: file('core/skills/skillService.ts'), code: "import { x } from '../../mcp/skillAccess';", options, errors: 1 },
        { filename: file('workers/parseWorker.ts'), code: "import { x } from '../mcp/toolshedMcpServer';", options, errors: 1 },
      ],
    });
  });

  it('src/vscode feature folders import one way: palette may use views, so views may not use palette', async () => {
    await runRule({
      valid: [
        { filename: file('vscode/palette/registerPalette.ts'), code: "import { openSkill } from '../views/skillDirectoryView';", options },
        {
          filename: file('vscode/chat/toolshedParticipant.ts'),
          code: "import { x } from '../learning/learningController'; import { s } from '../services';",
          options,
        },
        { filename: file('vscode/extension.ts'), code: "import { a } from './chat/toolshedParticipant'; import { b } from './views/registerViews';", options },
        {
          filename: file('vscode/views/activatedToolsView.ts'),
          code: "import { x } from './toolDetails'; import { y } from '../state/activityRegistry';",
          options,
        },
      ],
      invalid: [
        {
          filename: file('vscode/views/activatedToolsView.ts'),
          code: "import type { X } from '../palette/searchProviders';",
          options,
          errors: [{ message: /src\/vscode\/views must not import src\/vscode\/palette/ }],
        },
        { filename: file('vscode/learning/learningController.ts'), code: "import { x } from '../chat/turnSession';", options, errors: 1 },
        {
          filename: file('vscode/newFeature/x.ts'),
          code: "import { x } from '../views/skillDirectoryView';",
          options,
          errors: [{ message: /not a known feature folder/ }],
        },
      ],
    });
  });

  it('files at src/vscode root: the composition root wires every folder; a shared basic imports none, and no folder imports what wires it', async () => {
    await runRule({
      valid: [
        { filename: file('vscode/services.ts'), code: "import { a } from './skills/skillPackManager'; import { b } from './tools/toolModes';", options },
        {
          filename: file('vscode/registerSkillSurfaces.ts'),
          code: "import { a } from './views/registerViews'; import { b } from './authoring/skillDiagnostics';",
          options,
        },
        { filename: file('vscode/settingsAccessor.ts'), code: "import { a } from './lifecycle'; import { b } from '../core/config/settingsSchema';", options },
        { filename: file('vscode/views/skillDirectoryView.ts'), code: "import type { S } from '../services'; import { c } from '../skillChanges';", options },
      ],
      invalid: [
        {
          // The loop this closes: views → a basic at the root → authoring → views.
          filename: file('vscode/unusedWorkspaceSkills.ts'),
          code: "import { SKILL_FILE_GLOB } from './authoring/skillFileKinds';",
          options,
          errors: [{ message: /shared basic and must not import the feature folder src\/vscode\/authoring/ }],
        },
        { filename: file('vscode/lifecycle.ts'), code: "import { x } from './services';", options, errors: [{ message: /composition root/ }] },
        { filename: file('vscode/chat/x.ts'), code: "import { activate } from '../extension';", options, errors: [{ message: /wires the feature folders/ }] },
        { filename: file('vscode/views/x.ts'), code: "import { r } from '../registerSkillSurfaces';", options, errors: 1 },
      ],
    });
  });

  it('the feature-folder table has no two folders that may import each other', async () => {
    const { VSCODE_ALLOWED } = (await import(rulePath)) as { VSCODE_ALLOWED: Record<string, readonly string[]> };
    const twoWay = Object.entries(VSCODE_ALLOWED).flatMap(([from, targets]) =>
      targets.filter((to) => VSCODE_ALLOWED[to]?.includes(from)).map((to) => `${from} ↔ ${to}`),
    );
    assert.deepEqual(twoWay, []);
    const unknown = Object.values(VSCODE_ALLOWED)
      .flat()
      .filter((to) => !(to in VSCODE_ALLOWED));
    assert.deepEqual(unknown, [], 'every allowed target is a known feature folder');
  });
});
