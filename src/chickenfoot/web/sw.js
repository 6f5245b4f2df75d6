// @ts-check
// The site's service worker. Push notifications are handled by push-sw.js, imported here; a service
// worker that does more (the installable app's cache of the page shell) keeps this line.

const workerScope = /** @type {{ importScripts(...urls: string[]): void }} */ (/** @type {unknown} */ (self));
workerScope.importScripts("/push-sw.js");
