//go:build !wasm

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/tensorview/tensorview/internal/chromium"
)

// browser is a headless Chromium page on the static build.
type browser struct {
	t       *testing.T
	ctx     context.Context
	base    string // URL of the site
	data    string // URL of testdata/
	console *consoleLog
}

// consoleLog keeps what the page's console said, and its exceptions.
type consoleLog struct {
	mu    sync.Mutex
	lines []string
}

func (c *consoleLog) add(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lines = append(c.lines, line)
}

// count is how many lines there are.
func (c *consoleLog) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.lines)
}

// since returns the lines after the first n.
func (c *consoleLog) since(n int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.lines[min(n, len(c.lines)):]...)
}

// skipWithoutSite skips a browser test when there is no static build to
// test: `go test ./...` alone passes, `make test` builds the site and runs
// them all.
func skipWithoutSite(t *testing.T) {
	if os.Getenv("TENSORVIEW_DIST") == "" {
		if os.Getenv("TENSORVIEW_FULL") != "" { // make test: nothing skips there
			t.Fatal("TENSORVIEW_DIST is not set")
		}
		t.Skip("browser test: TENSORVIEW_DIST is not set (make test builds the static site and runs it)")
	}
}

// newBrowser serves the static build ($TENSORVIEW_DIST, written by `make
// static`) under $TENSORVIEW_BASE with a plain file server, and testdata/
// beside it, and opens the site in Debian's chromium.
func newBrowser(t *testing.T) *browser { return newBrowserWith(t, "", "") }

// newBrowserWith is newBrowser with a query string for the page's URL (such
// as "?cache=64") and a script that Chromium runs in every new document
// before the page's own scripts (DevTools' Page.addScriptToEvaluateOnNewDocument:
// the page's Content Security Policy does not apply to it).
func newBrowserWith(t *testing.T, query, initScript string) *browser {
	return newBrowserServing(t, query, initScript, nil)
}

// newBrowserServing is newBrowserWith whose server's handler is wrap(the
// site and testdata's handler) when wrap is not nil: to watch or refuse
// requests.
func newBrowserServing(t *testing.T, query, initScript string, wrap func(http.Handler) http.Handler) *browser {
	b := newBrowserLoading(t, query, initScript, wrap)
	// The server-rendered page is the empty page, usable before the wasm
	// has started (web/boot.js); data-ready="true" says the app has
	// mounted.
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
	return b
}

// newBrowserLoading is newBrowserServing without waiting for the app: it
// returns once the page is navigated to, whether the wasm has started or
// not.
func newBrowserLoading(t *testing.T, query, initScript string, wrap func(http.Handler) http.Handler) *browser {
	b := newBrowserBlank(t, initScript, wrap)
	b.run(chromedp.Navigate(b.base + query))
	return b
}

// newBrowserBlank is newBrowserLoading before its navigation: the server
// and the browser are up, the page is blank.
func newBrowserBlank(t *testing.T, initScript string, wrap func(http.Handler) http.Handler) *browser {
	dist, base := os.Getenv("TENSORVIEW_DIST"), os.Getenv("TENSORVIEW_BASE")
	skipWithoutSite(t)
	if _, err := os.Stat(filepath.Join(dist, "index.html")); err != nil {
		t.Fatalf("no static build in %s: %v", dist, err)
	}
	base = strings.TrimRight(base, "/")
	mux := http.NewServeMux()
	mux.Handle(base+"/", http.StripPrefix(base, http.FileServer(http.Dir(dist))))
	mux.Handle("/testdata/", http.StripPrefix("/testdata/", http.FileServer(http.Dir("../testdata"))))
	var h http.Handler = mux
	if wrap != nil {
		h = wrap(mux)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	br, err := chromium.Start()
	if err != nil {
		t.Fatal(err)
	}
	// A guard against a page that hangs, not a speed check: the tests run
	// three at a time, and one may take minutes on a loaded machine.
	ctx, cancelTimeout := context.WithTimeout(br.Ctx, 8*time.Minute)
	t.Cleanup(func() { cancelTimeout(); br.Close() })

	b := &browser{t: t, ctx: ctx, base: srv.URL + base + "/", data: srv.URL + "/testdata/", console: new(consoleLog)}
	// Page errors and console errors go to the test log: a Go panic in the
	// wasm shows up here. Everything the console says is kept (Go's runtime
	// writes its fatal errors with console.log).
	chromedp.ListenTarget(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			b.console.add("exception: " + e.ExceptionDetails.Error())
			t.Logf("page exception: %s", e.ExceptionDetails.Error())
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, string(a.Value))
			}
			b.console.add(string(e.Type) + ": " + strings.Join(parts, " "))
			if e.Type == runtime.APITypeError || os.Getenv("TENSORVIEW_CONSOLE") != "" {
				t.Logf("console.error: %s", strings.Join(parts, " "))
			}
		}
	})
	// A test fails when the wasm panicked, whatever it checked: Go's
	// runtime prints "panic: …" and exits, and the page stops answering.
	t.Cleanup(func() {
		for _, l := range b.console.since(0) {
			if strings.Contains(l, `"panic: `) || strings.Contains(l, "Go program has already exited") {
				t.Errorf("the wasm crashed: %s", l)
				return
			}
		}
	})
	if initScript != "" {
		b.run(chromedp.ActionFunc(func(ctx context.Context) error {
			_, err := page.AddScriptToEvaluateOnNewDocument(initScript).Do(ctx)
			return err
		}))
	}
	return b
}

