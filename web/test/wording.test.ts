/** Player-facing words carry no rule numbers: the code's comments cite the rules, the
 * strings a player reads don't ("(rule 800.4a)" in the lost player's panel, "(rule 100.4)"
 * in the sideboarding hint, "(rule 404.3)", "(rule 104.3a)", "(rule 103.5)" were shown). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";

/** web/src, from where the tests run (`cd web && npm test`) or the checkout's root. */
function sourceDir(): string {
  for (const dir of [path.resolve("src"), path.resolve("web", "src")]) {
    if (existsSync(path.join(dir, "describe.ts"))) return dir;
  }
  throw new Error(`web/src not found from ${process.cwd()}`);
}

/** The code of a TypeScript file without its comments (a `//` after a space or at a line's
 * start, and block comments): what is left holds the strings shown. */
export function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "")
    .split("\n").map((line) => line.replace(/(^|\s)\/\/.*$/, "")).join("\n");
}

const CITED = /\b(?:rules?|CR) \d{3}\b|\(\d{3}(?:\.\d+[a-z]*)?\)/;

test("the comment stripper keeps strings and drops comments", () => {
  assert.equal(withoutComments('a("x (rule 1)"); // rule 800.4a\n/* 104.3a */b("http://h")'),
    'a("x (rule 1)");\nb("http://h")');
});

test("no string in web/src shows a player a rule number", () => {
  const dir = sourceDir();
  const found: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts")).sort()) {
    withoutComments(readFileSync(path.join(dir, file), "utf8")).split("\n").forEach((line, i) => {
      if (CITED.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, []);
});
