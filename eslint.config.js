import path from 'node:path'
import js from '@eslint/js'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const KEBAB_CASE = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*$/

/** The house's own rules, where no plugin says quite what we mean. */
const house = {
  rules: {
    'kebab-case-file-names': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const name = path.basename(context.filename)
        if (!KEBAB_CASE.test(name)) {
          context.report({ loc: { line: 1, column: 0 }, message: `file names are kebab-case: "${name}"` })
        }
        return {}
      },
    },
  },
}

/** A rule that keeps one side of the house from importing another. */
function forbidImports(group, message) {
  return { 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] }
}

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', 'coverage', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // CommonJS on purpose (server/db/wal-checkpoint-worker.cjs loads in any runner without a TS loader)
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['client/**/*.tsx', 'client/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // src/ is shared by browser and server: it must not reach into either side
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: forbidImports(['**/server/**', '**/client/**', 'node:*'], 'src/ is isomorphic'),
  },
  {
    // what both sides need lives in src/; the browser bundle must never pull in server code
    files: ['client/**/*.ts', 'client/**/*.tsx'],
    rules: forbidImports(['**/server/**'], 'the client imports src/, never server/'),
  },
  {
    files: ['server/**/*.ts'],
    rules: forbidImports(['**/client/**'], 'the server imports src/, never client/'),
  },
  {
    // a cycle makes the order modules load in matter, and usually means a job split in the wrong place
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    // migrations keep the timestamped names their table records (renaming one would run it again)
    files: ['**/*.{ts,tsx,js,cjs,mjs}'],
    ignores: ['migrations/2*.ts'],
    plugins: { house },
    rules: { 'house/kebab-case-file-names': 'error' },
  },
)
