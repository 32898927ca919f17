// Lint rules: the recommended sets of ESLint and typescript-eslint, plus the few rules that catch
// real mistakes in async server code.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'bench/results/', 'coverage/', '.scratch/', 'dist/', '.dist-*/', 'admin/src/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error'] }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // The script the sign-in pages load in the browser.
    files: ['src/auth/pages/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { document: 'readonly', fetch: 'readonly', FormData: 'readonly', location: 'readonly', navigator: 'readonly', PublicKeyCredential: 'readonly', URLSearchParams: 'readonly' },
    },
  },
  {
    // The administration panel (admin/, decisions/0042): React in the browser.
    // The rules of hooks alone: the plugin's other rules are the React Compiler's, which the panel does not use.
    files: ['admin/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
    languageOptions: { globals: { window: 'readonly', document: 'readonly' } },
  },
  {
    // A LIMIT bound as a parameter made SQLite prepare the statement again on every run (decisions/0065):
    // the count goes in as a literal, through db/dialect.ts's limitLiteral.
    files: ['src/**/*.ts'],
    ignores: ['src/db/migrations/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='limit']:not([arguments.0.callee.name='limitLiteral'])",
          message: 'A LIMIT goes into the statement as limitLiteral(count) (db/dialect.ts, decisions/0065): a bound one re-prepares on SQLite.',
        },
      ],
    },
  },
  {
    // dependency-cruiser reads CommonJS configuration.
    files: ['.dependency-cruiser.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } },
  },
  {
    files: ['bench/**', 'src/cli/**', 'bin/**'],
    rules: { 'no-console': 'off' },
  },
);
