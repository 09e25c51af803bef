// Run the unit tests: bundle each test/*.test.ts for Node with esbuild, then run them all
// with Node's own test runner (node --test). Exit status is the runner's.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tests = readdirSync(path.join(root, "test"))
  .filter((f) => f.endsWith(".test.ts"))
  .sort()
  .map((f) => path.join(root, "test", f));
if (tests.length === 0) {
  console.error("no test/*.test.ts files");
  process.exit(1);
}
const out = mkdtempSync(path.join(tmpdir(), "manawire-web-test-"));
try {
  await build({
    entryPoints: tests,
    bundle: true,
    format: "esm",
    platform: "node",
    target: ["node20"],
    outdir: out,
    outExtension: { ".js": ".mjs" },
    packages: "bundle",
    logLevel: "warning",
  });
  const files = readdirSync(out).filter((f) => f.endsWith(".mjs")).sort().map((f) => path.join(out, f));
  const run = spawnSync(process.execPath, ["--test", ...files], { stdio: "inherit" });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
