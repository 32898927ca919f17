/**
 * The few questions the converter asks of parsed HTML, over parse5's tree (a spec-conforming parser, so
 * markup is read the way a browser reads it, entities decoded exactly once).
 */
import { parseFragment, serializeOuter, type DefaultTreeAdapterTypes } from 'parse5';

export type Node = DefaultTreeAdapterTypes.ChildNode;
export type Element = DefaultTreeAdapterTypes.Element;
export type TextNode = DefaultTreeAdapterTypes.TextNode;

export function parseHtml(html: string): Node[] {
  return parseFragment(html).childNodes;
}

export function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

export function isText(node: Node): node is TextNode {
  return node.nodeName === '#text';
}

export function isComment(node: Node): node is DefaultTreeAdapterTypes.CommentNode {
  return node.nodeName === '#comment';
}

/** Children of an element; a `<template>` keeps its children in `content`. */
export function childrenOf(element: Element): Node[] {
  return 'content' in element ? (element as DefaultTreeAdapterTypes.Template).content.childNodes : element.childNodes;
}

export function attr(element: Element, name: string): string | undefined {
  return element.attrs.find((attribute) => attribute.name === name)?.value;
}

export function hasAttr(element: Element, name: string): boolean {
  return element.attrs.some((attribute) => attribute.name === name);
}

export function classes(element: Element): string[] {
  return (attr(element, 'class') ?? '').split(/\s+/).filter((name) => name !== '');
}

export function hasClass(element: Element, name: string): boolean {
  return classes(element).includes(name);
}

/** Descendant elements in document order, the element itself excluded. */
export function descendants(element: Element | Node[]): Element[] {
  const found: Element[] = [];
  const walk = (nodes: Node[]): void => {
    for (const node of nodes) {
      if (!isElement(node)) continue;
      found.push(node);
      walk(childrenOf(node));
    }
  };
  walk(Array.isArray(element) ? element : childrenOf(element));
  return found;
}

export function find(root: Element | Node[], test: (element: Element) => boolean): Element | undefined {
  return descendants(root).find(test);
}

export function byTag(root: Element | Node[], ...tags: string[]): Element | undefined {
  return find(root, (element) => tags.includes(element.tagName));
}

/**
 * All text below a node as a browser's `textContent` gives it, whitespace untouched; a `<br>` gives
 * `lineBreak` (a newline in code, a space in a title), where `textContent` would join the lines.
 */
export function textContent(node: Node | Node[], lineBreak = ''): string {
  if (Array.isArray(node)) return node.map((child) => textContent(child, lineBreak)).join('');
  if (isText(node)) return node.value;
  if (!isElement(node)) return '';
  return node.tagName === 'br' ? lineBreak : textContent(childrenOf(node), lineBreak);
}

export function outerHtml(node: Node): string {
  return serializeOuter(node);
}
