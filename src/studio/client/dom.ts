/**
 * The few DOM helpers the client needs. Text always goes in through textContent or text
 * nodes, attributes through setAttribute: nothing here parses HTML.
 */

/** The element with this id; throws when the page lacks it (the page and script disagree). */
export function $(id: string): HTMLElement;
export function $<T extends HTMLElement>(id: string, type: { new (): T; prototype: T }): T;
export function $<T extends HTMLElement>(
  id: string,
  type?: { new (): T; prototype: T },
): HTMLElement | T {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`Studio: the page has no #${id}`);
  if (type !== undefined && !(node instanceof type)) {
    throw new Error(`Studio: #${id} is a ${node.tagName}, not the expected element`);
  }
  return node;
}

/** `text` becomes textContent, `className` the class; false, null and undefined are left out. */
export type Attrs = Record<string, string | number | boolean | null | undefined>;
export type Child = Node | string | null | undefined;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  children: readonly Child[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = String(v);
    else if (k === "className") node.className = String(v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return node;
}

export function clear<T extends Node>(node: T): T {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export type StatusKind = "ok" | "error";

export function setStatus(node: HTMLElement, text: string, kind?: StatusKind): void {
  node.textContent = text;
  node.className = `status${kind ? ` ${kind}` : ""}`;
}

/** At most `n` characters, an ellipsis marking a cut. */
export function clip(text: string | null | undefined, n: number): string {
  const s = String(text ?? "");
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
