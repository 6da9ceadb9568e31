//go:build !wasm

package e2e

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// prefetchHost serves files on another origin than the page as a CDN
// does (Range, CORS, Content-Range and ETag exposed), logging every
// request (method and Range) of each path, and closes a path's wanted
// channel once its wanted request has come.
type prefetchHost struct {
	srv   *httptest.Server
	files map[string][]byte
	mu    sync.Mutex
	log   map[string][]string // path → "GET bytes=a-b", in order
	want  map[string]string   // path → the request awaited
	seen  map[string]chan struct{}
}

func newPrefetchHost(t *testing.T, files map[string][]byte) *prefetchHost {
	h := &prefetchHost{files: files, log: map[string][]string{}, want: map[string]string{}, seen: map[string]chan struct{}{}}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Expose-Headers", "Content-Range, Content-Length, ETag")
		req := r.Method + " " + r.Header.Get("Range")
		h.mu.Lock()
		h.log[r.URL.Path] = append(h.log[r.URL.Path], req)
		if h.want[r.URL.Path] == req {
			close(h.seen[r.URL.Path])
			delete(h.want, r.URL.Path)
		}
		h.mu.Unlock()
		data, ok := h.files[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("ETag", fmt.Sprintf(`"%d"`, len(data)))
		http.ServeContent(w, r, r.URL.Path, time.Time{}, bytes.NewReader(data))
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// await returns a channel closed once req ("GET bytes=a-b") of path came.
func (h *prefetchHost) await(path, req string) <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch := make(chan struct{})
	h.want[path], h.seen[path] = req, ch
	return ch
}

// requests returns the requests of path so far.
func (h *prefetchHost) requests(path string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.log[path]...)
}

// countWorkers is a script run before the page's own: it counts the Web
// Workers the page constructs (window.__workers) and those it terminates
// (window.__terminated), the same Worker otherwise.
const countWorkers = `(() => {
	const W = window.Worker;
	window.__workers = 0;
	window.__terminated = 0;
	window.Worker = function (u, o) {
		window.__workers++;
		const w = new W(u, o);
		const stop = w.terminate.bind(w);
		w.terminate = () => { window.__terminated++; stop(); };
		return w;
	};
})()`

