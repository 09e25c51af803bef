// Bundle the browser client: src/main.ts -> one ES module (default ../server/web/static/app.js).
// Usage: node scripts/build.mjs [OUT_FILE]. Deterministic: the same sources and pinned
// toolchain give the same bytes, which is what `python -m tools.genweb --check` relies on.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const out = process.argv[2] ?? path.resolve(root, "../server/web/static/app.js");

await build({
  entryPoints: [path.join(root, "src/main.ts")],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: ["es2022"],
  minify: true,
  legalComments: "none",
  charset: "utf8",
  outfile: out,
  logLevel: "warning",
});
