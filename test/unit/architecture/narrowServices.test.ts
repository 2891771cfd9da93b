import { RuleTester } from 'eslint';
import path from 'node:path';
import tseslint from 'typescript-eslint';

// The rule is ESM (it runs inside ESLint's flat config); load it the same way.
const rulePath = path.join(__dirname, '..', '..', '..', 'eslint', 'narrowServices.mjs');

describe('lint: toolshed/narrow-services (only the composition root takes the whole services bag)', () => {
  const src = path.join(path.sep, 'repo', 'src');
  const file = (relative: string) => path.join(src, relative);
  const options = [{ srcRoot: src }];

  it('accepts a Pick of the bag or a narrow interface and rejects the whole bag outside extension.ts and services.ts', async () => {
    const { narrowServices } = (await import(rulePath)) as { narrowServices: never };
    new RuleTester({ languageOptions: { parser: tseslint.parser as never, ecmaVersion: 2022, sourceType: 'module' } }).run('narrow-services', narrowServices, {
      valid: [
        {
          filename: file('vscode/lmTools/skillGetTool.ts'),
          code: "import type { ToolshedServices } from '../services'; export function f(s: Pick<ToolshedServices, 'skills' | 'skillContext'>) {}",
          options,
        },
        { filename: file('vscode/skills/sync.ts'), code: 'export function f(deps: { skills: SkillService; logger: Logger }) {}', options },
        { filename: file('vscode/extension.ts'), code: 'let services: ToolshedServices; export interface Api { services: ToolshedServices }', options },
        { filename: file('vscode/services.ts'), code: 'export async function createServices(): Promise<ToolshedServices> {}', options },
        { filename: path.join(path.sep, 'repo', 'test', 'host', 'x.ts'), code: 'function f(s: ToolshedServices) {}', options },
      ],
      invalid: [
        {
          filename: file('vscode/chat/toolshedParticipant.ts'),
          code: "import type { ToolshedServices } from '../services'; export function f(services: ToolshedServices) {}",
          options,
          errors: [{ message: /not the whole ToolshedServices/ }],
        },
        { filename: file('vscode/registerSkillSurfaces.ts'), code: 'class A { constructor(private readonly s: ToolshedServices) {} }', options, errors: 1 },
        { filename: file('vscode/chat/x.ts'), code: "type Search = ToolshedServices['skills']['search'];", options, errors: 1 },
        { filename: file('vscode/chat/x.ts'), code: "function f(s: Partial<ToolshedServices>, t: Pick<Other, 'a'> & ToolshedServices) {}", options, errors: 2 },
      ],
    });
  });
});
