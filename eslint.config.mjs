// ESLint through its CLI (next lint is gone in Next 16): typescript-eslint's recommended rules plus React hooks.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const BROWSER = [
  'components/**/*.{ts,tsx}',
  'app/**/*.{ts,tsx}',
  'lib/store/**/*.ts',
  'lib/layout/**/*.ts',
  'lib/forms/**/*.ts',
  'lib/event-log/**/*.ts',
  'lib/experiments/**/*.ts',
];
// lib/experiments is browser code but for its second door, which reads a shipped set's items from lib/tasks
const BROWSER_SERVER_SIDE = ['lib/experiments/server.ts', 'lib/experiments/shipped.ts'];
// the browser's tests and their test support run a real search in node, so they may bring a task and run the engine
const BROWSER_TESTS = [
  'components/**/*.test.ts',
  'app/**/*.test.ts',
  'lib/store/**/*.test.ts',
  'lib/layout/**/*.test.ts',
  'lib/forms/**/*.test.ts',
  'lib/event-log/**/*.test.ts',
  'lib/experiments/**/*.test.ts',
];
const LIB_SERVER = {
  group: ['@/lib/server', '@/lib/server/*', '**/lib/server', '**/lib/server/*', '../server', '../server/*'],
  message: 'components and pages do not import lib/server: use lib/contract, or RouterOutputs from lib/trpc.',
};
const NO_TASKS = {
  group: ['@/lib/tasks', '@/lib/tasks/*', '**/lib/tasks', '**/lib/tasks/*', '../tasks', '../tasks/*'],
  message:
    "browser code does not import lib/tasks (its prompts and simulations would ship to the browser): a task's " +
    'names, help and goal check are in lib/contract/tasks.ts.',
};
// Outside a room of lib/, the room is entered by its front door, <room>/index, and, for tests, its test support
// <room>/testing (held below); lib/engine has a second door, server (what runs a search: never for the browser,
// ENGINE_SERVER_DOOR). lib/contract is flat (every file is one public definition) and lib/generated is Prisma's.
// Relative imports between rooms ('../store/run-store') are caught by naming each non-door entry of the room, read
// from the disk, rather than '../store/*', which would also catch components/run/search/* from components/run/x/.
// lib/server/bench: the benchmarks' door (rooms.test.ts); lib/experiments/server: a shipped set's items (lib/tasks)
const SECOND_DOORS = { engine: ['server'], server: ['bench'], experiments: ['server'] };
const DOOR_HINTS = { engine: "; event schemas and the vocabulary are lib/contract's" };
const ROOM_DOORS = readdirSync(join(import.meta.dirname, 'lib'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !['contract', 'generated'].includes(d.name))
  .map(({ name: room }) => {
    const doors = ['index', ...(SECOND_DOORS[room] ?? []), 'testing'];
    const inside = readdirSync(join(import.meta.dirname, 'lib', room))
      .filter((f) => !/\.(md|json|test\.tsx?)$/.test(f))
      .map((f) => f.replace(/\.tsx?$/, ''))
      .filter((f) => !doors.includes(f));
    const entry = doors
      .slice(0, -1)
      .map((d) => `lib/${room}/${d}`)
      .join(' or ');
    return {
      group: [
        `**/lib/${room}/*`,
        ...doors.map((d) => `!**/lib/${room}/${d}`),
        ...inside.flatMap((f) => [`../${room}/${f}`, `../../${room}/${f}`, `../../../${room}/${f}`]),
      ],
      message: `outside lib/${room}, enter it by its door: ${entry} (tests: lib/${room}/testing)${DOOR_HINTS[room] ?? ''}.`,
    };
  });
const ENGINE_SERVER_DOOR = {
  group: ['**/engine/server'],
  message: 'the browser does not run a search: import the pure engine from lib/engine/index.',
};
const EXPERIMENTS_SERVER_DOOR = {
  group: ['**/experiments/server'],
  message: "the browser does not read a shipped set's items (lib/tasks): import lib/experiments/index.",
};
const ENGINE_TEST_SUPPORT = {
  group: ['**/engine/testing'],
  message: "the engine's test support is for tests.",
};

// test support and tools, never imported by the app (the blocks at the end, on typescript-eslint's copy of the rule)
const NO_TEST_SUPPORT = {
  group: ['**/testing', '**/testing/*'],
  message: 'test support (<room>/testing) is for *.test.ts and e2e/ only, never production code.',
};
const NO_TOOLS = {
  group: ['**/e2e/*', '**/lib/bench/*', '**/lib/harness/*', '../bench/*', '../harness/*'],
  message: 'the app never imports e2e/, lib/bench or lib/harness (tests and tools import the app).',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.next/',
      'lib/generated/',
      // the SDK's build output (npm pack makes and removes it; a local `npm run build` in lib/sdk leaves it)
      'lib/sdk/dist/',
      'data/',
      'test-results/',
      'playwright-report/',
      'next-env.d.ts',
      // the benchmark's projects are data: sample code under test, some of it wrong on purpose
      'lib/tasks/code/bench/',
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
  // The arrows of the house (shared/DESIGN.md), held by the linter rather than by memory. A file gets one
  // no-restricted-imports (a later block replaces an earlier one's), so each block lists every arrow its files obey.
  {
    files: ['**/*.{ts,tsx,mts}'],
    ignores: ['lib/engine/**', 'lib/contract/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ENGINE_TEST_SUPPORT, ...ROOM_DOORS] }] },
  },
  {
    // tests build logs by hand with the engine's test support (the engine's own tests enter other rooms by their doors)
    files: ['**/*.test.ts'],
    ignores: ['lib/contract/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...ROOM_DOORS] }] },
  },
  {
    // the browser's code never reaches into the server: server types come through lib/trpc's RouterOutputs,
    // shared definitions from lib/contract (app/api and any route.ts are the server's HTTP face and may); nor does it
    // run a search, nor import lib/tasks, whose prompts and simulations would otherwise be bundled for the browser
    files: BROWSER,
    ignores: ['app/api/**', 'app/**/route.ts', ...BROWSER_TESTS, ...BROWSER_SERVER_SIDE],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            LIB_SERVER,
            NO_TASKS,
            ENGINE_SERVER_DOOR,
            EXPERIMENTS_SERVER_DOOR,
            ENGINE_TEST_SUPPORT,
            ...ROOM_DOORS,
          ],
        },
      ],
    },
  },
  {
    // the browser's tests (and their recorder) may run a search to get a real log
    files: BROWSER_TESTS,
    rules: { 'no-restricted-imports': ['error', { patterns: [LIB_SERVER, ...ROOM_DOORS] }] },
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
            ENGINE_TEST_SUPPORT,
            ...ROOM_DOORS,
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
  // Test support stays with the tests (shared/STYLE.md: one name and one place per room, never imported by production
  // code). A room's test support is <room>/testing.ts, or <room>/testing/ when it is several files; only *.test.ts,
  // e2e/ and other test support import it. Benches and the harness are tools, not the app: they may not import test
  // support or e2e/, and nothing the app runs imports them. Held by typescript-eslint's copy of the rule so it adds to
  // the arrows above instead of replacing them (flat config keeps only the last options given to one rule name).
  {
    files: ['**/*.{ts,tsx,mjs}'],
    ignores: [
      '**/*.test.{ts,tsx}',
      'e2e/**',
      '**/testing.ts',
      '**/testing/**',
      'lib/bench/**',
      'lib/harness/**',
      'playwright.config.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [NO_TEST_SUPPORT, NO_TOOLS],
        },
      ],
    },
  },
  {
    // lib/trpc is browser code that needs the server's router type: of lib/server it takes `import type { AppRouter }`
    // only, which the build erases (a value import would bundle the server for the browser)
    files: ['lib/trpc/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_TEST_SUPPORT,
            NO_TOOLS,
            {
              group: ['**/lib/server', '**/lib/server/*', '../server', '../server/*'],
              allowTypeImports: true,
              message: 'lib/trpc is browser code: of lib/server it imports types only (`import type { AppRouter }`).',
            },
          ],
        },
      ],
    },
  },
  {
    // the SDK ships to other programs (Node and browsers) with no dependency beyond fetch: it imports its own files,
    // and of the contract types only (`import type`, erased), never a package, zod included, nor a Node module
    files: ['lib/sdk/**/*.ts'],
    // the examples are a user's programs beside the SDK, importing the packages they are about (OpenTelemetry)
    ignores: ['**/*.test.ts', 'lib/sdk/testing.ts', 'lib/sdk/examples/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_TEST_SUPPORT,
            NO_TOOLS,
            {
              regex: '^(?!\\./)',
              allowTypeImports: true,
              message: 'lib/sdk has no dependency beyond fetch: import its own files, and types only from elsewhere.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['lib/bench/**/*.ts', 'lib/harness/**/*.ts', 'playwright.config.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/testing', '**/testing/*'],
              message:
                'benches and the harness are tools, not tests: they do not import test support (<room>/testing).',
            },
            {
              group: ['**/e2e/*', '**/e2e'],
              message: 'benches and the harness never import e2e/: what both need lives in lib/harness.',
            },
          ],
        },
      ],
    },
  },
);
