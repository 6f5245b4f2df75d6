// @ts-check
// What a part of a page drew last, so that it draws again only when its slice of the state changed.
// Each STATE arrives as new objects, so slices are compared by value; a new language redraws all.

import { language } from "./i18n.js";

/**
 * Whether two JSON-like values (numbers, strings, booleans, null, undefined, arrays, plain objects)
 * are equal by value.
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
export function same(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => same(item, b[i]));
  }
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && same(/** @type {Record<string, unknown>} */ (a)[key], /** @type {Record<string, unknown>} */ (b)[key]));
}

/**
 * Draws a slice with `draw`, unless it is the slice drawn last in the same language.
 * @template S
 */
export class Drawn {
  /** @param {(slice: S) => void} draw */
  constructor(draw) {
    this.draw = draw;
    /** @type {{ slice: S, language: string } | null} */
    this.last = null;
  }

  /**
   * Draws `slice` if it differs from the last one; returns whether it drew.
   * @param {S} slice
   * @returns {boolean}
   */
  update(slice) {
    const now = language();
    if (this.last && this.last.language === now && same(this.last.slice, slice)) return false;
    this.last = { slice, language: now };
    this.draw(slice);
    return true;
  }
}
