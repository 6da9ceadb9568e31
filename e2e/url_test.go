//go:build !wasm

package e2e

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tensorview/tensorview/internal/httpmeter"
)

// fileHost is a file server on another origin than the page, with one
// behaviour per path prefix:
//
//	/range/<f>     Range honoured (http.ServeContent), CORS allowed, nothing exposed
//	/norange/<f>   CORS allowed, Range ignored: 200 with the whole file
//	/nocors/<f>    Range honoured, no CORS headers
//	/changing/<f>  as /range/, ETag exposed; the ETag changes once changed is set
//	/missing/<f>   404 (CORS allowed)
//
// It counts the body bytes and requests it answered.
type fileHost struct {
	srv      *httptest.Server
	mu       sync.Mutex
	files    map[string]string // name → path on disk
	sent     atomic.Int64
	requests atomic.Int64
	changed  atomic.Bool
	aborts   chan struct{} // a stalled download the client gave up
}

func newFileHost(t *testing.T, files map[string]string) *fileHost {
	h := &fileHost{files: files, aborts: make(chan struct{}, 8)}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *fileHost) url(mode, name string) string { return h.srv.URL + "/" + mode + "/" + name }

func (h *fileHost) serve(w http.ResponseWriter, r *http.Request) {
	mode, name, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	h.requests.Add(1)
	if mode != "nocors" {
		w.Header().Set("Access-Control-Allow-Origin", "*")
	}
	path, ok := h.files[name]
	if mode == "missing" || !ok {
		http.NotFound(w, r)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	defer f.Close()
	st, _ := f.Stat()
	cw := httpmeter.Writer{ResponseWriter: w, N: &h.sent}
	switch mode {
	case "huge", "stall":
		// Servers without Range: "huge" declares 3 GiB and sends nothing,
		// "stall" sends the first 64 KiB of the file, then nothing; both
		// hold the response until the client gives up (or 20 s).
		size := st.Size()
		if mode == "huge" {
			size = 3 << 30
		}
		w.Header().Set("Content-Length", fmt.Sprint(size))
		w.Header().Set("Content-Type", "application/octet-stream")
		w.WriteHeader(200)
		if mode == "stall" {
			io.CopyN(cw, f, 64<<10)
		}
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			select {
			case h.aborts <- struct{}{}:
			default:
			}
		case <-time.After(20 * time.Second):
		}
	case "norange":
		w.Header().Set("Content-Length", fmt.Sprint(st.Size()))
		w.Header().Set("Content-Type", "application/octet-stream")
		w.WriteHeader(200)
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				cw.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	case "changing":
		w.Header().Set("Access-Control-Expose-Headers", "ETag")
		etag := `"v1"`
		if h.changed.Load() {
			etag = `"v2"`
		}
		w.Header().Set("ETag", etag)
		fallthrough
	default:
		http.ServeContent(cw, r, name, time.Time{}, f)
	}
}

// waitAlert waits for the page's alert and returns its text.
func (b *browser) waitAlert() string {
	b.t.Helper()
	b.waitFor(`document.querySelector('.alert[role=alert]') !== null`)
	var text string
	b.eval(`document.querySelector('.alert[role=alert]').textContent`, &text)
	return text
}

