//go:build !wasm

package site

import (
	"encoding/json"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// OnDemand are the site's files that the page fetches only when a feature
// first needs them, paths under the site's root: the Parquet reader
// (web/parquet-worker.js and the parquet-wasm build `make vendor` copies
// into web/parquet/, 5 MB, 1.2 MB in brotli), loaded the first time a
// Parquet file is opened.
//
// go-app's service worker caches a fixed list at install
// (Handler.CacheableResources) and answers everything else from the
// network. Listing these files there would make every visitor download the
// Parquet reader at install, Parquet or not; instead serviceWorker adds
// them to the same version's cache the first time the page fetches them,
// so a visitor who opened one Parquet file opens the next one offline.
// A new build (a new Version) drops that cache with the rest, and the
// reader is fetched again on its next use.
var OnDemand = []string{
	"/web/parquet-worker.js",
	"/web/parquet/parquet_wasm.js",
	"/web/parquet/parquet_wasm_bg.wasm",
}

// defaultFetch is the fetch handler of go-app's service worker
// (app.DefaultAppWorkerJS, v10.1.11): cache first, else the network.
const defaultFetch = `async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);
  if (cachedResponse) {
    return cachedResponse;
  }
  return await fetch(request);
}`

// onDemandFetch replaces it: the same, and an OnDemand file fetched
// successfully is put in the current version's cache (cacheName) before
// the page gets it. ONDEMAND is replaced by the files' paths under the
// site's base.
const onDemandFetch = `// tensorview: files fetched only when first needed (the Parquet reader)
// join this version's cache then, for offline use.
const onDemand = new Set(ONDEMAND);

async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);
  if (cachedResponse) {
    return cachedResponse;
  }
  const response = await fetch(request);
  if (request.method === "GET" && response.ok && onDemand.has(new URL(request.url).pathname)) {
    try {
      const cache = await caches.open(cacheName);
      await cache.put(request, response.clone());
    } catch (err) {
      console.error("caching", request.url, "failed:", err);
    }
  }
  return response;
}`

// defaultInstall is the install handler of go-app's service worker
// (v10.1.11): an async listener that never calls event.waitUntil. The
// Service Workers spec lets the browser stop a worker once its event
// handlers have returned, which would leave a newer build's worker
// "waiting" behind the old one (its cache not filled, skipWaiting never
// called) and the page never told of it. Chromium here keeps the worker
// alive long enough either way (TestNewBuildKeepsThePage passes with
// both handlers); the waitUntil makes it so by the spec's rules.
const defaultInstall = `self.addEventListener("install", async (event) => {
  try {
    console.log("installing app worker {{.Version}}");
    await installWorker();
    await self.skipWaiting();
  } catch (error) {
    console.error("error during installation:", error);
  }
});`

// installWithWaitUntil replaces it: the same steps, kept alive by
// event.waitUntil.
const installWithWaitUntil = `self.addEventListener("install", (event) => {
  // tensorview: the worker lives until its cache is filled and it skipped
  // waiting (go-app's handler returns at once).
  event.waitUntil((async () => {
    try {
      console.log("installing app worker {{.Version}}");
      await installWorker();
      await self.skipWaiting();
    } catch (error) {
      console.error("error during installation:", error);
    }
  })());
});`

// defaultActivate and activateWithWaitUntil: the same for the activate
// handler, whose cache clean-up and clients.claim may otherwise be cut
// short.
const defaultActivate = `self.addEventListener("activate", async (event) => {
  try {
    await deletePreviousCaches(); // Await cache cleanup
    await self.clients.claim(); // Ensure the service worker takes control of the clients
    console.log("app worker {{.Version}} is activated");
  } catch (error) {
    console.error("error during activation:", error);
  }
});`

const activateWithWaitUntil = `self.addEventListener("activate", (event) => {
  // tensorview: kept alive until the old caches are gone and the pages
  // are claimed (go-app's handler returns at once).
  event.waitUntil((async () => {
    try {
      await deletePreviousCaches();
      await self.clients.claim();
      console.log("app worker {{.Version}} is activated");
    } catch (error) {
      console.error("error during activation:", error);
    }
  })());
});`

// serviceWorker is go-app's service worker template with onDemandFetch
// for the site served under base ("" or "/path"), and its install and
// activate handlers kept alive by event.waitUntil. Each replacement is
// made only where go-app's template still has the expected text
// (TestServiceWorkerOnDemand fails otherwise).
func serviceWorker(base string) string {
	js := app.DefaultAppWorkerJS
	if strings.Contains(js, defaultFetch) {
		paths := make([]string, len(OnDemand))
		for i, p := range OnDemand {
			paths[i] = base + p
		}
		list, _ := json.Marshal(paths)
		js = strings.Replace(js, defaultFetch, strings.Replace(onDemandFetch, "ONDEMAND", string(list), 1), 1)
	}
	js = strings.Replace(js, defaultInstall, installWithWaitUntil, 1)
	return strings.Replace(js, defaultActivate, activateWithWaitUntil, 1)
}
