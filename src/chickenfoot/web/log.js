// The game log: every move of the round in the reader's language, newest at the bottom in view.

import { say, seatNames } from "./i18n.js";

export function renderLog(log, s) {
  const names = seatNames(s);
  log.replaceChildren(
    ...s.log.map((entry) => {
      const li = document.createElement("li");
      li.textContent = say(entry, names);
      return li;
    }),
  );
  log.scrollTop = log.scrollHeight;
}