// TestOpenURL opens files by ?url= and by the "Open URL…" form from a server
// on another origin that honours HTTP Range, one that ignores it (a whole
// download with its progress), one without CORS, a 404 and a file that
// changes while it is read; the sample links open by URL on the page's own
// origin. The values shown by URL are checked like a dropped file's, and
// the page survives every failure.
func TestOpenURL(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	// ≈ 75 MiB, 400 record batches: larger than the page's block cache and
	// than files indexed in the background by URL, so scrolling to the end
	// makes new requests.
	changing := batchesFile(t, "changing.arrow", false, 400, 64)
	host := newFileHost(t, map[string]string{
		"js_images.arrow": filepath.Join("..", "testdata", "js_images.arrow"),
		"js_big.arrow":    filepath.Join("..", "testdata", "js_big.arrow"),
		"changing.arrow":  changing,
	})
	want := loadExpected(t)
	b := newBrowser(t)
	open := func(raw string) {
		b.t.Helper()
		b.run(chromedp.Navigate(b.base + "?url=" + url.QueryEscape(raw)))
	}

	t.Run("range, cross-origin, Content-Range not exposed", func(t *testing.T) {
		open(host.url("range", "js_images.arrow"))
		b.waitOpened("js_images.arrow")
		b.checkJSImages(want)
	})
	t.Run("a server that ignores Range: one download", func(t *testing.T) {
		before := host.requests.Load()
		open(host.url("norange", "js_images.arrow"))
		b.waitOpened("js_images.arrow")
		b.checkJSImages(want)
		if n := host.requests.Load() - before; n != 1 {
			t.Errorf("%d requests for a server without Range, want 1 (the download)", n)
		}
	})
	t.Run("no CORS: says which header to set", func(t *testing.T) {
		open(host.url("nocors", "js_images.arrow"))
		text := b.waitAlert()
		for _, s := range []string{"Access-Control-Allow-Origin", strings.TrimPrefix(host.srv.URL, "http://")} {
			if !strings.Contains(text, s) {
				t.Errorf("the alert says %q, want it to name %q", text, s)
			}
		}
	})
	t.Run("404", func(t *testing.T) {
		open(host.url("missing", "js_images.arrow"))
		if text := b.waitAlert(); !strings.Contains(text, "not found") || !strings.Contains(text, "404") {
			t.Errorf("the alert says %q", text)
		}
	})
	t.Run("not a URL the page may fetch", func(t *testing.T) {
		open("javascript:alert(1)")
		if text := b.waitAlert(); !strings.Contains(text, "not an http: or https: address") {
			t.Errorf("the alert says %q", text)
		}
	})
	t.Run("the file changes while it is read", func(t *testing.T) {
		open(host.url("changing", "changing.arrow"))
		b.waitOpened("changing.arrow")
		host.changed.Store(true)
		// The middle of the file (its end came with the footer), before the
		// background indexing reaches it.
		b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = v.scrollHeight / 2; return true })()`, nil)
		b.waitFor(`document.querySelector('[data-role=changed][role=alert]') !== null`)
		var text string
		b.eval(`document.querySelector('[data-role=changed]').textContent`, &text)
		if !strings.Contains(text, "changed on the server") {
			t.Errorf("the alert says %q", text)
		}
		host.changed.Store(false)
		b.screenshot("url-changed")
	})
	t.Run("the Open URL form", func(t *testing.T) {
		b.run(chromedp.Click(`[data-action=open-url]`, chromedp.ByQuery))
		b.waitFor(`document.activeElement?.dataset.role === 'url-input'`)
		b.run(chromedp.SendKeys(`[data-role=url-input]`, host.url("range", "js_images.arrow"), chromedp.ByQuery),
			chromedp.Click(`[data-action=open-url-go]`, chromedp.ByQuery))
		b.waitOpened("js_images.arrow")
		var loc string
		b.eval(`new URL(location.href).searchParams.get('url')`, &loc)
		if loc != host.url("range", "js_images.arrow") {
			t.Errorf("the address holds url=%q", loc)
		}
	})
	t.Run("a download past the limit is refused when it starts", func(t *testing.T) {
		open(host.url("huge", "js_images.arrow"))
		text := b.waitAlert()
		for _, s := range []string{"does not honour HTTP Range", "it is 3.0 GiB: more than the 2.0 GiB tensorview downloads"} {
			if !strings.Contains(text, s) {
				t.Errorf("the alert says %q, want %q", text, s)
			}
		}
	})
	t.Run("Cancel stops a download", func(t *testing.T) {
		for len(host.aborts) > 0 { // earlier tests' aborts
			<-host.aborts
		}
		open(host.url("stall", "js_big.arrow"))
		b.waitFor(`document.querySelector('[data-role=progress][data-task=download] [data-action=cancel]') !== null`)
		var bar struct{ Done, Total string }
		b.waitFor(`document.querySelector('[data-role=progress][data-task=download]').dataset.bytesRead === '65536'`)
		b.eval(`(() => { const p = document.querySelector('[data-role=progress][data-task=download]');
			return {Done: p.dataset.bytesRead, Total: p.dataset.bytesTotal}; })()`, &bar)
		if st, _ := os.Stat(filepath.Join("..", "testdata", "js_big.arrow")); bar.Total != fmt.Sprint(st.Size()) {
			t.Errorf("the progress bar says %s of %s bytes, want 65536 of %d", bar.Done, bar.Total, st.Size())
		}
		b.run(chromedp.Click(`[data-task=download] [data-action=cancel]`, chromedp.ByQuery))
		if text := b.waitAlert(); !strings.Contains(text, "the download was cancelled") {
			t.Errorf("the alert says %q", text)
		}
		select { // the browser dropped the response
		case <-host.aborts:
		case <-b.ctx.Done():
			t.Fatal("the server's response was not aborted")
		}
	})
	t.Run("sample links open by URL", func(t *testing.T) {
		b.run(chromedp.Navigate(b.base))
		b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] a[data-sample]') !== null`)
		var href string
		b.eval(`document.querySelector('a[data-sample="js_images.arrow"]').getAttribute('href')`, &href)
		if href != "?url=web%2Fsamples%2Fjs_images.arrow" {
			t.Errorf("the sample link is %q", href)
		}
		b.run(chromedp.Click(`a[data-sample="js_images.arrow"]`, chromedp.ByQuery))
		b.waitOpened("js_images.arrow")
		b.checkJSImages(want)
	})
}

