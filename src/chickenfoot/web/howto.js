// How to play: the sections the server sends beside the catalog, each paragraph a catalog message,
// with drawings of a hub and a chicken foot made by the table's own layout drawing.

import { drawLayout } from "./board.js";
import { Geometry } from "./geometry.js";
import { el, SVG_NS } from "./tiles.js";
import { languageSwitcher, loadCatalog, t, translatePage } from "./i18n.js";

// Tile names (9-4) never broken at the end of a line: a non-breaking hyphen between the numbers.
function unbroken(text) {
  return text.replace(/(\d)-(\d)/g, "$1\u2011$2");
}

function figure({ caption, layout }) {
  const geometry = Geometry.fromLayout(layout);
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "howto-drawing");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t(caption));
  drawLayout(el("g", {}, svg), geometry);
  const b = geometry.bounds();
  svg.setAttribute("viewBox", `${b.x0} ${b.y0} ${b.x1 - b.x0} ${b.y1 - b.y0}`);
  const box = document.createElement("figure");
  const text = document.createElement("figcaption");
  text.textContent = t(caption);
  box.append(svg, text);
  return box;
}

function render(catalog) {
  translatePage();
  document.title = [t("ui.how_to_play"), t("ui.game_name")].join(" · ");
  const body = document.getElementById("howto-body");
  body.replaceChildren(
    ...catalog.howto.map((section) => {
      const part = document.createElement("section");
      if (section.title) {
        const heading = document.createElement("h2");
        heading.textContent = t(section.title);
        part.append(heading);
      }
      for (const code of section.paragraphs) {
        const p = document.createElement("p");
        p.textContent = unbroken(t(code));
        part.append(p);
      }
      if (section.figure) part.append(figure(section.figure));
      return part;
    }),
  );
}

async function start() {
  const catalog = await loadCatalog();
  languageSwitcher(document.getElementById("language"), render);
  render(catalog);
}

start();
