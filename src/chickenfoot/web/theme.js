// @ts-check
// The light / dark theme: the system's unless the ◐ button chose one (remembered). A phone's status
// bar (and an installed app's title bar) takes the top bar's colour: the shell's theme-color for the
// system's theme, this theme's once one is chosen.

/** @param {HTMLButtonElement} button the top bar's ◐ */
export function setupTheme(button) {
  const root = document.documentElement;
  const saved = localStorage.getItem("cf-theme");
  if (saved) choose(saved);
  button.addEventListener("click", () => {
    const dark = root.dataset.theme === "dark" || (!root.dataset.theme && matchMedia("(prefers-color-scheme: dark)").matches);
    const next = dark ? "light" : "dark";
    choose(next);
    localStorage.setItem("cf-theme", next);
  });
}

/** @param {string} theme */
function choose(theme) {
  const root = document.documentElement;
  root.dataset.theme = theme;
  const bar = getComputedStyle(root).getPropertyValue("--card").trim();
  for (const meta of document.querySelectorAll('meta[name="theme-color"]')) meta.setAttribute("content", bar);
}
