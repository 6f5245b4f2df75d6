// @ts-check
// The account page's notifications (/account#notifications): which kinds reach the player where (the
// site's list, push on their devices, an e-mail digest), push on this device, the e-mail address
// (confirmed by a link first), quiet hours in the player's time zone. The words of push and e-mail
// follow the language of the player's pages (notices.js tells the server).

import { changeAccount } from "./account-api.js";
import { h } from "./dom.js";
import { language, languageName, t } from "./i18n.js";
import { Refusal, api, refusalText } from "./net.js";

/** @import { NotificationSettings } from "./protocol.js" */

// Each kind of notice (server/notices.py) and each channel, in the page's words.
/** @type {Record<string, () => string>} */
const KIND_WORDS = {
  your_turn: () => t("notify.kind.your_turn"),
  invited: () => t("notify.kind.invited"),
  challenge: () => t("notify.kind.challenge"),
  answer: () => t("notify.kind.answer"),
  match_over: () => t("notify.kind.match_over"),
  rematch: () => t("notify.kind.rematch"),
  chat: () => t("notify.kind.chat"),
};
/** @type {Record<string, () => string>} */
const CHANNEL_WORDS = {
  in_app: () => t("notify.channel.in_app"),
  push: () => t("notify.channel.push"),
  email: () => t("notify.channel.email"),
};
const KINDS = Object.keys(KIND_WORDS);
const CHANNELS = Object.keys(CHANNEL_WORDS);

/** @type {NotificationSettings | null} */
let settings = null;
/** @type {string | null} */
let noticeCode = null;
/** @type {string} */
let error = "";
/** Whether this browser holds a push subscription of this site (null: not known yet). @type {boolean | null} */
let subscribed = null;

