import { dirname, relative, resolve, sep } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/*
 * The whiteboard's rules (docs/architecture.md): which room of src/ may import which. A room not
 * named here (cli/, the composition root: app.ts, runtime.ts, main.ts, operations.ts) is on top and
 * may import any room. `shared` are the top-level files every room may use.
 */
const SHARED = ['config.ts', 'logger.ts', 'operation.ts', 'repo.ts', 'threads.ts'];
const ROOMS = {
  http: ['access', 'discovery', 'engine', 'valuation', 'domain', 'money', 'mcp'],
  mcp: [],
  engine: ['valuation', 'domain', 'money'],
  admin: ['models', 'data', 'domain', 'money'],
  notify: ['valuation', 'data', 'domain', 'money'],
  access: ['data', 'domain', 'money'],
  models: ['discovery', 'valuation', 'data', 'domain', 'money'],
  discovery: ['valuation', 'domain', 'money'],
  valuation: ['domain', 'money'],
  data: ['domain', 'money'],
  domain: [],
  money: [],
};
const ROOT = dirname(new URL(import.meta.url).pathname);

/** `src/<room>/...` -> room; `src/x.ts` -> the file's name; web/src/ (the app) -> 'web'; else null. */
function roomOf(file) {
  const parts = relative(ROOT, file).split(sep);
  if (parts[0] === 'web') return parts[1] === 'src' ? 'web' : null;
  if (parts[0] !== 'src') return null;
  return parts.length === 2 ? parts[1].replace(/\.js$/, '.ts') : parts[1];
}

const house = {
  rules: {
    rooms: {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const from = roomOf(context.filename);
        if (from === null) return {};
        const check = (node) => {
          const spec = node.source?.value;
          if (typeof spec !== 'string' || !spec.startsWith('.')) return;
          const to = roomOf(resolve(dirname(context.filename), spec));
          if (to === null || to === from) return;
          let ok;
          if (from === 'web') ok = to === 'web';
          else if (to === 'web') ok = false;
          else if (!(from in ROOMS)) ok = true;
          else ok = ROOMS[from].includes(to) || (SHARED.includes(to) && !['domain', 'money', 'valuation'].includes(from));
          if (!ok) context.report({ node: node.source, message: `${from === 'web' ? 'web/' : `src/${from}`} may not import ${to === 'web' ? 'web/' : `src/${to}`} (docs/architecture.md: ${from === 'web' ? 'the web app talks to the API over HTTP only' : `${from}/ imports ${(ROOMS[from] ?? []).join(', ') || 'no other room'}`})` });
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'coverage/', '.cache/', 'web/dist/', 'build/', 'build-test/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  // The web app's browser globals are checked by TypeScript (web/tsconfig.json has the DOM library).
  { files: ['web/src/**/*.{ts,tsx}'], rules: { 'no-undef': 'off' } },
  { files: ['src/**/*.ts', 'web/**/*.{ts,tsx}'], plugins: { house }, rules: { 'house/rooms': 'error' } },
  // No source file over 500 lines (the generated API types aside).
  {
    files: ['src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/api/schema.d.ts'],
    rules: { 'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }] },
  },
);
