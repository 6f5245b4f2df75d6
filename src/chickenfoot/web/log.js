// @ts-check
// The game log: every move of the round in the reader's language, newest at the bottom in view. A
// new move adds its line; the lines before it stay as they are.

import { h } from "./dom.js";
import { language } from "./i18n.js";

export class GameLog {
  /** @param {HTMLElement} list */
  constructor(list) {
    this.list = list;
    /** @type {{ lines: string[], language: string }} */
    this.shown = { lines: [], language: "" };
  }

  /**
   * The round's log, each entry already in words.
   * @param {string[]} lines
   */
  update(lines) {
    const shown = this.shown;
    const kept = shown.language === language() && shown.lines.length <= lines.length && shown.lines.every((line, i) => line === lines[i]);
    if (kept && shown.lines.length === lines.length) return;
    if (!kept) this.list.replaceChildren();
    for (const line of lines.slice(kept ? shown.lines.length : 0)) h("li", {}, this.list, line);
    this.shown = { lines, language: language() };
    this.list.scrollTop = this.list.scrollHeight;
  }
}
