/** Which focused elements take the keys typed (web/src/dom.ts takesKeys): the page's
 * shortcuts (P, T, A, 1-9) leave those alone, and only those. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { takesKeys } from "../src/dom";

test("text boxes, textareas, selects and contenteditable take keys; a checkbox or a button doesn't", () => {
  // After ticking "Stop at every step (full control)" the checkbox kept the focus and every
  // shortcut was ignored (a new player's review).
  assert.equal(takesKeys({ tagName: "INPUT", type: "checkbox" }), false);
  assert.equal(takesKeys({ tagName: "INPUT", type: "radio" }), false);
  assert.equal(takesKeys({ tagName: "INPUT", type: "button" }), false);
  assert.equal(takesKeys({ tagName: "BUTTON", type: "button" }), false);
  assert.equal(takesKeys({ tagName: "DIV" }), false);
  assert.equal(takesKeys(null), false);
  for (const type of ["text", "password", "number", "search", ""]) {
    assert.equal(takesKeys({ tagName: "INPUT", type }), true, type);
  }
  assert.equal(takesKeys({ tagName: "TEXTAREA" }), true);
  assert.equal(takesKeys({ tagName: "SELECT" }), true);
  assert.equal(takesKeys({ tagName: "DIV", isContentEditable: true }), true);
});
