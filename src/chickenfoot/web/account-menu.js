// The header's account link: "Sign in" for a guest (coming back to this page after), or the
// signed-in name opening a menu of the profile, the account and signing out.

import { changeAccount, signedIn } from "./account-api.js";
import { t } from "./i18n.js";

function link(href, code) {
  const a = document.createElement("a");
  a.href = href;
  const words = document.createElement("span");
  words.dataset.t = code;
  words.textContent = t(code);
  a.append(words);
  return a;
}

function personIcon() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("person");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0");
  svg.append(path);
  return svg;
}

// Fills `box` (an element of the top bar); returns the signed-in account, or null.
export async function showAccountMenu(box) {
  let account = null;
  try {
    account = await signedIn();
  } catch {
    return null; // the server is unreachable: the page says so elsewhere; no link is better than a wrong one
  }
  if (!account) {
    const here = location.pathname + location.search;
    const signIn = link(`/signin?next=${encodeURIComponent(here)}`, "account.sign_in");
    signIn.prepend(personIcon()); // a narrow screen shows the icon alone (the words stay its name)
    box.replaceChildren(signIn);
    return null;
  }
  const menu = document.createElement("details");
  menu.className = "account-menu-list";
  const summary = document.createElement("summary");
  summary.textContent = account.username;
  summary.setAttribute("aria-label", t("account.menu", { name: account.username }));
  const list = document.createElement("ul");
  const out = document.createElement("button");
  out.type = "button";
  out.dataset.t = "account.sign_out";
  out.textContent = t("account.sign_out");
  out.addEventListener("click", async () => {
    await changeAccount("POST", "/api/account/signout").catch(() => null);
    location.reload();
  });
  for (const item of [
    link(`/u/${encodeURIComponent(account.username)}`, "account.profile"),
    link("/matches", "matches.title"),
    link("/account", "account.account"),
    out,
  ]) {
    const li = document.createElement("li");
    li.append(item);
    list.append(li);
  }
  menu.append(summary, list);
  // Closed by a click elsewhere or Escape, as menus are.
  document.addEventListener("click", (e) => {
    if (!menu.contains(e.target)) menu.open = false;
  });
  menu.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && menu.open) {
      menu.open = false;
      summary.focus();
    }
  });
  box.replaceChildren(menu);
  return account;
}
