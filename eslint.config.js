// ESLint flat config: a small set of bug-catching rules, plus the process boundaries of the app
// (README「架构」). Each layer imports only what its side may. The rules are import-string patterns:
// every cross-layer import goes through an alias (@main, @renderer) or a relative path that names
// the other layer's folder.
import { builtinModules } from 'node:module'
import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

const nodeBuiltins = {
  // `fs`, `path`, `fs/promises`, … and every `node:` specifier.
  paths: builtinModules.filter((m) => !m.startsWith('_')),
  regex: '^node:',
}

/** One `no-restricted-imports` rule from the groups a layer may not reach. */
function forbid(...groups) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: groups.flatMap((g) =>
          (g.paths ?? []).map((name) => ({ name, message: g.message, ...(g.importNames && { importNames: g.importNames }) })),
        ),
        patterns: groups.flatMap((g) => (g.regex ? [{ regex: g.regex, message: g.message }] : [])),
      },
    ],
  }
}

const main = { regex: '^@main(/|$)|(^|/)(src/)?main/', message: '主进程代码只属于主进程：经 IPC（window.api）调用它。' }
const renderer = { regex: '^@renderer(/|$)|(^|/)renderer/', message: '渲染进程代码只属于渲染进程。' }
const preload = { regex: '(^|/)preload(/|$)', message: 'preload 只暴露 window.api；它的类型在 src/preload/index.d.ts，由 tsconfig 引入。' }
const server = { regex: '(^|/)server/src(/|$)', message: '客户端不引入服务端代码：经 /api/v1 调用它，共同的类型放在 src/shared。' }
const electron = { paths: ['electron'], message: '只有主进程与 preload 使用 electron。' }
const node = (message) => ({ ...nodeBuiltins, message })
// One way to take a number: antd's own drops full-width digits (a Chinese input method's ４).
const inputNumber = {
  paths: ['antd'],
  importNames: ['InputNumber'],
  message: '数字输入框用 @renderer/components/NumberInput（接受全角数字）。',
}

export default defineConfig(
  {
    ignores: [
      '**/node_modules/',
      'out/',
      'dist/',
      'server/dist/',
      'coverage/',
      'server/data/',
      'bench/.data/',
      'e2e/screenshots/',
      'e2e/.artifacts/',
      '.ci/results/',
      // A deliberately insecure app the release checks must catch.
      'tools/release-checks/fixtures/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_arg` marks a parameter a signature requires; `const { probe, ...rest } = x` leaves a field out.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // `let self!: T` assigned once, after a closure that reads it was created, cannot be const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // `Kysely<any>`: Kysely's type for migrations (they must not depend on today's schema) and its dialect hooks.
    files: ['server/src/db/migrations/**', 'server/src/db/migrate.ts', 'server/src/db/sqlite-routing.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // CommonJS files (the electronegativity scan) load their modules with require by definition.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },

  // ---- boundaries ----
  {
    files: ['src/shared/**'],
    rules: forbid(main, renderer, preload, server, electron, node('契约（src/shared）是纯 TypeScript：不用 Node 内置模块。')),
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: forbid(main, preload, server, electron, inputNumber, node('渲染进程运行在沙箱里，没有 Node：需要时经 window.api 请主进程做。')),
  },
  {
    files: ['src/preload/**'],
    rules: forbid(main, renderer, server, node('沙箱中的 preload 没有 Node 内置模块：只用 electron 的 contextBridge 与 ipcRenderer。')),
  },
  {
    files: ['src/main/**'],
    ignores: ['src/main/**/*.test.ts'],
    rules: forbid(renderer, preload, server),
  },
  {
    // Main's integration tests start a real server to talk to (nothing of ours is mocked), so only
    // the shipped main-process code is kept away from server/src.
    files: ['src/main/**/*.test.ts'],
    rules: forbid(renderer, preload),
  },
  {
    files: ['server/src/**'],
    rules: forbid(main, renderer, preload, electron),
  },

  // ---- React ----
  {
    // The hook rules and the React Compiler's checks (purity, refs, immutability, …).
    files: ['src/renderer/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
    },
  },
)
