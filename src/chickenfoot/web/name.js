// The player's name: asked for on the first visit (or from the player's own card later), kept in
// this browser and offered again at every table.

const NAME = "cf-name";
const MAX_NAME = 40; // as the server allows

export function savedName() {
  return localStorage.getItem(NAME) ?? "";
}

export function rememberName(name) {
  localStorage.setItem(NAME, name);
}

// Opens the name dialog with `current`; resolves with the name saved, or null when cancelled.
export function askName(current = savedName()) {
  const dialog = document.getElementById("name-dialog");
  const input = document.getElementById("name-input");
  if (dialog.open) return Promise.resolve(null); // asked already: that answer will do
  input.maxLength = MAX_NAME;
  input.value = current;
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        const name = input.value.trim();
        if (dialog.returnValue === "save" && name) {
          rememberName(name);
          resolve(name);
        } else resolve(null);
      },
      { once: true },
    );
    dialog.returnValue = "";
    dialog.showModal();
    input.select();
  });
}