func (b *browser) run(actions ...chromedp.Action) {
	b.t.Helper()
	if err := chromedp.Run(b.ctx, actions...); err != nil {
		b.screenshot(b.t.Name())
		b.t.Fatal(err)
	}
}

// screenshot saves the page to $TENSORVIEW_SCREENSHOTS/<name>.png when set,
// to see what a failing test saw (and for the README's picture).
func (b *browser) screenshot(name string) {
	dir := os.Getenv("TENSORVIEW_SCREENSHOTS")
	if dir == "" {
		return
	}
	var png []byte
	if err := chromedp.Run(b.ctx, chromedp.FullScreenshot(&png, 100)); err == nil {
		name = strings.NewReplacer("/", "_", " ", "_", ":", "").Replace(name)
		_ = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}
}

// eval evaluates JavaScript (awaiting a promise) into out.
func (b *browser) eval(js string, out any) {
	b.t.Helper()
	b.run(chromedp.Evaluate(js, out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	}))
}

// waitFor polls a JavaScript expression until it is truthy, for up to 30 s.
func (b *browser) waitFor(js string) {
	b.t.Helper()
	b.waitWithin(js, 30*time.Second)
}

// waitWithin polls a JavaScript expression until it is truthy, for up to d:
// for work whose length follows the machine's load (indexing a file of
// many record batches by URL, a request each).
//
// A poll runs in the page's JavaScript context; when the page navigates
// meanwhile (the app reloads an empty page once its service worker has a
// newer build, which a loaded machine can make come late), the context is
// gone and the poll starts again in the new one, within the same d.
func (b *browser) waitWithin(js string, d time.Duration) {
	b.t.Helper()
	if err := b.pollWithin(js, d); err != nil {
		b.screenshot(b.t.Name())
		b.t.Fatalf("%v, waiting for %s; the page then: %s", err, js, b.pageState())
	}
}

// pageState describes what the page shows, for a wait that failed: the
// viewer's state attributes, the row count's (a query's progress and
// matches), the alerts' and status lines' text, the errors logged.
func (b *browser) pageState() string {
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	var got string
	err := chromedp.Run(ctx, chromedp.Evaluate(`(() => {
		const attrs = (el) => el ? [...el.attributes].filter(a => a.name.startsWith('data-')).map(a => a.name + '=' + JSON.stringify(a.value)).join(' ') : 'none';
		const texts = (sel) => [...document.querySelectorAll(sel)].map(e => JSON.stringify(e.textContent.trim().slice(0, 200))).join(', ');
		return 'viewer: ' + attrs(document.querySelector('.viewer')) +
			'; rows: ' + attrs(document.querySelector('[data-role=level-rows]') ?? document.querySelector('[data-role=num-rows]')) +
			'; alerts: [' + texts('[role=alert]') + ']; status: [' + texts('[role=status]') + ']';
	})()`, &got))
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	return got
}

