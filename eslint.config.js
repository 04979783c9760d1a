// `make lint`: our browser scripts and their tests read no name they do not define or import (a removed import
// would otherwise surface only when a page runs that line), and leave no import or variable unused.
import globals from "globals";

export default [
  { ignores: [".venv/", "node_modules/", "build/", "plugins/zadachnik/runtime/assets/vendor/"] },
  {
    files: ["plugins/zadachnik/runtime/assets/js/**/*.js", "tests/js/**/*.mjs"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      "no-undef": "error",
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none", varsIgnorePattern: "^_",
        ignoreRestSiblings: true }],
    },
  },
  { files: ["tests/js/**/*.mjs"], languageOptions: { globals: { ...globals.node } } },
  {
    files: ["plugins/zadachnik/runtime/assets/js/python-worker.js"],
    languageOptions: { globals: { ...globals.worker } },
  },
  // Classic scripts: polyfills run in <head> before mkdocs-material's bundle.
  {
    files: ["plugins/zadachnik/runtime/assets/js/native-worker.js",
      "plugins/zadachnik/runtime/assets/js/search-lang.js"],
    languageOptions: { sourceType: "script" },
  },
];
