// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.test-build/**',
      'node_modules/**',
      'data/**',
      'web/dist/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Import cycles are checked by `npm run cycles` (madge), part of `npm test`.
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration in src/config only.' },
      ],
    },
  },
  {
    // The API's shapes know nothing of HTTP frameworks or Node: the web page compiles them too,
    // so they import single modules, not barrels that bring in the rest of a part.
    files: ['src/api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['fastify', '@fastify/*', 'node:*', '../*/index.js'] },
      ],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['src/config/**', 'test/**', 'bench/**', 'scripts/**', '**/*.test.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