// pollWithin is waitWithin returning its failure.
func (b *browser) pollWithin(js string, d time.Duration) error {
	b.t.Helper()
	deadline := time.Now().Add(d)
	for {
		err := chromedp.Run(b.ctx, chromedp.Poll(js, nil, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil {
			return nil
		}
		if contextGone(err) && time.Until(deadline) > 0 {
			b.t.Logf("the page navigated while waiting for %s (%v): waiting in the new page", js, err)
			continue
		}
		return err
	}
}

// contextGone: the page's JavaScript context an evaluation ran in is gone
// (the page navigated meanwhile).
func contextGone(err error) bool {
	return strings.Contains(err.Error(), "Cannot find context with specified id") ||
		strings.Contains(err.Error(), "Execution context was destroyed")
}

// upload opens a file through the page's <input type=file>.
func (b *browser) upload(path string) {
	b.t.Helper()
	abs, _ := filepath.Abs(path)
	b.run(chromedp.SetUploadFiles(`input[type=file]`, []string{abs}, chromedp.ByQuery))
}

// drop dispatches a drop event carrying testdata/name on the drop zone.
func (b *browser) drop(name string) {
	b.t.Helper()
	var ok bool
	b.eval(fmt.Sprintf(`(async () => {
		const r = await fetch(%q);
		const f = new File([await r.blob()], %q);
		const dt = new DataTransfer();
		dt.items.add(f);
		const zone = document.querySelector('[data-role=dropzone]');
		zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
		return zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true})) === false;
	})()`, b.data+name, name), &ok)
	if !ok {
		b.t.Fatal("the drop zone did not take the drop (preventDefault not called)")
	}
}

// waitOpened waits until the page shows the file name and the rows in view
// (record batches load in the background), and the schema panel has its
// content (after the first frame).
func (b *browser) waitOpened(name string) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf(`document.querySelector('[data-state=ready] [data-role=file-info] h2')?.textContent === %q
		&& document.querySelector('[data-row]') !== null && document.querySelector('[data-row][data-loading]') === null
		&& document.querySelector('[data-role=schema-panel][data-filled=true]') !== null`, name))
}

// tensorCell is what the page exposes about one tensor cell.
type tensorCell struct {
	Row, Field, Shape, LogicalShape, DimNames, LogicalDimNames, Preview string
	Null                                                                bool
}

func (b *browser) tensorCells(field string) []tensorCell {
	b.t.Helper()
	var cells []tensorCell
	b.eval(fmt.Sprintf(`[...document.querySelectorAll('[data-row] [data-field=%q]')].map(e => ({
		Row: e.closest('[data-row]').dataset.row,
		Field: e.dataset.field,
		Shape: e.dataset.shape || '', LogicalShape: e.dataset.logicalShape || '',
		DimNames: e.dataset.dimNames || '', LogicalDimNames: e.dataset.logicalDimNames || '',
		Preview: e.querySelector('canvas[data-preview]')?.dataset.preview || '',
		Null: e.hasAttribute('data-null'),
	}))`, field), &cells)
	return cells
}

// canvas reads the preview canvas of a cell: intrinsic size and RGBA pixels.
func (b *browser) canvas(row int, field string) (w, h int, pix []int) {
	b.t.Helper()
	var res struct {
		W, H int
		Pix  []int
	}
	b.eval(fmt.Sprintf(`(() => {
		const c = document.querySelector('[data-row="%d"] [data-field=%q] canvas[data-preview]');
		if (!c) return {W: 0, H: 0, Pix: []};
		return {W: c.width, H: c.height, Pix: Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data)};
	})()`, row, field), &res)
	return res.W, res.H, res.Pix
}

// allowDownloads makes the browser save downloads in a new temporary
// directory, returned with a channel that receives the GUID of each
// download when it completes.
func (b *browser) allowDownloads() (dir string, done chan string) {
	dir, done = b.t.TempDir(), make(chan string, 4)
	onDownload := func(ev any) {
		if e, ok := ev.(*cdpbrowser.EventDownloadProgress); ok && e.State == cdpbrowser.DownloadProgressStateCompleted {
			done <- e.GUID
		}
	}
	chromedp.ListenBrowser(b.ctx, onDownload)
	chromedp.ListenTarget(b.ctx, onDownload)
	b.run(cdpbrowser.SetDownloadBehavior(cdpbrowser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(dir).WithEventsEnabled(true))
	return dir, done
}

// download clicks the button sel, waits (30 s at most) for the browser to
// finish the download allowDownloads set up (dir, done), and returns the
// bytes of the file named name it saved.
func (b *browser) download(sel, dir string, done chan string, name string) []byte {
	b.t.Helper()
	b.run(chromedp.Click(sel, chromedp.ByQuery))
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		b.t.Fatalf("the download of %s did not complete", name)
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		entries, _ := os.ReadDir(dir)
		b.t.Fatalf("%v (downloads: %v)", err, entries)
	}
	return data
}

