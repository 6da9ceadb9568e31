//go:build !wasm

package e2e

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestNewBuildKeepsThePage: when go-app's service worker installs a newer
// build, a page showing a file keeps it and offers the reload ("A new
// version of tensorview is ready. Reload"), and so does an empty page (a
// file may be on its way in: the page never reloads by itself). A page
// loaded under the current build shows no banner.
func TestNewBuildKeepsThePage(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	path, _ := tensor4DFile(t)
	var build atomic.Int32
	worker, err := os.ReadFile(filepath.Join(os.Getenv("TENSORVIEW_DIST"), "app-worker.js"))
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowserServing(t, "", "", func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.URL.Path == "/files/t.arrow":
				http.ServeFile(w, r, path)
				return
			case strings.HasSuffix(r.URL.Path, "/app-worker.js") && build.Load() > 0:
				// Another build: the same worker, another byte.
				w.Header().Set("Content-Type", "text/javascript")
				w.Header().Set("Cache-Control", "no-store")
				w.Write(append(bytes.Clone(worker), fmt.Sprintf("\n// build %d\n", build.Load())...))
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	// The first load installs the service worker, which claims the page:
	// no banner for it.
	b.eval(`navigator.serviceWorker.ready.then(() => true)`, nil)
	b.waitFor(`navigator.serviceWorker.controller !== null`)

	newBuild := func(n int32, what string) {
		t.Helper()
		b.eval(`window.notReloaded = true`, nil)
		build.Store(n)
		b.eval(`goappServiceWorkerRegistration.update().then(() => true)`, nil)
		b.waitFor(`document.querySelector('[data-role=update]') !== null`)
		var kept bool
		b.eval(`window.notReloaded === true`, &kept)
		if !kept {
			t.Errorf("%s: the page reloaded for the new build", what)
		}
	}

	// A page showing a file, loaded under the service worker.
	b.run(chromedp.Navigate(b.base + "?url=../files/t.arrow"))
	b.waitOpened("t.arrow")
	var first bool
	b.eval(`document.querySelector('[data-role=update]') === null`, &first)
	if !first {
		t.Errorf("a page loaded under the current build shows the update banner")
	}
	newBuild(1, "with a file")
	b.waitOpened("t.arrow")
	b.screenshot("new-build-banner")

	// An empty page.
	b.run(chromedp.Navigate(b.base))
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true]') !== null`)
	newBuild(2, "empty")
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true]') !== null`)
}
