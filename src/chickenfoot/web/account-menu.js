// The header's account link: "Sign in" for a guest (coming back to this page after), or the
// signed-in name opening a menu of the profile, the account and signing out.

import { changeAccount, signedIn } from "./account-api.js";
import { t } from "./i18n.js";

function link(href, code) {
  const a = document.createElement("a");
  a.href = href;
  a.dataset.t = code;
  a.textContent = t(code);
  return a;
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
    box.replaceChildren(link(`/signin?next=${encodeURIComponent(here)}`, "account.sign_in"));
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
