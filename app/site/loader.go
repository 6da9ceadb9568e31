//go:build !wasm

package site

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
)

// go-app's loader (its generated app.js, v10.1.11) hands
// WebAssembly.instantiateStreaming a Response it builds around a
// ReadableStream that copies the fetched bytes chunk by chunk on the page's
// thread, to count them for its "{progress}%" label. Chromium then cannot
// compile the module while it downloads off the page's thread, nor cache
// its compiled code for the next load (V8 caches the code of modules
// compiled from a real network or cache response only). The page hides
// that loader (web/boot.js shows the usable empty page instead), so the
// site serves app.js with the plain fetch: streamingFetch.

// progressFetch is the call in go-app's app.js that streamingFetch replaces.
var progressFetch = regexp.MustCompile(`fetchWithProgress\(("[^"\\]*"), showProgress\)`)

// streamingFetch returns go-app's app.js with the wasm fetched by a plain
// fetch(url), whose response instantiateStreaming takes as it is. It is an
// error when app.js does not hold exactly one such call (another go-app
// version): the site would otherwise silently keep the slow path.
func streamingFetch(appJS []byte) ([]byte, error) {
	if n := len(progressFetch.FindAll(appJS, -1)); n != 1 {
		return nil, fmt.Errorf("go-app's app.js has %d calls of fetchWithProgress(url, showProgress), want 1: check app/site/loader.go against this go-app version", n)
	}
	return progressFetch.ReplaceAll(appJS, []byte("fetch($1)")), nil
}

// patchStaticLoader rewrites dir/app.js, written by go-app, with streamingFetch.
func patchStaticLoader(dir string) error {
	path := filepath.Join(dir, "app.js")
	js, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if js, err = streamingFetch(js); err != nil {
		return err
	}
	return os.WriteFile(path, js, 0o644)
}

// withStreamingLoader serves h, with /app.js (where go-app's handler serves
// it, whatever the base) rewritten by streamingFetch.
func withStreamingLoader(h http.Handler) http.Handler {
	var (
		once sync.Once
		js   []byte
		err  error
	)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/app.js" {
			h.ServeHTTP(w, r)
			return
		}
		once.Do(func() {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app.js", nil))
			js, err = streamingFetch(bytes.Clone(rec.Body.Bytes()))
		})
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/javascript")
		w.Header().Set("Content-Length", strconv.Itoa(len(js)))
		w.Write(js)
	})
}
