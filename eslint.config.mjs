// ESLint through its CLI (next lint is gone in Next 16): typescript-eslint's recommended rules plus React hooks.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Browser code's forbidden imports (one list each, so the blocks below that share files repeat no pattern).
const NO_SERVER = {
  group: ['@/lib/server', '@/lib/server/*', '**/lib/server', '**/lib/server/*', '../server', '../server/*'],
  message: 'components and pages do not import lib/server: use lib/contract, or RouterOutputs from lib/trpc.',
};
const NO_TASKS = {
  group: ['@/lib/tasks', '@/lib/tasks/*', '**/lib/tasks', '**/lib/tasks/*', '../tasks', '../tasks/*'],
  message:
    "browser code does not import lib/tasks (its prompts and simulations would ship to the browser): a task's " +
    'names, help and goal check are in lib/contract/tasks.ts.',
};
const BROWSER_FILES = ['components/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}', 'lib/store/**/*.ts', 'lib/layout/**/*.ts'];
// tests and their support run a real search in node, so they may bring a task
const BROWSER_TEST_FILES = ['**/*.test.ts', 'components/run/testing/**'];
const BROWSER_TEST_FILES_OF_BROWSER = [
  'components/**/*.test.ts',
  'app/**/*.test.ts',
  'lib/store/**/*.test.ts',
  'lib/layout/**/*.test.ts',
  'components/run/testing/**',
];

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
    // shared definitions from lib/contract (app/api is the server's HTTP face and may); nor into lib/tasks, whose
    // prompts and simulations would otherwise be bundled for the browser
    files: BROWSER_FILES,
    ignores: ['app/api/**', ...BROWSER_TEST_FILES],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SERVER, NO_TASKS] }] },
  },
  {
    // the same files' tests and test support: still never the server
    files: BROWSER_TEST_FILES_OF_BROWSER,
    ignores: ['app/api/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SERVER] }] },
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
