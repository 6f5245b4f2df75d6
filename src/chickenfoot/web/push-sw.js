// @ts-check
// Push notifications in the service worker: show each push the server sends (its words come written in
// the player's language; a later push about the same thing replaces it, by its tag), and open the
// right table when one is tapped. A classic script, imported by the site's service worker (sw.js) with
// importScripts("/push-sw.js"), so that the installable app's own worker keeps it by that one line.
// A push carries no hidden information: the kind, the table's code, names, counts (server/notices.py).

/**
 * What one push carries (server/notifications/render.py push_payload).
 * @typedef {{ title: string, body: string, url: string, tag: string, kind: string, table: string | null, lang: string, count: number }} PushPayload
 */
/**
 * The parts of the worker's scope used here (TypeScript's DOM library, which checks the pages, has no
 * worker types).
 * @typedef {{ waitUntil(work: Promise<unknown>): void }} ExtendableEventLike
 * @typedef {ExtendableEventLike & { data: { json(): unknown } | null }} PushEventLike
 * @typedef {ExtendableEventLike & { notification: Notification }} NotificationEventLike
 * @typedef {{ url: string, navigate(url: string): Promise<unknown>, focus(): Promise<unknown> }} WindowClientLike
 * @typedef {{ matchAll(options: { type: "window", includeUncontrolled: boolean }): Promise<WindowClientLike[]>, openWindow(url: string): Promise<unknown> }} ClientsLike
 * @typedef {{ registration: ServiceWorkerRegistration, clients: ClientsLike, location: Location, addEventListener(type: string, listener: (event: Event) => void): void }} WorkerScope
 */

const pushScope = /** @type {WorkerScope} */ (/** @type {unknown} */ (self));

/**
 * Shows the notification of one push.
 * @param {ServiceWorkerRegistration} registration
 * @param {PushPayload} payload
 */
function showPushNotice(registration, payload) {
  return registration.showNotification(payload.title, {
    body: payload.body,
    tag: payload.tag,
    lang: payload.lang,
    data: { url: payload.url },
  });
}

/**
 * Opens a tapped notification's page (a path of this site): a window of the site already open goes
 * there and comes to the front; if there is none (or it cannot be moved: a page this worker does not
 * control yet), a new window opens.
 * @param {ClientsLike} clients
 * @param {string} path
 */
async function openNoticeTable(clients, path) {
  const target = new URL(path.startsWith("/") && !path.startsWith("//") ? path : "/", pushScope.location.origin).href;
  const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === pushScope.location.origin);
  try {
    if (open) {
      await open.navigate(target);
      return await open.focus();
    }
  } catch {
    // not ours to move: a window of its own
  }
  return clients.openWindow(target);
}

pushScope.addEventListener("push", (event) => {
  const push = /** @type {PushEventLike} */ (/** @type {unknown} */ (event));
  const payload = /** @type {PushPayload | null} */ (push.data?.json() ?? null);
  if (payload) push.waitUntil(showPushNotice(pushScope.registration, payload));
});

pushScope.addEventListener("notificationclick", (event) => {
  const click = /** @type {NotificationEventLike} */ (/** @type {unknown} */ (event));
  click.notification.close();
  const data = /** @type {{ url?: string } | null} */ (click.notification.data);
  click.waitUntil(openNoticeTable(pushScope.clients, data?.url ?? "/"));
});
