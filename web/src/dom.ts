/** A tiny DOM builder: `h("button", {class: "x", onclick: f}, "text")`. No framework. */

export type Child = Node | string | number | null | undefined | false | Child[];
export type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/** An element with attributes (`on*` functions become listeners; `false`/`null` are left
 * out; `true` is an empty attribute) and children (nested arrays are flattened). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K, attrs: Attrs | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (typeof value === "function") {
        el.addEventListener(name.slice(2), value);
      } else if (name === "value" && "value" in el) {
        (el as HTMLInputElement).value = String(value);
      } else if (name === "checked" && el instanceof HTMLInputElement) {
        el.checked = Boolean(value);
      } else {
        el.setAttribute(name, value === true ? "" : String(value));
      }
    }
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (typeof child === "string" || typeof child === "number") {
      el.appendChild(document.createTextNode(String(child)));
    } else el.appendChild(child);
  }
}

/** Replace `el`'s children, keeping keyboard focus on the element with the same `data-key`
 * (a re-render must not throw a keyboard user's focus away). */
export function replaceChildren(el: HTMLElement, ...children: Child[]): void {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && el.contains(active)
    ? active.getAttribute("data-key") : null;
  el.replaceChildren();
  append(el, children);
  if (key !== null) {
    const again = el.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
    again?.focus();
  }
}

/** Input types a key typed into is text (and so no shortcut): a checkbox, radio button or
 * button isn't -- after ticking "Stop at every step" the shortcuts stopped working (a new
 * player's review). */
const TEXT_INPUTS = new Set(["text", "search", "email", "password", "tel", "url", "number",
  "date", "datetime-local", "month", "time", "week", ""]);

/** Whether a key pressed with `el` focused is typed into it (a text-like input, a textarea,
 * a select, something contenteditable), so the page's shortcuts leave it alone. */
export function takesKeys(el: { tagName?: string; type?: string; isContentEditable?: boolean } | null): boolean {
  if (!el) return false;
  if (el.isContentEditable) return true;
  const tag = (el.tagName ?? "").toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  return tag === "INPUT" && TEXT_INPUTS.has((el.type ?? "").toLowerCase());
}