// TestOfflineMessage: when a fetch fails and the browser says it is
// offline, the alert says so (rather than blaming CORS or the server). The
// browser is told it is offline by the page's navigator.onLine (DevTools'
// offline emulation also cuts the page from its own site), and the fetch
// fails for real: nothing listens on the file's port.
func TestOfflineMessage(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/data.arrow"
	ln.Close()
	b := newBrowserWith(t, "", `Object.defineProperty(Navigator.prototype, 'onLine', {get: () => false, configurable: true});`)
	b.run(chromedp.Navigate(b.base + "?url=" + url.QueryEscape(closed)))
	if text := b.waitAlert(); !strings.Contains(text, "the browser is offline") || !strings.Contains(text, closed) {
		t.Errorf("the alert says %q", text)
	}
}

// TestDeepLink opens the inspector on a file by URL, moves a slider and
// changes the colormap, channel and axes: the address holds all of it, the
// browser's Back closes the inspector, and the address taken before opens
// the same picture (the slice canvas's pixels compared) in a fresh browser.
func TestDeepLink(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	path, _ := tensor4DFile(t)
	host := newFileHost(t, map[string]string{"tensor4d.arrow": path})
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?url=" + url.QueryEscape(host.url("range", "tensor4d.arrow"))))
	b.waitOpened("tensor4d.arrow")
	b.run(chromedp.Click(`[data-row="1"] [data-tensor][data-field="t"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-field="t"][data-row="1"]') !== null`)
	b.waitFor(`new URL(location.href).searchParams.get('f') === 't'`)
	b.setValue(`select[data-role=channel]`, "-1")
	b.waitFor(`document.querySelectorAll('input[type=range][data-dim]').length === 2`)
	b.setValue(`input[type=range][data-dim="1"]`, "2")
	b.setValue(`select[data-role=colormap]`, "magma")
	b.setValue(`select[data-role=axis-y]`, "3")
	b.waitFor(`(p => p.get('cmap') === 'magma' && p.get('y') === '3' && p.get('ch') === '-1' && p.get('i') === '0,2,0,0')(new URL(location.href).searchParams)`)
	pixels := func(b *browser) []int {
		var pix []int
		b.eval(`(c => Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data))(document.querySelector('canvas[data-role=slice]'))`, &pix)
		return pix
	}
	want := pixels(b)
	var link string
	b.eval(`location.href`, &link)
	t.Logf("deep link: %s", link)

	// Back closes the inspector.
	b.eval(`history.back(), true`, nil)
	b.waitFor(`document.querySelector('[data-role=inspector]') === null && !new URL(location.href).searchParams.has('f')`)
	// Forward opens it again on the same view.
	b.eval(`history.forward(), true`, nil)
	b.waitFor(`document.querySelector('[data-role=inspector][data-field="t"][data-row="1"] canvas[data-role=slice][data-drawn]') !== null
		&& document.querySelector('select[data-role=colormap]').value === 'magma'`)
	b.waitFor(`(c => c.width === 4 && c.height === 5)(document.querySelector('canvas[data-role=slice]'))`)
	if got := pixels(b); !reflect.DeepEqual(got, want) {
		t.Errorf("Forward shows other pixels: %d values, want %d", len(got), len(want))
	}
	var again string
	b.eval(`location.href`, &again)
	if again != link {
		t.Errorf("after Forward the address is %s, want %s", again, link)
	}

	// The link in a fresh browser: the same picture.
	b2 := newBrowser(t)
	b2.run(chromedp.Navigate(link))
	b2.waitFor(`document.querySelector('[data-role=inspector][data-field="t"][data-row="1"] canvas[data-role=slice][data-drawn]') !== null
		&& document.querySelector('select[data-role=colormap]').value === 'magma'`)
	b2.waitFor(`(c => c.width === 4 && c.height === 5)(document.querySelector('canvas[data-role=slice]'))`)
	if got := pixels(b2); len(got) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("the link shows other pixels: %d values, want %d", len(got), len(want))
	}
	b2.screenshot("deep-link")
}

