//go:build !wasm

package site

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// OnDemand are the site's files that the page fetches only when a feature
// first needs them, paths under the site's root: the Parquet reader, loaded
// the first time a Parquet file is opened: its worker
// (web/parquet-worker.js) and ParquetEngine, then ParquetWasm only for the
// files that engine declines; TimeZones the first time a named time zone is
// looked up.
//
// go-app's service worker caches a fixed list at install
// (Handler.CacheableResources) and answers everything else from the
// network. Listing these files there would make every visitor download the
// Parquet reader at install, Parquet or not; instead serviceWorker adds
// them to the same version's cache the first time the page fetches them,
// so a visitor who opened one Parquet file opens the next one offline.
// A new build (a new Version) drops that cache with the rest, and the
// reader is fetched again on its next use.
var OnDemand = slices.Concat([]string{"/web/parquet-worker.js"}, ParquetEngine, ParquetCodecs, ParquetWasm, TimeZones)

// TimeZones is Go's zone database (`make wasm` copies
// $GOROOT/lib/time/zoneinfo.zip): 0.41 MB, ~60 kB in brotli. The page's
// time.LoadLocation fetches it the first time a timestamp column or a
// filter names a zone such as "Europe/Paris" (internal/tzload).
var TimeZones = []string{"/web/tzdata.zip"}

// ParquetEngine is the Parquet worker's engine, which `make vendor`
// bundles (esbuild) from app/browser/parquetengine.js, hyparquet and
// flechette: ~100 KB, ~30 KB in brotli.
var ParquetEngine = []string{"/web/parquet/engine/parquet-engine.js"}

// ParquetCodecs are the engine's decompressors, each fetched the first
// time a file uses its codec: GZIP (gzip.js and chunk.js, which BROTLI's
// brotli.js shares), LZ4 and LZ4_RAW (lz4.js), ZSTD (esm.js: fzstd).
var ParquetCodecs = []string{
	"/web/parquet/engine/gzip.js",
	"/web/parquet/engine/chunk.js",
	"/web/parquet/engine/brotli.js",
	"/web/parquet/engine/lz4.js",
	"/web/parquet/engine/esm.js",
}

// ParquetWasm is parquet-wasm (arrow-rs's Parquet reader compiled to
// WebAssembly: 5 MB, 1.2 MB in brotli), which the worker imports for the
// files the engine declines, and hyparquet's footer parser
// (web/parquet/hyparquet/) that reads their statistics.
var ParquetWasm = []string{
	"/web/parquet/parquet_wasm.js",
	"/web/parquet/parquet_wasm_bg.wasm",
	"/web/parquet/hyparquet/metadata.js",
	"/web/parquet/hyparquet/constants.js",
	"/web/parquet/hyparquet/convert.js",
	"/web/parquet/hyparquet/schema.js",
	"/web/parquet/hyparquet/thrift.js",
	"/web/parquet/hyparquet/geoparquet.js",
	"/web/parquet/hyparquet/wkb.js",
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

// onDemandFetch replaces it: the same, and an OnDemand file (or the wasm,
// see Wasm) fetched successfully is put in the current version's cache
// (cacheName) before the page gets it. ONDEMAND is replaced by the files' paths under the
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

// keepAlive makes go-app's async listener of event ("install" or
// "activate", v10.1.11) keep the worker alive until it is done: go-app's
// listeners never call event.waitUntil, and the Service Workers spec lets
// the browser stop a worker once its handlers have returned, which would
// leave a newer build's worker "waiting" behind the old one (its cache not
// filled, skipWaiting never called) and the page never told of it.
// Chromium here keeps the worker alive long enough either way
// (TestNewBuildKeepsThePage passes with both); the waitUntil makes it so
// by the spec's rules. js is returned as it is when the listener is not
// found (TestServiceWorkerOnDemand fails then).
func keepAlive(js, event string) string {
	head := `self.addEventListener("` + event + `", async (event) => {`
	i := strings.Index(js, head)
	if i < 0 {
		return js
	}
	n := strings.Index(js[i:], "\n});")
	if n < 0 {
		return js
	}
	body := js[i+len(head) : i+n]
	return js[:i] + `self.addEventListener("` + event + `", (event) => {
  // tensorview: kept alive until done (go-app's listener returns at once).
  event.waitUntil((async () => {` + body + `
  })());` + js[i+n:]
}

// Wasm is the page's wasm, which a first visit's page fetches itself in
// brotli (web/boot.js: web/app.wasm.br, decoded as it comes, put in this
// version's cache), so the service worker's first install leaves it out
// (installWasm); an update's install fetches it, as go-app's does, for the
// next visit; the worker's fetch handler caches it like an OnDemand file
// should the page's copy be missing.
const Wasm = "/web/app.wasm"

// defaultInstall is go-app's install step (app.DefaultAppWorkerJS, v10.1.11).
const defaultInstall = `async function installWorker() {
  const cache = await caches.open(cacheName);
  await cache.addAll(resourcesToCache);
}`

// installWasm replaces it: the wasm (WASM, the path under the site's
// base) is fetched only when another version's cache holds it (an update
// of this site; another site of the same origin, as project sites of one
// GitHub Pages account are, has its own wasm path).
const installWasm = `async function installWorker() {
  const cache = await caches.open(cacheName);
  // tensorview: a first install leaves the wasm to the page, which is
  // fetching it in brotli (web/boot.js) and puts it in this cache; an
  // update fetches it for the next visit.
  const others = (await caches.keys()).filter((key) => key !== cacheName);
  const update = (await Promise.all(others.map(async (key) => !!(await (await caches.open(key)).match(WASM))))).some(Boolean);
  await cache.addAll(update ? resourcesToCache : resourcesToCache.filter((r) => r !== WASM));
}`

// serviceWorker is go-app's service worker template with onDemandFetch
// (OnDemand and the wasm) and installWasm for the site served under base
// ("" or "/path"), and its install and activate handlers kept alive by
// event.waitUntil. Each replacement is made only where go-app's template
// still has the expected text (TestServiceWorkerOnDemand fails otherwise).
func serviceWorker(base string) string {
	js := app.DefaultAppWorkerJS
	wasm, _ := json.Marshal(base + Wasm)
	if strings.Contains(js, defaultFetch) {
		paths := make([]string, 0, len(OnDemand)+1)
		for _, p := range append(slices.Clone(OnDemand), Wasm) {
			paths = append(paths, base+p)
		}
		list, _ := json.Marshal(paths)
		js = strings.Replace(js, defaultFetch, strings.Replace(onDemandFetch, "ONDEMAND", string(list), 1), 1)
	}
	if strings.Contains(js, defaultInstall) {
		js = strings.Replace(js, defaultInstall, strings.ReplaceAll(installWasm, "WASM", string(wasm)), 1)
	}
	return keepAlive(keepAlive(js, "install"), "activate")
}
