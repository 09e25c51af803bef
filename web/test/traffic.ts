/** The recorded server traffic the view hash and mirror tests replay: written by
 * `python -m tools.webfixtures` into test/fixtures (committed); MANAWIRE_WEB_FIXTURES=DIR
 * reads a fresh copy instead (tests/web/test_fixtures_current.py does). */
import * as fs from "node:fs";
import process from "node:process";
import type { Tag } from "../src/viewhash";

export interface ElementFixture {
  tag: Tag;
  message: string;
  digest: string;
}

/** One view class's traffic: base64 ServerMessage bytes, as the server sent them. */
export interface Traffic {
  viewer: number;
  snapshot: string;
  deltas: string[];
  resync: { after: number; snapshot: string };
  final: string;
  elements: ElementFixture[];
}

export function fixtureDir(): string {
  const given = process.env["MANAWIRE_WEB_FIXTURES"];
  if (given) return given;
  for (const dir of [`${process.cwd()}/test/fixtures`, `${process.cwd()}/web/test/fixtures`]) {
    if (fs.existsSync(`${dir}/synthetic.json`)) return dir;
  }
  throw new Error("no fixtures: run from web/ or set MANAWIRE_WEB_FIXTURES "
    + "(python -m tools.webfixtures DIR writes them)");
}

export const DIR = fixtureDir();
export const readFixture = (name: string): unknown =>
  JSON.parse(fs.readFileSync(`${DIR}/${name}`, "utf8"));
export const b64 = (s: string): Uint8Array => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
export const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
/** Every view class's traffic (seat 0, seat 1, the spectators), in that order. */
export const traffic: Traffic[] = fs.readdirSync(DIR)
  .filter((f) => /^(seat-\d+|spectator)\.json$/.test(f)).sort()
  .map((f) => readFixture(f) as Traffic);
