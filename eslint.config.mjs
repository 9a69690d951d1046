// ESLint (flat config) with typescript-eslint: `npm run lint` (part of `npm test`). The recommended sets,
// with the rules today's code does not yet follow everywhere set to warn (each named below), so the lint
// passes now and a new error fails it. Formatting is prettier's (package.json "prettier", `npm run format:check`).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'reports/', 'cgp-reports/', 'coverage/', 'generated/', 'fixtures/', 'vectors/', 'examples/python-host/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.node },
    rules: {
      // a leading underscore marks a binding kept on purpose (a destructured rest, a callback's position)
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // the protocol's checks match control characters on purpose (NDJSON framing, JSON escapes)
      'no-control-regex': 'off',
      // to do: each of these still has a few places in today's code
      '@typescript-eslint/no-explicit-any': 'warn',
      'no-useless-assignment': 'warn',
      'prefer-const': 'warn',
      'preserve-caught-error': 'warn',
      'no-useless-escape': 'warn',
      'no-misleading-character-class': 'warn',
    },
  },
  // no function over 150 lines in the product, its scripts and benches (tests' describe blocks may be longer)
  { files: ['src/**', 'scripts/**', 'steps/**', 'bench/**'], rules: { 'max-lines-per-function': ['error', { max: 150 }] } },
  // the inspector's page script runs in the browser
  { files: ['assets/**/*.js'], languageOptions: { globals: globals.browser } },
  // CommonJS files (the scripted provider, started as a plain node process)
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.node }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
