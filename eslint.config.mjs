// @ts-check
// ESLint (flat config), run by `npm test` with zero warnings allowed. Type-aware rules catch what
// review misses (an un-awaited save, a promise passed where a callback is expected); the local
// rules keep the layers of src/ one-directional (see eslint/importBoundaries.mjs) and the whole
// services bag in src/vscode's composition root (eslint/narrowServices.mjs). The .mjs/.cjs
// modules get the basic rules too.
import tseslint from 'typescript-eslint';
import { importBoundaries } from './eslint/importBoundaries.mjs';
import { narrowServices } from './eslint/narrowServices.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'examples/**/out/**', '.toolshed-host/**', 'test-results/**', 'bench/results/**', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { toolshed: { rules: { 'import-boundaries': importBoundaries, 'narrow-services': narrowServices } } },
    rules: {
      'toolshed/import-boundaries': 'error',
      'toolshed/narrow-services': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': 'error',
      'no-var': 'error',
    },
  },
  {
    // Files stay small and hold one concept; split by concept when one grows past this.
    files: ['src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }] },
  },
  {
    // The JavaScript modules (build, test-runner, host, bench and lint scripts): the same basic
    // rules, without type information (tsconfig.mjs.json type-checks them); CommonJS may require.
    files: ['**/*.mjs', '**/*.cjs'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': 'error',
      'no-var': 'error',
    },
  },
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    // Tests may use non-null assertions and empty stubs freely.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-empty-function': 'off' },
  },
);
