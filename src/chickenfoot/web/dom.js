// @ts-check
// The page's own elements, found by id and checked to be what the code takes them for: a page whose
// markup lost an element fails at once, by name, not later on a null.

/**
 * The element `#id`, of the kind `kind` (an HTMLElement when none is named).
 * @overload
 * @param {string} id
 * @returns {HTMLElement}
 */
/**
 * @template {Element} E
 * @overload
 * @param {string} id
 * @param {{ new (): E, prototype: E }} kind
 * @returns {E}
 */
/**
 * @param {string} id
 * @param {{ new (): Element, prototype: Element }} [kind]
 * @returns {Element}
 */
export function byId(id, kind = HTMLElement) {
  const node = document.getElementById(id);
  if (!(node instanceof kind)) throw new Error(`#${id} is missing or no ${kind.name}`);
  return node;
}

/**
 * A new HTML element with `attributes`, appended to `parent` if given, holding `text` if given.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number>} [attributes]
 * @param {Element | null} [parent]
 * @param {string | null} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  if (parent) parent.append(node);
  return node;
}

/**
 * Sets the text of `node` unless it says that already (a live region speaks each change once; a
 * write that changes nothing costs a layout all the same).
 * @param {Node} node
 * @param {string} text
 */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * Puts `nodes` in `parent` unless they are its children already, in that order: taking a button
 * out and putting it back would drop a press on it as surely as replacing it.
 * @param {Element} parent
 * @param {Node[]} nodes
 */
export function keepChildren(parent, nodes) {
  const same = nodes.length === parent.childNodes.length && nodes.every((node, i) => parent.childNodes[i] === node);
  if (!same) parent.replaceChildren(...nodes);
}

/**
 * Sets an attribute unless it has that value already (a write that changes nothing is work all the same).
 * @param {Element} node
 * @param {string} name
 * @param {string} value
 */
export function attribute(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/**
 * Hides or shows `node` unless it is so already.
 * @param {HTMLElement | SVGElement} node
 * @param {boolean} hidden
 */
export function setHidden(node, hidden) {
  if (node instanceof HTMLElement ? node.hidden !== hidden : node.hasAttribute("hidden") !== hidden) node.toggleAttribute("hidden", hidden);
}

/**
 * The first element within `root` that `selector` finds, of the kind `kind` (an HTMLElement when none
 * is named).
 * @overload
 * @param {ParentNode} root
 * @param {string} selector
 * @returns {HTMLElement}
 */
/**
 * @template {Element} E
 * @overload
 * @param {ParentNode} root
 * @param {string} selector
 * @param {{ new (): E, prototype: E }} kind
 * @returns {E}
 */
/**
 * @param {ParentNode} root
 * @param {string} selector
 * @param {{ new (): Element, prototype: Element }} [kind]
 * @returns {Element}
 */
export function within(root, selector, kind = HTMLElement) {
  const node = root.querySelector(selector);
  if (!(node instanceof kind)) throw new Error(`${selector} is missing or no ${kind.name}`);
  return node;
}