// setValue sets a form control's value and fires its input and change events.
func (b *browser) setValue(selector, value string) {
	b.t.Helper()
	var ok bool
	b.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false;
		e.value = %q; e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); return true })()`, selector, value), &ok)
	if !ok {
		b.t.Fatalf("no element %s", selector)
	}
}

// slowReads makes every Blob.arrayBuffer() of more than minBytes wait ms
// milliseconds first, as a slow disk would, while window.__slow is true
// (it starts true).
func (b *browser) slowReads(minBytes, ms int) {
	b.t.Helper()
	b.eval(fmt.Sprintf(`(() => {
		const read = Blob.prototype.arrayBuffer;
		window.__slow = true;
		Blob.prototype.arrayBuffer = function () {
			const wait = window.__slow && this.size > %d ? %d : 0;
			return new Promise((resolve) => setTimeout(resolve, wait)).then(() => read.call(this));
		};
		return true;
	})()`, minBytes, ms), nil)
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// axeViolation is one serious or critical finding of axe-core.
type axeViolation struct {
	ID, Impact, Help string
	Nodes            []string
}

// axe runs axe-core (npm axe-core, pinned in testdata/package.json) on the
// page as it is and returns its serious and critical violations. The script
// is evaluated through DevTools, which the page's CSP does not govern.
func (b *browser) axe() []axeViolation {
	b.t.Helper()
	src, err := os.ReadFile("../testdata/node_modules/axe-core/axe.min.js")
	if err != nil {
		b.t.Fatalf("axe-core: %v (make test installs testdata/node_modules)", err)
	}
	var ok bool
	b.eval(string(src)+";\ntypeof axe === 'object'", &ok)
	if !ok {
		b.t.Fatal("axe-core did not load")
	}
	// Colours mid-transition are no colours the page settles on: wait
	// until no CSS transition runs (the page's own word that its styles
	// are settled).
	b.waitFor(`document.getAnimations().every(a => !(a instanceof CSSTransition) || a.playState !== 'running')`)
	var found []axeViolation
	b.eval(`axe.run(document, {resultTypes: ['violations']}).then(r => r.violations
		.filter(v => v.impact === 'serious' || v.impact === 'critical')
		.map(v => ({ID: v.id, Impact: v.impact, Help: v.help, Nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))})))`, &found)
	return found
}

// openSample follows the sample link for name (a link to "?url=…"), which
// the page keeps even with a file open, where the top bar hides it.
func (b *browser) openSample(name string) {
	b.t.Helper()
	var ok bool
	b.eval(fmt.Sprintf(`(a => { if (!a) return false; a.click(); return true })(document.querySelector('a[data-sample=%q]'))`, name), &ok)
	if !ok {
		b.t.Fatalf("no sample link for %s", name)
	}
}

// requestLog records the paths a test server was asked for, holds those
// containing hold until release is closed, and refuses (503) those
// containing refuse once told to, as a server that is gone would.
type requestLog struct {
	mu      sync.Mutex
	paths   []string
	hold    string
	release chan struct{}
	refuse  string // refuse paths containing this ("" : none)
	refused []string
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.paths = append(l.paths, r.URL.Path)
		refuse := l.refuse != "" && strings.Contains(r.URL.Path, l.refuse)
		if refuse {
			l.refused = append(l.refused, r.URL.Path)
		}
		var wait chan struct{}
		if l.hold != "" && strings.Contains(r.URL.Path, l.hold) {
			wait = l.release
		}
		l.mu.Unlock()
		if wait != nil {
			select {
			case <-wait:
			case <-r.Context().Done():
				return
			}
		}
		if refuse {
			http.Error(w, "gone", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// matching returns the paths asked for so far that contain s.
func (l *requestLog) matching(s string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, p := range l.paths {
		if strings.Contains(p, s) {
			out = append(out, p)
		}
	}
	return out
}

// isWasm reports whether a request's path is the page's wasm: web/app.wasm,
// or the brotli copy web/boot.js fetches instead on a first visit.
func isWasm(path string) bool {
	return strings.HasSuffix(path, "/app.wasm") || strings.HasSuffix(path, "/app.wasm.br")
}
