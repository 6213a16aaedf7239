// ESLint over every package: typescript-eslint's recommended rules, plus the type-aware rules that catch what the
// type checker does not (a promise nobody awaits or catches, a promise where a callback's result is ignored, an await
// of a non-promise, a switch over a union that forgets a case). Formatting is Prettier's (.prettierrc.json), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'deploy/local/.tools/**',
      'frontend/public/**',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['frontend/src/**/*.tsx', 'frontend/src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Tests and benchmarks drive raw protocol payloads and third-party shapes: `any` is allowed there, not in the product.
    files: [
      'test/**',
      '**/test/**',
      '**/*.test.ts',
      '**/*.test.tsx',
      'frontend/e2e/**',
      'frontend/src/lib/testing/**',
      'load-tests/**',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // k6 scripts run in k6's JavaScript runtime, which provides these globals.
    files: ['load-tests/k6/**/*.js'],
    languageOptions: {
      globals: {
        __ENV: 'readonly',
        __VU: 'readonly',
        __ITER: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
);
