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
      if (name === "checked" && el instanceof HTMLInputElement) { // (unticked too: see patchNode)
        el.checked = Boolean(value);
        checks.set(el, Boolean(value));
        continue;
      }
      if (value === undefined || value === null || value === false) continue;
      if (typeof value === "function") {
        el.addEventListener(name.slice(2), value);
        const all = listeners.get(el);
        if (all) all.push([name.slice(2), value]);
        else listeners.set(el, [[name.slice(2), value]]);
      } else if (name === "value" && "value" in el) {
        (el as HTMLInputElement).value = String(value);
        values.set(el, String(value));
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

/** The listeners, values and ticks {@link h} gave its elements: {@link patchChildren} moves
 * a new element's onto the element it keeps in its place. */
const listeners = new WeakMap<Element, [string, EventListener][]>();
const values = new WeakMap<Element, string>();
const checks = new WeakMap<Element, boolean>();
/** Elements {@link patchChildren} never patches another into, nor into another: see {@link kept}. */
const keptAsIs = new WeakSet<Node>();

/** Marks `el` to be kept as it is by {@link patchChildren}: put in place, or taken out, whole
 * -- never made into another element, nor another into it. For an element the page keeps
 * across renders (a text box being typed in, the log), and for one a listener of its render
 * holds (it must be the element in the page: a "more options" button scrolling its list). */
export function kept<T extends Element>(el: T): T {
  keptAsIs.add(el);
  return el;
}

/** Elements whose children {@link patchChildren} leaves as they are: see {@link slot}. */
const slots = new WeakSet<Node>();

/** Marks `el` as a slot: {@link patchChildren} patches it as any element, but leaves its
 * children to the page (which puts in an element it keeps, never taken out: a list that
 * keeps its scrolling). A slot is only ever matched with a slot. */
export function slot<T extends Element>(el: T): T {
  slots.add(el);
  return el;
}

/** Like {@link replaceChildren}, but the elements already there are kept and changed into
 * the new ones where they match (the same tag and `data-key`, in order): their attributes,
 * listeners, values and text. Rebuilding a whole board for every state had the browser
 * style, lay out and paint all of it again -- most of a game's CPU in the browser -- and lost
 * what the page held on its elements (a card hovered, a focus, a slider being dragged). */
export function patchChildren(el: HTMLElement, ...children: Child[]): void {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && el.contains(active)
    ? active.getAttribute("data-key") : null;
  const next = document.createDocumentFragment();
  append(next, children);
  patchList(el, next);
  if (key !== null && !el.contains(document.activeElement)) {
    const again = el.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
    again?.focus();
  }
}

function patchList(parent: Node, next: Node): void {
  let old = parent.firstChild;
  for (let node = next.firstChild; node !== null;) {
    const following = node.nextSibling;
    if (old !== null && !matches(old, node) && node instanceof Element
        && (node.hasAttribute("data-key") || slots.has(node))) {
      // A keyed element or a slot further on (a panel before it gone): the old ones before it
      // go, so that it is kept where it is -- not taken out and put back.
      let ahead = old.nextSibling;
      while (ahead !== null && !matches(ahead, node)) ahead = ahead.nextSibling;
      if (ahead !== null) {
        while (old !== ahead) {
          const gone: Node = old!;
          old = gone.nextSibling;
          parent.removeChild(gone);
        }
      }
    }
    if (old !== null && matches(old, node)) {
      patchNode(old, node);
      old = old.nextSibling;
    } else parent.insertBefore(node, old);
    node = following;
  }
  while (old !== null) {
    const following = old.nextSibling;
    parent.removeChild(old);
    old = following;
  }
}

function matches(old: Node, node: Node): boolean {
  if (old.nodeType !== node.nodeType) return false;
  if (old.nodeType === Node.TEXT_NODE) return true;
  if (!(old instanceof Element) || !(node instanceof Element)) return false;
  return old.tagName === node.tagName && !keptAsIs.has(old) && !keptAsIs.has(node)
    && slots.has(old) === slots.has(node) && old.getAttribute("data-key") === node.getAttribute("data-key");
}

function patchNode(old: Node, node: Node): void {
  if (old.nodeType === Node.TEXT_NODE) {
    if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
    return;
  }
  const o = old as Element, n = node as Element;
  for (const name of o.getAttributeNames()) if (!n.hasAttribute(name)) o.removeAttribute(name);
  for (const name of n.getAttributeNames()) {
    const value = n.getAttribute(name)!;
    if (o.getAttribute(name) !== value) o.setAttribute(name, value);
  }
  for (const [type, fn] of listeners.get(o) ?? []) o.removeEventListener(type, fn);
  const mine = listeners.get(n);
  if (mine) {
    for (const [type, fn] of mine) o.addEventListener(type, fn);
    listeners.set(o, mine);
  } else listeners.delete(o);
  const value = values.get(n);
  if (value !== undefined && (o as HTMLInputElement).value !== value) (o as HTMLInputElement).value = value;
  const checked = checks.get(n);
  if (checked !== undefined && (o as HTMLInputElement).checked !== checked) (o as HTMLInputElement).checked = checked;
  if (slots.has(n)) slots.add(o);
  else patchList(o, n);
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