// TestURLPrefetch: a link to a file (?url=) makes the app's
// first requests while the wasm downloads and starts (web/boot.js), which
// the app takes instead of making them again. For an Arrow IPC file and a
// Parquet file on a server like a CDN (Content-Range exposed), app.wasm is
// held back until the file's server has been asked for the file's probe
// (its first 256 KiB) and the read of its end (its last 64 KiB), and for
// the Parquet file until the Parquet reader's engine was asked for too
// (the worker web/boot.js started): so those requests came before the wasm
// did. Then each is asked for once (the app took them), no HEAD (the size
// came with the probe), one worker only (the app adopted boot.js's), and
// the rows shown are the writer's values. A link to a missing file and to
// a server that ignores Range still say what TestOpenURL expects of them.
func TestURLPrefetch(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	arrowData, err := os.ReadFile(batchesFile(t, "prefetch.arrow", false, 8, 64)) // 1.5 MiB
	if err != nil {
		t.Fatal(err)
	}
	pqData, _ := parquetRowGroupsFile(t, 20000) // 0.9 MiB
	host := newPrefetchHost(t, map[string][]byte{"prefetch.arrow": arrowData, "prefetch.parquet": pqData, "arrow-named.parquet": arrowData})
	tail := func(size int) string { return fmt.Sprintf("GET bytes=%d-%d", size-65536, size-1) }
	const probe = "GET bytes=0-262143"

	// open opens the link to path in a fresh browser (no service worker
	// yet: the wasm comes from the site), its app.wasm held until ready
	// is closed (at most 10 s); seen is told the site's paths asked
	// for. held reports whether the wasm waited for ready.
	open := func(t *testing.T, path string, ready <-chan struct{}, seen func(string)) (b *browser, held func() bool) {
		var mu sync.Mutex
		waited := true
		b = newBrowserBlank(t, countWorkers, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if seen != nil {
					seen(r.URL.Path)
				}
				if isWasm(r.URL.Path) {
					select {
					case <-ready:
					case <-time.After(10 * time.Second):
						mu.Lock()
						waited = false
						mu.Unlock()
					case <-r.Context().Done():
						return
					}
				}
				h.ServeHTTP(w, r)
			})
		})
		b.run(chromedp.Navigate(b.base + "?url=" + url.QueryEscape(host.srv.URL+path)))
		return b, func() bool { mu.Lock(); defer mu.Unlock(); return waited }
	}
	// once checks the requests of path: GETs of single ranges, probe and
	// end once each, no other asked twice; and that b's page started
	// workers Web Workers.
	once := func(t *testing.T, b *browser, path string, end string, workers int) {
		t.Helper()
		var started int
		b.eval(`window.__workers`, &started)
		if started != workers {
			t.Errorf("%d workers started, want %d (the Parquet reader's that web/boot.js starts for a Parquet file, adopted by the app)", started, workers)
		}
		asked := host.requests(path)
		count := map[string]int{}
		for _, a := range asked {
			count[a]++
			if !strings.HasPrefix(a, "GET bytes=") || strings.Contains(a, ",") {
				t.Errorf("a request %q: want GET of one range", a)
			}
		}
		for _, a := range []string{probe, end} {
			if count[a] != 1 {
				t.Errorf("%q asked for %d times, want once: %v", a, count[a], asked)
			}
		}
		for a, n := range count {
			if n > 1 {
				t.Errorf("%q asked for %d times: %v", a, n, asked)
			}
		}
	}

	t.Run("Arrow IPC", func(t *testing.T) {
		ready := host.await("/prefetch.arrow", tail(len(arrowData)))
		b, held := open(t, "/prefetch.arrow", ready, nil)
		b.waitOpened("prefetch.arrow")
		if !held() {
			t.Errorf("app.wasm waited 10 s: the end of the file was not asked for before it (%v)", host.requests("/prefetch.arrow"))
		}
		for _, row := range []int{0, 1, 2} {
			b.waitDrawn(row, "image")
			var id string
			b.eval(fmt.Sprintf(`document.querySelector('[data-row="%d"] [data-field=id]').textContent`, row), &id)
			_, _, pix := b.canvas(row, "image")
			if want := []int{row % 251, (row + 1) % 251, (row + 2) % 251}; id != fmt.Sprint(row) || len(pix) < 3 || !bytes.Equal(intsToBytes(pix[:3]), intsToBytes(want)) {
				t.Errorf("row %d shows id %q and first pixel %v, want %d and %v", row, id, pix[:min(len(pix), 3)], row, want)
			}
		}
		once(t, b, "/prefetch.arrow", tail(len(arrowData)), 0)
	})

	t.Run("Parquet", func(t *testing.T) {
		end := host.await("/prefetch.parquet", tail(len(pqData)))
		engine := make(chan struct{})
		var engineOnce sync.Once
		ready := make(chan struct{})
		go func() {
			<-end
			<-engine
			close(ready)
		}()
		// The engine's module comes from the site: seen there.
		b, held := open(t, "/prefetch.parquet", ready, func(path string) {
			if strings.HasSuffix(path, "/parquet-engine.js") {
				engineOnce.Do(func() { close(engine) })
			}
		})
		b.waitOpened("prefetch.parquet")
		if !held() {
			t.Errorf("app.wasm waited 10 s: the end of the file or the Parquet engine was not asked for before it (%v)", host.requests("/prefetch.parquet"))
		}
		for _, r := range []int{0, 5, 59999, 1} {
			got := b.gotoRowCells(r, "id", "v")
			if want := [2]string{fmt.Sprint(r), fmt.Sprint(float64(r*10) + 0.5)}; got != want {
				t.Errorf("row %d shows %q, want %q", r, got, want)
			}
		}
		once(t, b, "/prefetch.parquet", tail(len(pqData)), 1)
	})

	// An address ending in ".parquet" starts the Parquet reader's worker
	// before the probe has answered; an Arrow IPC file so named terminates
	// it and opens as Arrow, its requests made early and once as any Arrow
	// file's.
	t.Run("Arrow IPC named .parquet", func(t *testing.T) {
		ready := host.await("/arrow-named.parquet", tail(len(arrowData)))
		b, held := open(t, "/arrow-named.parquet", ready, nil)
		b.waitOpened("arrow-named.parquet")
		if !held() {
			t.Errorf("app.wasm waited 10 s: the end of the file was not asked for before it (%v)", host.requests("/arrow-named.parquet"))
		}
		if got := b.gotoRowCells(2, "id", "id"); got[0] != "2" {
			t.Errorf("row 2 shows id %q, want 2", got[0])
		}
		once(t, b, "/arrow-named.parquet", tail(len(arrowData)), 1)
		var stopped int
		b.eval(`window.__terminated`, &stopped)
		if stopped != 1 {
			t.Errorf("%d workers terminated, want 1 (the guess the probe belied)", stopped)
		}
	})

	t.Run("404 and no Range", func(t *testing.T) {
		files := newFileHost(t, map[string]string{"js_images.arrow": "../testdata/js_images.arrow"})
		b := newBrowser(t)
		b.run(chromedp.Navigate(b.base + "?url=" + url.QueryEscape(files.url("missing", "js_images.arrow"))))
		if text := b.waitAlert(); !strings.Contains(text, "not found") || !strings.Contains(text, "404") {
			t.Errorf("404: the alert says %q", text)
		}
		before := files.requests.Load()
		b.run(chromedp.Navigate(b.base + "?url=" + url.QueryEscape(files.url("norange", "js_images.arrow"))))
		b.waitOpened("js_images.arrow")
		b.checkJSImages(loadExpected(t))
		if n := files.requests.Load() - before; n != 1 {
			t.Errorf("%d requests for a server without Range, want 1 (the download)", n)
		}
	})
}
