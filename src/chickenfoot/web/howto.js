// @ts-check
// How to play: the sections the server sends beside the catalog, each paragraph a catalog message,
// with drawings of a hub and a chicken foot made by the table's own layout drawing.

import { drawLayout } from "./board.js";
import { byId, h } from "./dom.js";
import { Geometry } from "./geometry.js";
import { t } from "./i18n.js";
import { startShell } from "./shell.js";
import { el } from "./tiles.js";

/** @import { Catalog, HowtoSection } from "./i18n.js" */

// Tile names (9-4) never broken at the end of a line: a non-breaking hyphen between the numbers.
/** @param {string} text */
function unbroken(text) {
  return text.replace(/(\d)-(\d)/g, "$1\u2011$2");
}

/** @param {NonNullable<HowtoSection["figure"]>} figure */
function figure({ caption, layout }) {
  const geometry = Geometry.fromLayout(layout);
  const svg = el("svg", { class: "howto-drawing", role: "img", "aria-label": t(caption) });
  drawLayout(el("g", {}, svg), geometry);
  const b = geometry.bounds();
  svg.setAttribute("viewBox", `${b.x0} ${b.y0} ${b.x1 - b.x0} ${b.y1 - b.y0}`);
  const box = h("figure");
  box.append(svg, h("figcaption", {}, null, t(caption)));
  return box;
}

/** @param {Catalog} catalog */
function render(catalog) {
  document.title = [t("ui.how_to_play"), t("ui.game_name")].join(" · ");
  byId("howto-body").replaceChildren(
    ...catalog.howto.map((section) => {
      const part = h("section");
      if (section.title) h("h2", {}, part, t(section.title));
      for (const code of section.paragraphs) h("p", {}, part, unbroken(t(code)));
      if (section.figure) part.append(figure(section.figure));
      return part;
    }),
  );
}

async function start() {
  const { catalog } = await startShell(render);
  render(catalog);
}

start();
