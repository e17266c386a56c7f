// ESLint through its CLI (next lint is gone in Next 16): typescript-eslint's recommended rules plus React hooks.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.next/',
      'lib/generated/',
      'data/',
      'test-results/',
      'playwright-report/',
      'next-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.tsx', '**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The arrows of the house (shared/DESIGN.md), held by the linter rather than by memory.
  {
    // the browser's code never reaches into the server: server types come through lib/trpc's RouterOutputs,
    // shared definitions from lib/contract (app/api is the server's HTTP face and may)
    files: ['components/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}', 'lib/store/**/*.ts', 'lib/layout/**/*.ts'],
    ignores: ['app/api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/lib/server', '@/lib/server/*', '**/lib/server', '**/lib/server/*', '../server', '../server/*'],
              message:
                'components and pages do not import lib/server: use lib/contract, or RouterOutputs from lib/trpc.',
            },
          ],
        },
      ],
    },
  },
  {
    // the contract is what everyone imports, so it imports nothing of ours (zod is its one package)
    files: ['lib/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*', '@/*'], message: 'lib/contract imports nothing of ours.' }] },
      ],
    },
  },
  {
    // the model backends know nothing of tasks or the server (lib/tasks imports them; their tests may bring a task)
    files: ['lib/models/**/*.ts'],
    ignores: ['lib/models/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../tasks', '../tasks/*', '../server', '../server/*', '@/lib/tasks/*', '@/lib/server/*'],
              message: 'lib/models imports neither lib/tasks nor lib/server.',
            },
          ],
        },
      ],
    },
  },
  {
    // the engine is pure search: it imports itself and the contract, nothing of the server, browser or tasks
    // (its tests may bring a task or the store to the engine, as users of it do)
    files: ['lib/engine/**/*.ts'],
    ignores: ['lib/engine/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '!../contract', '!../contract/*', '@/*', '!@/lib/contract', '!@/lib/contract/*'],
              message: 'lib/engine imports only itself and lib/contract.',
            },
          ],
        },
      ],
    },
  },
);
