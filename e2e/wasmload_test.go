package e2e

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/chromedp"
)

// wasmInCache is the page's script for the service worker's cache of this
// version: the byte length and SHA-256 (hex) of the wasm it holds, or null.
const wasmInCache = `(async () => {
  const url = new URL("web/app.wasm", location.href).href;
  const cache = await caches.open("app-" + goappEnv.GOAPP_VERSION);
  const r = await cache.match(url);
  if (!r) return null;
  const b = await r.arrayBuffer();
  const sum = await crypto.subtle.digest("SHA-256", b);
  return { bytes: b.byteLength, sha256: [...new Uint8Array(sum)].map((x) => x.toString(16).padStart(2, "0")).join(""),
    type: r.headers.get("content-type") };
})()`

// plainWasm lists the requests log saw for web/app.wasm itself (not its
// brotli copy).
func plainWasm(log *requestLog) []string {
	return slices.DeleteFunc(log.matching("/web/app.wasm"), func(p string) bool { return strings.HasSuffix(p, ".br") })
}

// servingCopy is a server whose answer to web/app.wasm.br is serve's,
// its requests logged in log.
func servingCopy(log *requestLog, serve http.HandlerFunc) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return log.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/web/app.wasm.br") {
				serve(w, r)
				return
			}
			h.ServeHTTP(w, r)
		}))
	}
}

type cachedWasm struct {
	Bytes  int    `json:"bytes"`
	SHA256 string `json:"sha256"`
	Type   string `json:"type"`
}

