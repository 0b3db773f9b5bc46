/**
 * Building the DOM without a framework or innerHTML: every text goes through a text node, so what the API returns
 * (emails, error messages, URLs) can never become markup, and nothing needs the CSP's 'unsafe-inline'.
 */
export type Child = Node | string | number | null | undefined | false | Child[];
type Attribute = string | number | boolean | null | undefined | ((event: never) => void);
export type Attributes = Record<string, Attribute>;

function apply(element: Element, attributes: Attributes | undefined, children: Child[]): void {
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value as EventListener);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children.flat(Infinity as 1) as Child[]) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: `h('button', { type: 'button', onclick: () => … }, 'Save')`; `on…` attributes are listeners. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  apply(element, attributes, children);
  return element;
}

/** An SVG element, for the usage chart. */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  apply(element, attributes, children);
  return element;
}

/** Replaces an element's content. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

let ids = 0;
/** A document-unique id, to tie a label or a description to its field. */
export function uid(prefix: string): string {
  ids += 1;
  return `${prefix}-${ids}`;
}

/** A labelled field: the label above its control, an optional hint tied to it by aria-describedby. */
export function field(label: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, hint?: string): HTMLDivElement {
  control.id ||= uid('field');
  const hintElement = hint === undefined ? undefined : h('p', { class: 'hint', id: `${control.id}-hint` }, hint);
  if (hintElement) control.setAttribute('aria-describedby', hintElement.id);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintElement);
}

/** A region that screen readers announce when its text changes; errors use role=alert. */
export function statusLine(kind: 'status' | 'alert' = 'status'): HTMLParagraphElement {
  return h('p', { role: kind, class: kind === 'alert' ? 'message error' : 'message', 'aria-live': kind === 'alert' ? 'assertive' : 'polite' });
}
