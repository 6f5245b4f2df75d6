// @ts-check
// The page the service worker shows for a page that needs the network while there is none (sw.js):
// the shell alone, whose offline state opens the page asked for once the network is back.

import { startShell } from "./shell.js";

const { offline } = await startShell();
if (location.pathname !== "/offline.html") offline.standIn();