// TestWasmInBrotli: a first visit fetches the wasm's brotli copy
// (web/app.wasm.br) and the decoder (web/vendor/brotli_dec_wasm*), never
// web/app.wasm itself; the app starts from it, and the service worker's
// cache then holds the wasm byte for byte as the build wrote it
// (web/app.wasm, hashed here) for the next visit, which fetches neither.
// Without a brotli copy (the server refuses it), or with one that is not
// brotli, the page fetches web/app.wasm as go-app does and starts.
func TestWasmInBrotli(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	raw, err := os.ReadFile(filepath.Join(os.Getenv("TENSORVIEW_DIST"), "web", "app.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	want := cachedWasm{Bytes: len(raw), SHA256: hex.EncodeToString(sum[:]), Type: "application/wasm"}

	t.Run("first visit, the next, an update", func(t *testing.T) {
		log := &requestLog{}
		worker, err := os.ReadFile(filepath.Join(os.Getenv("TENSORVIEW_DIST"), "app-worker.js"))
		if err != nil {
			t.Fatal(err)
		}
		version := regexp.MustCompile(`const cacheName = "app-" \+ "([^"]+)";`).FindSubmatch(worker)
		if version == nil {
			t.Fatalf("no cacheName in app-worker.js:\n%s", worker)
		}
		var updated atomic.Bool // the server has a new build's worker (another version)
		b := newBrowserBlank(t, "", func(h http.Handler) http.Handler {
			return log.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "/app-worker.js") && updated.Load() {
					w.Header().Set("Content-Type", "text/javascript")
					w.Header().Set("Cache-Control", "no-store")
					w.Write(bytes.ReplaceAll(worker, version[1], append(slices.Clone(version[1]), "next"...)))
					return
				}
				h.ServeHTTP(w, r)
			}))
		})
		// Another site of the same origin (as project sites of one GitHub
		// Pages account are) has its cache, with its own wasm: not this
		// site's older version.
		b.run(chromedp.Navigate(b.data + "README.md"))
		b.eval(`caches.open("app-other").then((c) => c.put(location.origin + "/other/web/app.wasm", new Response("another site's"))).then(() => true)`, nil)

		b.run(chromedp.Navigate(b.base))
		b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
		b.waitFor(`document.documentElement.dataset.wasmLoad === "cached" && navigator.serviceWorker.controller !== null`)
		if got := log.matching("/web/app.wasm.br"); len(got) != 1 {
			t.Errorf("requests for the brotli copy: %q, want one", got)
		}
		if got := plainWasm(log); len(got) != 0 {
			t.Errorf("requests for web/app.wasm (the page's, the service worker's install): %q, want none", got)
		}
		for _, f := range []string{"/web/vendor/brotli_dec_wasm.js", "/web/vendor/brotli_dec_wasm_bg.wasm"} {
			if got := log.matching(f); len(got) != 1 {
				t.Errorf("requests for %s: %q, want one", f, got)
			}
		}
		var got *cachedWasm
		b.eval(wasmInCache, &got)
		if got == nil || *got != want {
			t.Fatalf("the service worker's cache holds %+v, want %+v (web/app.wasm)", got, want)
		}

		// The next visit, under the service worker: the wasm from its cache.
		n := len(log.matching("/web/"))
		b.run(chromedp.Navigate(b.base))
		b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
		var state string
		b.eval(`document.documentElement.dataset.wasmLoad`, &state)
		if state != "cache" {
			t.Errorf("the next visit's data-wasm-load = %q, want cache (the service worker's copy)", state)
		}
		if got := log.matching("/web/")[n:]; slices.ContainsFunc(got, func(p string) bool {
			return strings.Contains(p, "/web/app.wasm") || strings.Contains(p, "/web/vendor/brotli")
		}) {
			t.Errorf("the next visit asked the server for %q, want neither the wasm nor the decoder", got)
		}

		// A new build (another version): its worker's install fetches the
		// wasm, as go-app's does, for the visit after it.
		updated.Store(true)
		b.eval(fmt.Sprintf(`window.__installed = false;
(async () => {
  const url = new URL("web/app.wasm", location.href).href;
  await goappServiceWorkerRegistration.update();
  for (;;) {
    if (await caches.has(%[1]q) && await (await caches.open(%[1]q)).match(url)) { window.__installed = true; return; }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
})();
true`, "app-"+string(version[1])+"next"), nil)
		b.waitFor(`window.__installed === true`)
		if got := plainWasm(log); len(got) != 1 {
			t.Errorf("requests for web/app.wasm after the update: %q, want one (its worker's install)", got)
		}
	})

	// While half of the copy has come, a link's loader says how much of the
	// wasm has: as much as that half decodes to (by andybalholm/brotli
	// here), less the decoder's last buffer (1 MiB) — the wasm streams in
	// as the copy comes; and it counts up to 100 % and never past it
	// (go-app's progress over the site's WasmContentLength: decoded bytes).
	// Screenshots wide and light, narrow (360 px) and dark, with axe.
	t.Run("progress", func(t *testing.T) {
		br, err := os.ReadFile(filepath.Join(os.Getenv("TENSORVIEW_DIST"), "web", "app.wasm.br"))
		if err != nil {
			t.Fatal(err)
		}
		half, _ := io.Copy(io.Discard, brotli.NewReader(bytes.NewReader(br[:len(br)/2])))
		least := int((half-1<<20)*100/int64(len(raw))) - 1
		t.Logf("the first half of the copy decodes to %d of %d bytes: want the loader at %d %% or more", half, len(raw), least)
		release := make(chan struct{})
		var once sync.Once
		t.Cleanup(func() { once.Do(func() { close(release) }) })
		const watch = `window.__progress = [];
document.addEventListener("DOMContentLoaded", () => {
  const label = document.getElementById("app-wasm-loader-label");
  if (!label) return;
  new MutationObserver(() => {
    const m = /(\d+)%$/.exec(label.textContent);
    if (m) window.__progress.push(Number(m[1]));
  }).observe(label, { childList: true, characterData: true, subtree: true });
});`
		b := newBrowserLoading(t, "?url=../testdata/js_big.arrow", watch, servingCopy(&requestLog{}, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(len(br)))
			w.Write(br[:len(br)/2])
			w.(http.Flusher).Flush()
			select {
			case <-release:
				w.Write(br[len(br)/2:])
			case <-r.Context().Done():
			}
		}))
		b.waitFor(fmt.Sprintf(`Number(/^Loading tensorview… (\d+)%%$/.exec(document.getElementById('app-wasm-loader-label')?.textContent ?? '')?.[1] ?? -1) >= %d`, least))
		b.screenshot("wasm-brotli-progress")
		b.narrow("wasm-brotli-progress-360", "#app-wasm-loader-label")
		once.Do(func() { close(release) })
		b.waitOpened("js_big.arrow")
		var seen []int
		b.eval(`window.__progress`, &seen)
		t.Logf("progress: %v", seen)
		if len(seen) == 0 || slices.Max(seen) != 100 || !slices.IsSorted(seen) {
			t.Errorf("the loader's progress went %v, want up to 100 %%, never down or past it", seen)
		}
	})

	for _, c := range []struct {
		name string
		wrap func(log *requestLog) func(http.Handler) http.Handler
	}{
		{"no brotli copy (404)", func(log *requestLog) func(http.Handler) http.Handler {
			return servingCopy(log, http.NotFound)
		}},
		{"the copy refused (503)", func(log *requestLog) func(http.Handler) http.Handler {
			log.refuse = "/web/app.wasm.br"
			return log.wrap
		}},
		{"an empty copy", func(log *requestLog) func(http.Handler) http.Handler {
			return servingCopy(log, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
		}},
		{"a copy that is not brotli", func(log *requestLog) func(http.Handler) http.Handler {
			return servingCopy(log, func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte("<html>this is not the wasm</html>" + strings.Repeat(" ", 4096)))
			})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := &requestLog{}
			b := newBrowserServing(t, "", "", c.wrap(log))
			var state string
			b.eval(`document.documentElement.dataset.wasmLoad || ""`, &state)
			if state != "fetched" {
				t.Errorf("data-wasm-load = %q, want fetched (go-app's own fetch)", state)
			}
			if got := plainWasm(log); len(got) != 1 {
				t.Errorf("requests for web/app.wasm: %q, want one", got)
			}
			// A host without the copy is not an error; the others say why.
			warned := slices.ContainsFunc(b.console.since(0), func(l string) bool { return strings.Contains(l, "brotli copy was not used") })
			if want := !strings.Contains(c.name, "404"); warned != want {
				t.Errorf("the console warned: %v, want %v: %q", warned, want, b.console.since(0))
			}
		})
	}
}