// TestEmbed opens web/embed.html (the example host page, with its own
// query) at 1024×900: the iframe by URL shows rows with previews at
// 480×320, the postMessage'd file opens in the second, the viewers post
// ready and state, and the host page's address and history are untouched.
func TestEmbed(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	b := newBrowser(t)
	var before int
	b.eval(`history.length`, &before)
	b.run(chromedp.Navigate(b.base + "web/embed.html?host=1"))
	frameQ := func(id, sel string) string {
		return fmt.Sprintf(`document.getElementById(%q).contentDocument?.querySelector(%q)`, id, sel)
	}
	b.waitFor(frameQ("by-url", `[data-row="0"] canvas[data-preview=rgb]`) + ` != null`)
	b.waitFor(frameQ("by-message", `[data-state=ready] [data-role=file-info] h2`) + `?.textContent === 'generated.arrows'`)

	// At 480×320 the images of js_big (after its id and caption columns)
	// are in view: narrow views give plain columns less room.
	var preview struct{ Left, Right, FrameW float64 }
	b.eval(`(() => { const r = `+frameQ("by-url", `[data-row="0"] canvas[data-preview=rgb]`)+`.getBoundingClientRect();
		return {Left: r.left, Right: r.right, FrameW: document.getElementById('by-url').clientWidth}; })()`, &preview)
	if preview.Left < 0 || preview.Right > preview.FrameW {
		t.Errorf("row 0's preview spans x %v..%v of the %v-pixel embed: not in view", preview.Left, preview.Right, preview.FrameW)
	}

	// The dataset embed.js computed and wrote with flechette: every pixel
	// of row 2's 48×64 image preview is the page's formula, and the
	// float32 field has its shape and dim names.
	b.waitFor(frameQ("by-message", `[data-row="2"] canvas[data-preview=rgb]`) + ` != null`)
	var posted struct {
		W, H       int
		Pix        []int
		FieldShape string
		FieldNames string
	}
	b.eval(`(() => { const c = `+frameQ("by-message", `[data-row="2"] [data-field=image] canvas[data-preview=rgb]`)+`;
		const f = `+frameQ("by-message", `[data-row="2"] [data-tensor][data-field=field]`)+`;
		return {W: c.width, H: c.height, Pix: Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data),
			FieldShape: f.dataset.shape, FieldNames: f.dataset.dimNames}; })()`, &posted)
	if posted.W != 64 || posted.H != 48 || posted.FieldShape != "16,16" || posted.FieldNames != "y,x" {
		t.Fatalf("posted dataset: %dx%d preview, field shape %q names %q", posted.W, posted.H, posted.FieldShape, posted.FieldNames)
	}
	for y, bad := 0, 0; y < 48 && bad < 3; y++ {
		for x := 0; x < 64 && bad < 3; x++ {
			p := (y*64 + x) * 4
			want := [4]int{(4*x + 40*2) % 256, (5 * y) % 256, (2*(x+y) + 20*2) % 256, 255}
			if got := [4]int(posted.Pix[p : p+4]); got != want {
				t.Errorf("row 2 pixel (%d, %d) = %v, want %v", y, x, got, want)
				bad++
			}
		}
	}
	var page struct {
		Search   string
		History  int
		Messages string
		Open     string
		FrameW   float64
		Embed    string
	}
	// The posted file's viewer says so: a state message follows the
	// opening of a file the host posted.
	b.waitFor(`document.getElementById('messages').textContent.includes('tensorview:state (generated.arrows)')`)
	b.eval(`({Search: location.search, History: history.length, Messages: document.getElementById('messages').textContent,
		Open: `+frameQ("by-url", `[data-role=open-full]`)+`?.href || '',
		FrameW: document.getElementById('by-url').getBoundingClientRect().width,
		Embed: `+frameQ("by-url", `.viewer`)+`?.dataset.embed || ''})`, &page)
	if page.Search != "?host=1" || page.History != before+1 {
		t.Errorf("the host page's address or history changed: %q, %d entries, want %d", page.Search, page.History, before+1)
	}
	if !strings.Contains(page.Messages, "tensorview:ready") {
		t.Errorf("messages from the viewers: %q", page.Messages)
	}
	if page.Embed != "true" || !strings.Contains(page.Open, "/tensorview/web/samples/js_big.arrow") || strings.Contains(page.Open, "embed=") {
		t.Errorf("embed %q, Open in tensorview link %q", page.Embed, page.Open)
	}
	b.screenshot("embed")
}
