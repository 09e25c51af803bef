/**
 * The deck-paste flow: the deck list a player pastes or uploads is sent as it is with
 * JoinRoom/QuickMatch (the server reads every format of docs/playing.md "Deck lists" and checks
 * it against the room's format); a refused deck comes back as ERROR_CODE_INVALID_DECK with
 * one problem per `Error.details` entry, most of them starting "line N: ".
 */

/** The server's demo decks, by name (server/cards/data/decks/; the server takes a name in
 * any case or spacing, "Dimir Mill"): what a player may type in the deck box instead of a
 * list. The lobby never named them -- only docs/playing.md did (a new player's review).
 * tests/web/test_demo_decks_named.py keeps the list the server's. */
export const DEMO_DECKS: readonly string[] = [
  "azorius-fliers", "dimir-mill", "gainland-mosaic", "golgari-grind", "izzet-spells",
  "naya-pets", "orzhov-lifegain", "rakdos-aggro", "selesnya-counters", "simic-draw",
];

/** The server's limit on a deck list (protocol/README.md, JoinRoom.deck). */
export const MAX_DECK_BYTES = 32 * 1024;

export interface DeckProblem {
  /** 1-based line of the deck text, or 0 for a problem of the whole deck. */
  line: number;
  message: string;
}

/** The problems of a refused deck, by line (whole-deck problems first, then by line). */
export function deckProblems(details: readonly string[]): DeckProblem[] {
  const problems = details.map((detail) => {
    const m = /^line (\d+): (.*)$/s.exec(detail);
    return m ? { line: Number(m[1]), message: m[2] ?? "" } : { line: 0, message: detail };
  });
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.line - b.p.line || a.i - b.i)
    .map(({ p }) => p);
}

/** A problem the client finds before sending (so nothing is lost on the way), or null. */
export function deckPrecheck(text: string): string | null {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_DECK_BYTES) {
    return `The deck list is ${bytes} bytes; the server accepts at most ${MAX_DECK_BYTES}.`;
  }
  return null;
}

/** The text of an uploaded deck file (UTF-8), or an error in words: what was wrong with the
 * file, its name as written, and that nothing was sent -- the deck box keeps its text, which
 * is what a seat is taken with. (It said "Mydeck.png is not UTF-8 text." under "The deck was
 * refused", the name capitalised as a sentence's first word: a new player's review.) */
export async function readDeckFile(file: Blob & { name?: string }): Promise<string> {
  const named = file.name ? `The file “${file.name}”` : "The file";
  const kept = "Nothing was sent: the deck box is unchanged, and its text is the deck used.";
  if (file.size > MAX_DECK_BYTES) {
    throw new Error(`${named} couldn't be read as a deck list: it is ${file.size} bytes, and a `
      + `deck list is at most ${MAX_DECK_BYTES}. ${kept}`);
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Error(`${named} couldn't be read as a deck list: it isn't text (a deck list is a `
      + `text file, such as .txt, .dek, .cod or .dck). ${kept}`);
  }
  return namedAfterFile(text, file.name ?? "");
}

/** A plain-text (or MTG Arena) list with no name of its own named after its file, as the
 * command line names it: a first line `Name: mydeck` for `mydeck.txt` (the page said "You
 * play your deck." where `manawire play --deck mydeck.txt` says 'mydeck'). XML files
 * (Cockatrice, MTGO) and Forge's `.dck` carry their own names, and are left as they are. */
export function namedAfterFile(text: string, fileName: string): string {
  const stem = fileName.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "").trim();
  const body = text.replace(/^\uFEFF/, "");
  if (!stem || /^\s*</.test(body) || /^\s*\[metadata\]/im.test(body)
    || /^\s*name(:|\s)/im.test(body)) return text;
  return `Name: ${stem}\n${text}`;
}
