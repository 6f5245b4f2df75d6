// @ts-check
// The light / dark theme: the system's unless the ◐ button chose one (remembered).

/** @param {HTMLButtonElement} button the top bar's ◐ */
export function setupTheme(button) {
  const root = document.documentElement;
  const saved = localStorage.getItem("cf-theme");
  if (saved) root.dataset.theme = saved;
  button.addEventListener("click", () => {
    const dark = root.dataset.theme === "dark" || (!root.dataset.theme && matchMedia("(prefers-color-scheme: dark)").matches);
    const next = dark ? "light" : "dark";
    root.dataset.theme = next;
    localStorage.setItem("cf-theme", next);
  });
}
