import { RuleTester } from 'eslint';
import path from 'node:path';
import tseslint from 'typescript-eslint';

// The rule is ESM (it runs inside ESLint's flat config); load it the same way.
const rulePath = path.join(__dirname, '..', '..', '..', 'eslint', 'importBoundaries.mjs');

describe('lint: toolshed/import-boundaries (layers run downward)', () => {
  const src = path.join(path.sep, 'repo', 'src');
  const file = (relative: string) => path.join(src, relative);
  const options = [{ srcRoot: src }];

  it('accepts downward imports and rejects upward, sideways and adapter imports', async () => {
    const { importBoundaries } = (await import(rulePath)) as { importBoundaries: never };
    const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never, ecmaVersion: 2022, sourceType: 'module' } });
    tester.run('import-boundaries', importBoundaries, {
      valid: [
        { filename: file('core/tools/toolRun.ts'), code: "import { x } from '../search/bm25f';", options },
        { filename: file('core/tools/index/toolIndex.ts'), code: "import { x } from '../../sql/sqlEngine';", options },
        { filename: file('core/planner/plannerLoop.ts'), code: "import { x } from '../skills/skillService';", options },
        { filename: file('core/skills/skillService.ts'), code: "import type * as vscode from 'vscode';", options },
        { filename: file('vscode/chat/x.ts'), code: "import * as vscode from 'vscode'; import { y } from '../tools/lmToolCatalog'; import { z } from '../../core/tools/toolRun';", options },
        { filename: path.join(path.sep, 'repo', 'test', 'unit', 'x.ts'), code: "import * as vscode from 'vscode'; import { a } from '../../src/cli/main';", options },
      ],
      invalid: [
        { filename: file('core/search/bm25f.ts'), code: "import { x } from '../tools/toolRun';", options, errors: 1 },
        { filename: file('core/skills/skillService.ts'), code: "import { x } from '../tools/toolRun';", options, errors: 1 },
        { filename: file('core/tools/toolRun.ts'), code: "import { x } from '../planner/plannerLoop';", options, errors: 1 },
        { filename: file('core/tools/toolRun.ts'), code: "import * as vscode from 'vscode';", options, errors: 1 },
        { filename: file('core/tools/toolRun.ts'), code: "import { x } from '../../vscode/services';", options, errors: 1 },
        { filename: file('vscode/services.ts'), code: "import { x } from '../cli/main';", options, errors: 1 },
        { filename: file('cli/main.ts'), code: "export { x } from '../vscode/services';", options, errors: 1 },
      ],
    });
  });
});