/** @param {number | null} minutes */
function clock(minutes) {
  if (minutes === null) return "";
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** @param {string} text "HH:MM" */
function minutesOf(text) {
  const [hours, minutes] = text.split(":").map(Number);
  return Number.isFinite(hours) && Number.isFinite(minutes) ? hours * 60 + minutes : null;
}

function pushUsable() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function currentSubscription() {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** @param {string} key the server's VAPID public key */
async function allowPush(key) {
  if ((await Notification.requestPermission()) !== "granted") throw new Refusal({ code: "notify.push.blocked" });
  await navigator.serviceWorker.register("/sw.js");
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await changeAccount("POST", "/api/notifications/subscriptions", subscription.toJSON());
}

async function stopPush() {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await changeAccount("DELETE", "/api/notifications/subscriptions", { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}

/**
 * Draws the card in `box` (asked from the server the first time; the current language after).
 * @param {HTMLElement} box
 */
export async function drawNotificationSettings(box) {
  if (!settings) {
    settings = await api("GET", "/api/notifications/settings");
    subscribed = pushUsable() ? (await currentSubscription().catch(() => null)) !== null : false;
  }
  render(box);
}

/**
 * Runs a change and draws the card again with what the server says now.
 * @param {HTMLElement} box
 * @param {() => Promise<unknown>} work
 * @param {string | null} done the notice once it is done
 */
async function change(box, work, done) {
  error = "";
  try {
    await work();
    noticeCode = done;
  } catch (err) {
    noticeCode = null;
    error = refusalText(err);
  }
  settings = await api("GET", "/api/notifications/settings");
  subscribed = pushUsable() ? (await currentSubscription().catch(() => null)) !== null : false;
  render(box);
}

/** @param {HTMLElement} box */
function render(box) {
  const now = settings;
  if (!now) return;
  const mail = now.email.available;
  const channels = CHANNELS.filter((channel) => channel !== "email" || mail);
  box.replaceChildren();
  h("h2", { id: "notifications-title" }, box, t("notify.title"));
  h("p", { class: "muted" }, box, t("notify.choices_note"));
  h("p", { class: "notice", role: "status" }, box, noticeCode ? t(noticeCode) : "");
  h("p", { class: "error", role: "alert" }, box, error);

  const form = h("form", { class: "notify-form" }, box);
  const table = h("table", { class: "notify-choices" }, form);
  const head = h("tr", {}, h("thead", {}, table));
  h("th", { scope: "col" }, head);
  for (const channel of channels) h("th", { scope: "col" }, head, CHANNEL_WORDS[channel]());
  const rows = h("tbody", {}, table);
  for (const kind of KINDS) {
    const row = h("tr", {}, rows);
    h("th", { scope: "row" }, row, KIND_WORDS[kind]());
    for (const channel of channels) {
      const label = [KIND_WORDS[kind](), CHANNEL_WORDS[channel]()].join(": ");
      const check = h("input", { type: "checkbox", name: `${kind}:${channel}`, "aria-label": label }, h("td", {}, row));
      check.checked = (now.choices[kind] ?? []).includes(channel);
    }
  }

  h("h3", {}, form, t("notify.quiet.title"));
  h("p", { class: "muted" }, form, t("notify.quiet.note"));
  const quietOn = h("input", { type: "checkbox", id: "quiet-on" });
  quietOn.checked = now.quiet_from !== null;
  const onLabel = h("label", { class: "inline-check" }, form);
  onLabel.append(quietOn, t("notify.quiet.on"));
  const hours = h("div", { class: "quiet-hours" }, form);
  const from = h("input", { type: "time", id: "quiet-from", value: clock(now.quiet_from ?? 22 * 60) });
  const until = h("input", { type: "time", id: "quiet-until", value: clock(now.quiet_until ?? 7 * 60) });
  const zone = h("select", { id: "quiet-zone" });
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zones = new Set([...Intl.supportedValuesOf("timeZone"), "UTC", now.time_zone]);
  zone.replaceChildren(...[...zones].sort().map((name) => new Option(name.replaceAll("_", " "), name)));
  zone.value = now.time_zone === "UTC" && now.quiet_from === null ? here : now.time_zone;
  for (const [code, input] of /** @type {[string, HTMLElement][]} */ ([["notify.quiet.from", from], ["notify.quiet.until", until], ["notify.quiet.zone", zone]])) {
    const label = h("label", {}, hours);
    h("span", {}, label, t(code));
    label.append(input);
  }
  const save = h("button", { type: "submit", class: "primary" }, form, t("notify.save"));
  save.id = "save-notifications";
  h("p", { class: "muted" }, form, t("notify.language", { language: languageName(language()) }));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    /** @type {Record<string, string[]>} */
    const choices = {};
    for (const kind of KINDS) {
      const kept = (now.choices[kind] ?? []).filter((channel) => !channels.includes(channel));
      choices[kind] = [...kept, ...channels.filter((channel) => form.querySelector(`input[name="${kind}:${channel}"]:checked`))];
    }
    const quiet = quietOn.checked ? { quiet_from: minutesOf(from.value), quiet_until: minutesOf(until.value) } : { quiet_from: null, quiet_until: null };
    change(box, () => changeAccount("PUT", "/api/notifications/settings", { choices, ...quiet, time_zone: zone.value }), "account.saved");
  });

  drawPush(box, now);
  drawEmail(box, now);
}

/**
 * @param {HTMLElement} box
 * @param {NotificationSettings} now
 */
function drawPush(box, now) {
  h("h3", {}, box, t("notify.push.title"));
  const state = h("p", { id: "push-state" }, box);
  const key = now.push.key;
  if (!pushUsable() || !key) {
    state.textContent = t("notify.push.unsupported");
  } else if (Notification.permission === "denied") {
    state.textContent = t("notify.push.blocked");
  } else if (subscribed) {
    state.textContent = t("notify.push.on");
    const stop = h("button", { type: "button", id: "push-stop" }, box, t("notify.push.stop"));
    stop.addEventListener("click", () => change(box, stopPush, null));
  } else {
    const allow = h("button", { type: "button", id: "push-allow" }, box, t("notify.push.allow"));
    allow.addEventListener("click", () => change(box, () => allowPush(key), "account.saved"));
  }
  if (now.push.devices) h("p", { class: "muted" }, box, t("notify.push.devices", { count: now.push.devices }));
}

/**
 * @param {HTMLElement} box
 * @param {NotificationSettings} now
 */
function drawEmail(box, now) {
  h("h3", {}, box, t("notify.email.title"));
  if (!now.email.available) {
    h("p", { class: "muted" }, box, t("notify.email.off"));
    return;
  }
  const { address, pending } = now.email;
  if (address) h("p", { id: "email-state" }, box, t("notify.email.verified", { address }));
  if (pending) h("p", { id: "email-pending" }, box, t("notify.email.pending", { address: pending }));
  if (!address && !pending) h("p", { id: "email-state", class: "muted" }, box, t("notify.email.none"));
  const form = h("form", { class: "account-form inline" }, box);
  const label = h("label", {}, form);
  h("span", {}, label, t("notify.email.title"));
  const input = h("input", { type: "email", id: "email-address", autocomplete: "email", maxlength: 254, required: "" }, label);
  h("button", { type: "submit" }, form, t("notify.email.send_link"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    change(box, () => changeAccount("POST", "/api/notifications/email", { address: input.value.trim() }), null);
  });
  if (address || pending) {
    const remove = h("button", { type: "button", id: "email-remove" }, box, t("notify.email.remove"));
    remove.addEventListener("click", () => change(box, () => changeAccount("DELETE", "/api/notifications/email"), null));
  }
}
