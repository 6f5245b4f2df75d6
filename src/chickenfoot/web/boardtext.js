// @ts-check
// The layout in words for screen readers: the hub, then each arm as a line from the centre out
// ("Arm 2: 9-4, 4-2, open end 2"), a chicken foot's toes as lines of their own within its line. A
// polite live region says which line a newly played tile went to. The SVG board is only a picture.

import { within } from "./dom.js";
import { Drawn } from "./drawn.js";
import { t } from "./i18n.js";
import { parseTile, sameTile } from "./tiles.js";

/**
 * What the words describe: the round's layout (tile, target) and open ends (tile, number), the
 * hub's arms and a foot's toes, and the double the round opens with.
 * @typedef {{ round: number, layout: [string, string | null][], openEnds: [string, number][], arms: number, toes: number, startDouble: number }} LayoutSlice
 */

/** @typedef {Map<string, string[]>} Children the tiles played on each tile, in play order */

export class BoardText {
  /** @param {HTMLElement} box holds the lists and the live region */
  constructor(box) {
    this.box = box;
    this.live = within(box, "[aria-live]");
    this.lists = within(box, ".lines");
    /** @type {[number, number] | null} the layout last described: [round, tiles played] */
    this.shown = null;
    /** @type {Drawn<LayoutSlice>} */
    this.drawn = new Drawn((slice) => this.draw(slice));
  }

  /** @param {LayoutSlice} slice */
  update(slice) {
    this.drawn.update(slice);
  }

  /** @param {LayoutSlice} state */
  draw(state) {
    const { layout, openEnds, arms: hubArms, toes } = state;
    /** @type {Children} */
    const children = new Map();
    for (const [tile, target] of layout) {
      if (target) children.set(target, [...(children.get(target) ?? []), tile]);
    }
    const openAt = new Map(openEnds);
    /** @type {Map<string, string>} tile -> the text of its line, for the live region */
    const lineOf = new Map();
    /**
     * @param {string} first
     * @param {number} inner
     */
    const describe = (first, inner) => this.line(first, inner, children, openAt, toes, lineOf);
    let items = [];
    if (!layout.length) {
      const hub = `${state.startDouble}-${state.startDouble}`;
      items = [this.item(t("open.empty", { tile: hub }))];
    } else {
      const hub = layout[0][0];
      const number = parseTile(hub)[0];
      const arms = children.get(hub) ?? [];
      const list = document.createElement("ol");
      arms.forEach((first, i) => {
        const { words, toes } = describe(first, number);
        list.append(this.item(t("a11y.arm", { n: i + 1, tiles: words }), toes));
        for (const tile of this.tilesOf(first, children)) lineOf.set(tile, t("a11y.arm", { n: i + 1, tiles: words }));
      });
      for (let i = arms.length; i < hubArms; i++) {
        const words = [t("a11y.not_started"), t("a11y.open_end", { number })].join(", ");
        list.append(this.item(t("a11y.arm", { n: i + 1, tiles: words })));
      }
      items = [this.item(t("a11y.hub", { tile: hub }), list)];
    }
    this.lists.replaceChildren(...items);
    this.announce(state, lineOf);
  }

  // One line from `first` (touching the number `inner`) outwards: its tiles in reading order, each
  // turned so that the number nearer the centre comes first, then its open end or its chicken foot.
  /**
   * @param {string} first
   * @param {number} inner
   * @param {Children} children
   * @param {Map<string, number>} openAt
   * @param {number} toeCount
   * @param {Map<string, string>} lineOf
   * @returns {{ words: string, toes: HTMLOListElement | null }}
   */
  line(first, inner, children, openAt, toeCount, lineOf) {
    const words = [];
    let tile = first;
    let number = inner;
    for (;;) {
      const [a, b] = parseTile(tile);
      const outer = a === number ? b : a;
      words.push(`${number}-${outer}`);
      number = outer;
      const next = children.get(tile) ?? [];
      if (a === b) {
        // A double (not the hub) is a chicken foot: its toes are the lines that go on from it.
        words.push(t("a11y.foot"));
        const toes = document.createElement("ol");
        next.forEach((toe, i) => {
          const inner = this.line(toe, number, children, openAt, toeCount, lineOf);
          const text = t("a11y.toe", { n: i + 1, tile, tiles: inner.words });
          toes.append(this.item(text, inner.toes));
          for (const played of this.tilesOf(toe, children)) lineOf.set(played, text);
        });
        for (let i = next.length; i < toeCount; i++) {
          const rest = [t("a11y.not_started"), t("a11y.open_end", { number })].join(", ");
          toes.append(this.item(t("a11y.toe", { n: i + 1, tile, tiles: rest })));
        }
        return { words: words.join(", "), toes };
      }
      if (!next.length) {
        if (openAt.has(tile)) words.push(t("a11y.open_end", { number: openAt.get(tile) }));
        return { words: words.join(", "), toes: null };
      }
      tile = next[0];
    }
  }

  // The tiles of a line from `first` outwards, up to and including a double that ends it.
  /**
   * @param {string} first
   * @param {Children} children
   */
  tilesOf(first, children) {
    const tiles = [];
    for (let tile = first; tile; tile = (children.get(tile) ?? [])[0]) {
      tiles.push(tile);
      const [a, b] = parseTile(tile);
      if (a === b) break;
    }
    return tiles;
  }

  /**
   * @param {string} text
   * @param {HTMLElement | null} [sublist]
   */
  item(text, sublist = null) {
    const li = document.createElement("li");
    li.append(text);
    if (sublist) li.append(sublist);
    return li;
  }

  // A single new tile on the same round's layout is read out with the line it went to.
  /**
   * @param {LayoutSlice} state
   * @param {Map<string, string>} lineOf
   */
  announce(state, lineOf) {
    const shown = this.shown;
    this.shown = [state.round, state.layout.length];
    if (!shown || shown[0] !== state.round || state.layout.length !== shown[1] + 1) return;
    const [tile] = state.layout[state.layout.length - 1];
    const line = [...lineOf].find(([played]) => sameTile(played, tile))?.[1] ?? t("a11y.hub", { tile });
    this.live.textContent = t("a11y.changed", { tile, line });
  }

  // The board's keyboard focus (Tab through the places for the selected tile), read out.
  /** @param {string} text */
  say(text) {
    this.live.textContent = text;
  }
}
