//go:build !wasm

package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"math"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/tensorview/tensorview/app/site"
	"github.com/tensorview/tensorview/internal/chromium"
	"github.com/tensorview/tensorview/tensorext"
)

// TestWasmExecMatchesGoApp checks the committed wasm_exec.js is the one
// go-app serves (it embeds the Go toolchain's copy).
func TestWasmExecMatchesGoApp(t *testing.T) {
	skipWithoutSite(t)
	srv := httptest.NewServer(site.NewHandler("", "web"))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/wasm_exec.js")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	served, _ := io.ReadAll(resp.Body)
	committed, err := os.ReadFile("wasm_exec.js")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(served, committed) {
		t.Fatalf("wasm_exec.js (%d bytes) differs from go-app's (%d bytes): copy $(go env GOROOT)/lib/wasm/wasm_exec.js", len(committed), len(served))
	}
}

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
	mux.Handle("/testdata/", http.StripPrefix("/testdata/", http.FileServer(http.Dir("testdata"))))
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
	ctx, cancelTimeout := context.WithTimeout(br.Ctx, 3*time.Minute)
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
		b.t.Fatal(err)
	}
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

// expected is testdata/js_expected.json, written by the apache-arrow script.
type expected struct {
	Files map[string]struct {
		NumRows int `json:"num_rows"`
		Columns map[string]struct {
			Rows []*struct {
				Shape  []int     `json:"shape"`
				Values []float64 `json:"values"`
			} `json:"rows"`
		} `json:"columns"`
	} `json:"files"`
}

func loadExpected(t *testing.T) expected {
	var e expected
	data, err := os.ReadFile("testdata/js_expected.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	return e
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// badMetadataFile writes an IPC file whose "t" column claims
// arrow.fixed_shape_tensor with a shape that does not match its storage,
// beside a good "id" column and a column of HTML-looking text.
func badMetadataFile(t *testing.T) string {
	mem := memory.DefaultAllocator
	ib := array.NewInt32Builder(mem)
	ib.AppendValues([]int32{7, 8}, nil)
	ids := ib.NewArray()
	lb := array.NewFixedSizeListBuilder(mem, 4, arrow.PrimitiveTypes.Float32)
	vb := lb.ValueBuilder().(*array.Float32Builder)
	for r := 0; r < 2; r++ {
		lb.Append(true)
		vb.AppendValues([]float32{1, 2, 3, 4}, nil)
	}
	lists := lb.NewArray()
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"<i>not italic</i>", `<img src=x onerror="window.pwned=1">`}, nil)
	html := sb.NewArray()
	md := arrow.NewMetadata([]string{"ARROW:extension:name", "ARROW:extension:metadata"}, []string{"arrow.fixed_shape_tensor", `{"shape":[3,3]}`})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "t", Type: lists.DataType(), Nullable: true, Metadata: md},
		{Name: "<b>html</b>", Type: arrow.BinaryTypes.String},
	}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{ids, lists, html}, 2)
	return writeIPCFile(t, "bad_metadata.arrow", schema, rec)
}

// writeIPCFile writes record batches as an Arrow IPC file in a temporary
// directory and returns its path.
func writeIPCFile(t *testing.T, name string, schema *arrow.Schema, recs ...arrow.RecordBatch) string {
	t.Helper()
	return writeIPCFileWith(t, name, schema, nil, recs...)
}

// writeIPCFileWith writes an IPC file with arrow-go's writer options (such
// as compression).
func writeIPCFileWith(t *testing.T, name string, schema *arrow.Schema, opts []ipc.Option, recs ...arrow.RecordBatch) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := ipc.NewFileWriter(f, append([]ipc.Option{ipc.WithSchema(schema)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
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

// checkJSImages checks what the page shows of testdata/js_images.arrow, open
// and in view: the schema's extensions, the rgb cells' shapes and exact
// pixels, the grayscale preview scaled to the row's range, the CHW preview.
func (b *browser) checkJSImages(want expected) {
	b.t.Helper()
	var schema []struct{ Field, Extension, Error string }
	b.eval(`[...document.querySelectorAll('tr[data-field]')].map(e => ({Field: e.dataset.field, Extension: e.dataset.extension || '', Error: e.dataset.error || ''}))`, &schema)
	gotExt := map[string]string{}
	for _, f := range schema {
		gotExt[f.Field] = f.Extension
		if f.Error != "" {
			b.t.Errorf("field %s: unexpected error %q", f.Field, f.Error)
		}
	}
	wantExt := map[string]string{"id": "", "label": "", "rgb": "arrow.fixed_shape_tensor", "gray": "arrow.fixed_shape_tensor", "chw": "arrow.fixed_shape_tensor"}
	if !reflect.DeepEqual(gotExt, wantExt) {
		b.t.Errorf("schema extensions %v, want %v", gotExt, wantExt)
	}
	rgb := b.tensorCells("rgb")
	wantRGB := []tensorCell{
		{Row: "0", Field: "rgb", Shape: "4,3,3", LogicalShape: "4,3,3", DimNames: "H,W,C", LogicalDimNames: "H,W,C", Preview: "rgb"},
		{Row: "1", Field: "rgb", Shape: "4,3,3", LogicalShape: "4,3,3", DimNames: "H,W,C", LogicalDimNames: "H,W,C", Preview: "rgb"},
		{Row: "2", Field: "rgb", Null: true},
	}
	if !reflect.DeepEqual(rgb, wantRGB) {
		b.t.Errorf("rgb cells\n got %+v\nwant %+v", rgb, wantRGB)
	}
	b.checkNullTensors("rgb", wantRGB)
	// uint8 RGB values are drawn exactly: pixel (h, w) = values[h][w][0:3], alpha 255.
	for row := 0; row < 2; row++ {
		vals := want.Files["js_images.arrow"].Columns["rgb"].Rows[row].Values
		var wantPix []int
		for i := 0; i < len(vals); i += 3 {
			wantPix = append(wantPix, int(vals[i]), int(vals[i+1]), int(vals[i+2]), 255)
		}
		w, h, pix := b.canvas(row, "rgb")
		if w != 3 || h != 4 || !reflect.DeepEqual(pix, wantPix) {
			b.t.Errorf("row %d rgb canvas %dx%d pixels %v, want 3x4 %v", row, w, h, pix, wantPix)
		}
	}
	// float32 2x4 grayscale, scaled from the row's min..max to 0..255.
	vals := want.Files["js_images.arrow"].Columns["gray"].Rows[0].Values
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		lo, hi = min(lo, v), max(hi, v)
	}
	var wantGray []int
	for _, v := range vals {
		g := int((v-lo)*255/(hi-lo) + 0.5)
		wantGray = append(wantGray, g, g, g, 255)
	}
	if w, h, pix := b.canvas(0, "gray"); w != 4 || h != 2 || !reflect.DeepEqual(pix, wantGray) {
		b.t.Errorf("gray canvas %dx%d %v, want 4x2 %v", w, h, pix, wantGray)
	}
	chw := b.tensorCells("chw")
	if len(chw) == 0 || chw[0].Preview != "rgb" || chw[0].DimNames != "C,H,W" {
		b.t.Errorf("CHW cell %+v: want an rgb preview with dim names C,H,W", chw)
	}
}

// checkNullTensors checks that the null rows of a tensor column are null
// tensors (data-tensor and data-null), whatever the tensor type.
func (b *browser) checkNullTensors(field string, cells []tensorCell) {
	b.t.Helper()
	var want, got []string
	for _, c := range cells {
		if c.Null {
			want = append(want, c.Row)
		}
	}
	b.eval(fmt.Sprintf(`[...document.querySelectorAll('[data-row] [data-tensor][data-null][data-field=%q]')].map(e => e.closest('[data-row]').dataset.row)`, field), &got)
	if len(want) == 0 || !reflect.DeepEqual(got, want) {
		b.t.Errorf("%s: null tensors in rows %v, want %v", field, got, want)
	}
}

// TestBrowser drives the static build in headless Chromium as a person would:
// open files written by apache-arrow (JS) through the file input and by
// dropping them, read the tensor hooks and preview pixels, open broken files
// and recover.
func TestBrowser(t *testing.T) {
	skipWithoutSite(t)
	want := loadExpected(t)
	b := newBrowser(t)

	t.Run("file input: images", func(t *testing.T) {
		b.t = t
		b.upload("testdata/js_images.arrow")
		b.waitOpened("js_images.arrow")
		b.checkJSImages(want)
	})

	t.Run("drop: variable shape tensors", func(t *testing.T) {
		b.t = t
		b.drop("js_variable.arrow")
		b.waitOpened("js_variable.arrow")
		got := b.tensorCells("vt")
		var wantCells []tensorCell
		for i, r := range want.Files["js_variable.arrow"].Columns["vt"].Rows {
			c := tensorCell{Row: fmt.Sprint(i), Field: "vt"}
			if r == nil {
				c.Null = true
			} else {
				c.Shape, c.LogicalShape, c.DimNames, c.LogicalDimNames = joinInts(r.Shape), joinInts(r.Shape), "H,W,C", "H,W,C"
				if r.Shape[0] > 0 {
					c.Preview = "rgb"
				}
			}
			wantCells = append(wantCells, c)
		}
		if !reflect.DeepEqual(got, wantCells) {
			t.Errorf("vt cells\n got %+v\nwant %+v", got, wantCells)
		}
		b.checkNullTensors("vt", wantCells)
		var uniform string
		b.eval(`document.querySelector('tr[data-field=vt]').textContent`, &uniform)
		if !strings.Contains(uniform, "uniform_shape [null,null,3]") {
			t.Errorf("schema row of vt does not show uniform_shape: %q", uniform)
		}
	})

	t.Run("corrupt file shows an alert, then a good file opens", func(t *testing.T) {
		b.t = t
		b.upload("testdata/js_corrupt.arrow")
		b.waitFor(`document.querySelector('[data-state=error] [role=alert]') !== null`)
		var msg string
		b.eval(`document.querySelector('[role=alert]').textContent`, &msg)
		if !strings.HasPrefix(msg, "Cannot open js_corrupt.arrow. ") || len(msg) < 50 {
			t.Errorf("alert %q does not say what is wrong", msg)
		}
		b.upload("testdata/not_arrow.arrow")
		b.waitFor(`document.querySelector('[role=alert]')?.textContent.includes('not an Arrow IPC file')`)

		b.upload("testdata/js_permuted.arrow")
		b.waitOpened("js_permuted.arrow")
		var alerts int
		b.eval(`document.querySelectorAll('[role=alert]').length`, &alerts)
		if alerts != 0 {
			t.Errorf("%d alerts still shown after a good file opened", alerts)
		}
		got := b.tensorCells("t")
		if len(got) != 2 || got[0].Shape != "2,2,3" || got[0].LogicalShape != "3,2,2" || got[0].DimNames != "A,B,C" || got[0].LogicalDimNames != "C,A,B" {
			t.Errorf("permuted cells %+v: want physical 2,2,3 A,B,C and logical 3,2,2 C,A,B", got)
		}
		// A refused file names itself and the file still shown.
		b.upload("testdata/not_arrow.arrow")
		b.waitFor(`document.querySelector('[role=alert]')?.textContent.includes('not an Arrow IPC file')`)
		b.eval(`document.querySelector('[role=alert]').textContent`, &msg)
		if !strings.HasPrefix(msg, "Cannot open not_arrow.arrow. ") || !strings.HasSuffix(msg, " Still showing js_permuted.arrow.") {
			t.Errorf("alert %q: want it to name not_arrow.arrow and say js_permuted.arrow is still shown", msg)
		}
		if got := b.tensorCells("t"); len(got) != 2 {
			t.Errorf("after a refused file, %d cells of js_permuted.arrow, want 2", len(got))
		}
	})

	t.Run("a column with invalid tensor metadata shows its error, the rest displays", func(t *testing.T) {
		b.t = t
		b.upload(badMetadataFile(t))
		b.waitOpened("bad_metadata.arrow")
		var field struct{ Extension, Error string }
		b.eval(`(e => ({Extension: e.dataset.extension, Error: e.dataset.error || ''}))(document.querySelector('tr[data-field=t]'))`, &field)
		wantErr := "Product of shape dimensions (9) does not match FixedSizeList size (4)"
		if field.Extension != "arrow.fixed_shape_tensor" || field.Error != wantErr {
			t.Errorf("schema row t = %+v, want extension arrow.fixed_shape_tensor and error %q", field, wantErr)
		}
		var texts []string
		b.eval(`[...document.querySelectorAll('[data-row] [data-field]')].map(e => e.dataset.field + '=' + e.textContent)`, &texts)
		wantTexts := []string{"id=7", "t=[1,2,3,4]", "<b>html</b>=<i>not italic</i>",
			"id=8", "t=[1,2,3,4]", `<b>html</b>=<img src=x onerror="window.pwned=1">`}
		if !reflect.DeepEqual(texts, wantTexts) {
			t.Errorf("cells %q, want %q", texts, wantTexts)
		}
		// Text from the file is text: no element was made from it.
		var injected bool
		b.eval(`window.pwned !== undefined || document.querySelector('.file b, .file i, .file img') !== null`, &injected)
		if injected {
			t.Error("text from the file was rendered as HTML")
		}
	})

	t.Run("sample link, windowed rows, scroll to the end", func(t *testing.T) {
		b.t = t
		b.openSample("js_big.arrow")
		b.waitOpened("js_big.arrow")
		b.screenshot("viewer")
		var inDOM int
		b.eval(`document.querySelectorAll('[data-row]').length`, &inDOM)
		if inDOM == 0 || inDOM >= 64 {
			t.Errorf("%d of 64 rows in the DOM: want a window", inDOM)
		}
		b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = v.scrollHeight; return true })()`, nil)
		b.waitFor(`document.querySelector('[data-row="63"] [data-field=image] canvas[data-preview=rgb]') !== null`)
		rows := want.Files["js_big.arrow"]
		if rows.NumRows != 64 {
			t.Fatalf("expected file has %d rows", rows.NumRows)
		}
		cells := b.tensorCells("mask")
		last := cells[len(cells)-1]
		if last.Row != "63" || last.Shape != "15,11" || last.Preview != "gray" {
			t.Errorf("last mask cell %+v, want row 63 shape 15,11 with a gray preview", last)
		}
	})
}

// tensor4DFile writes an IPC file with one column "t" of float32 tensors of
// shape [2,3,4,5], dim names N,C,H,W, two rows; element (n,c,h,w) of row r
// is r*10000 + 1000n + 100c + 10h + w.
func tensor4DFile(t *testing.T) (path string, row1 []float32) {
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3, 4, 5}, nil, []string{"N", "C", "H", "W"})
	if err != nil {
		t.Fatal(err)
	}
	b := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	for r := 0; r < 2; r++ {
		var vals []float32
		for n := 0; n < 2; n++ {
			for c := 0; c < 3; c++ {
				for h := 0; h < 4; h++ {
					for w := 0; w < 5; w++ {
						vals = append(vals, float32(r*10000+1000*n+100*c+10*h+w))
					}
				}
			}
		}
		if err := b.AppendTensor(vals); err != nil {
			t.Fatal(err)
		}
		row1 = vals
	}
	arr := b.NewFixedShapeTensorArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, 2)
	defer rec.Release()
	return writeIPCFile(t, "tensor4d.arrow", schema, rec), row1
}

// npyFloat32 is an independent .npy (format 1.0) encoder for the test.
func npyFloat32(shape []int, vals []float32) []byte {
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = fmt.Sprint(d)
	}
	header := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }", strings.Join(dims, ", "))
	total := 10 + len(header) + 1
	header += strings.Repeat(" ", (64-total%64)%64) + "\n"
	out := []byte("\x93NUMPY\x01\x00")
	out = append(out, byte(len(header)), byte(len(header)>>8))
	out = append(out, header...)
	for _, v := range vals {
		bits := math.Float32bits(v)
		out = append(out, byte(bits), byte(bits>>8), byte(bits>>16), byte(bits>>24))
	}
	return out
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

// TestInspector opens the inspector on a 4-D tensor, moves a slider, changes
// the colormap, the channel and the displayed dimensions, hovers a known
// element, downloads a .npy and closes with Escape.
func TestInspector(t *testing.T) {
	skipWithoutSite(t)
	path, row1 := tensor4DFile(t)
	b := newBrowser(t)
	downloads, done := b.allowDownloads()

	b.upload(path)
	b.waitOpened("tensor4d.arrow")
	b.run(chromedp.Click(`[data-row="1"] [data-tensor][data-field="t"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-field="t"][data-row="1"]') !== null`)

	// The default view shows H×W with C as colour channels; switch to a colormap.
	var channel string
	b.eval(`document.querySelector('select[data-role=channel]').value`, &channel)
	if channel != "1" {
		t.Errorf("default channel dimension %q, want 1 (C)", channel)
	}
	b.setValue(`select[data-role=channel]`, "-1")
	b.waitFor(`document.querySelectorAll('input[type=range][data-dim]').length === 2`)
	var labels []string
	b.eval(`[...document.querySelectorAll('input[type=range][data-dim]')].map(e => e.dataset.dim + '=' + document.querySelector('label[for="' + e.id + '"]').textContent)`, &labels)
	if want := []string{"0=0: N (2)", "1=1: C (3)"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("sliders %q, want %q", labels, want)
	}
	b.setValue(`input[type=range][data-dim="1"]`, "2")
	b.setValue(`select[data-role=colormap]`, "magma")
	b.waitFor(`document.querySelector('select[data-role=colormap]').value === 'magma' && document.querySelector('input[type=number][data-dim-index="1"]').value === '2'`)

	// Show W as rows: X takes H, so the picture is 4 wide and 5 high.
	b.setValue(`select[data-role=axis-y]`, "3")
	b.waitFor(`(c => c && c.width === 4 && c.height === 5)(document.querySelector('canvas[data-role=slice]'))`)

	// Hover image pixel (x=1, y=3): H=1, W=3, with N=0 and C=2 from the sliders.
	var pt struct{ X, Y float64 }
	b.eval(`(() => { const c = document.querySelector('canvas[data-role=slice]'); const r = c.getBoundingClientRect();
		return {X: r.left + 1.5 * r.width / c.width, Y: r.top + 3.5 * r.height / c.height} })()`, &pt)
	b.run(chromedp.MouseEvent(input.MouseMoved, pt.X, pt.Y))
	b.waitFor(`document.querySelector('[data-role=readout][data-index]') !== null`)
	var readout struct{ Index, Value string }
	b.eval(`(e => ({Index: e.dataset.index, Value: e.dataset.value}))(document.querySelector('[data-role=readout]'))`, &readout)
	if readout.Index != "0,2,1,3" || readout.Value != "10213" {
		t.Errorf("readout %+v, want index 0,2,1,3 value 10213", readout)
	}
	var stats struct{ Min, Max, NaN string }
	b.eval(`(e => ({Min: e.dataset.min, Max: e.dataset.max, NaN: e.dataset.nan}))(document.querySelector('[data-role=stats]'))`, &stats)
	if stats != (struct{ Min, Max, NaN string }{"10000", "11234", "0"}) {
		t.Errorf("stats %+v, want min 10000 max 11234 nan 0", stats)
	}

	var col struct{ Rows, Min, Max string }
	b.waitFor(`document.querySelector('[data-role=column-stats]') !== null`)
	b.eval(`(e => ({Rows: e.dataset.rows, Min: e.dataset.min, Max: e.dataset.max}))(document.querySelector('[data-role=column-stats]'))`, &col)
	if col != (struct{ Rows, Min, Max string }{"2", "0", "11234"}) {
		t.Errorf("column stats %+v, want 2 rows from 0 to 11234", col)
	}
	b.screenshot("inspector")
	b.run(chromedp.Click(`[data-action=download-npy]`, chromedp.ByQuery))
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the .npy download did not complete")
	}
	got, err := os.ReadFile(filepath.Join(downloads, "t-row1.npy"))
	if err != nil {
		entries, _ := os.ReadDir(downloads)
		t.Fatalf("%v (downloads: %v)", err, entries)
	}
	if want := npyFloat32([]int{2, 3, 4, 5}, row1); !bytes.Equal(got, want) {
		t.Errorf("downloaded .npy (%d bytes) differs from the expected %d bytes", len(got), len(want))
	}

	b.run(chromedp.KeyEvent(kb.Escape))
	b.waitFor(`document.querySelector('[data-role=inspector]') === null`)

	// Variable shape tensors: the column's distribution of shapes.
	b.upload("testdata/js_variable.arrow")
	b.waitOpened("js_variable.arrow")
	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="vt"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-field="vt"] [data-role=shapes]') !== null`)
	var shapes []string
	b.eval(`[...document.querySelectorAll('[data-role=shapes] li[data-shape]')].map(e => e.dataset.shape + 'x' + e.dataset.rows)`, &shapes)
	if want := []string{"2,2,3x1", "1,3,3x1", "0,2,3x1"}; !reflect.DeepEqual(shapes, want) {
		t.Errorf("shape distribution %q, want %q", shapes, want)
	}
	b.run(chromedp.Click(`[data-action=close]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector]') === null`)

	// A 1-D tensor has no picture: its numbers are listed, opened with the keyboard.
	b.upload("testdata/js_big.arrow")
	b.waitOpened("js_big.arrow")
	b.run(chromedp.Focus(`[data-row="0"] [data-tensor][data-field="embedding"]`, chromedp.ByQuery), chromedp.KeyEvent(kb.Enter))
	b.waitFor(`document.querySelector('[data-role=inspector] [data-role=values]') !== null`)
	var values string
	b.eval(`document.querySelector('[data-role=values]').textContent`, &values)
	if values != "[-1 -0.625 -0.25 0.125 0.5 0.875 -0.75 -0.375]" {
		t.Errorf("values of the 1-D tensor: %q", values)
	}
}

// batchesFile writes an IPC file (or stream) of batches record batches of
// rowsPer rows: "id" (the global row) and "image", uint8 [32,32,3] H,W,C,
// whose element k of row id is (id + k) % 251.
func batchesFile(t *testing.T, name string, stream bool, batches, rowsPer int) string {
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{32, 32, 3}, nil, []string{"H", "W", "C"})
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "image", Type: typ, Nullable: true}}, nil)
	path := filepath.Join(t.TempDir(), name)
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	var w interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	if stream {
		w = ipc.NewWriter(out, ipc.WithSchema(schema))
	} else if w, err = ipc.NewFileWriter(out, ipc.WithSchema(schema)); err != nil {
		t.Fatal(err)
	}
	vals := make([]uint8, rowsPer*32*32*3)
	for b := 0; b < batches; b++ {
		ids := array.NewInt64Builder(memory.DefaultAllocator)
		tb := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
		for r := 0; r < rowsPer; r++ {
			id := b*rowsPer + r
			ids.Append(int64(id))
			for k := 0; k < 32*32*3; k++ {
				vals[r*32*32*3+k] = uint8((id + k) % 251)
			}
		}
		if err := tb.AppendTensors(vals); err != nil {
			t.Fatal(err)
		}
		rec := array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), tb.NewArray()}, int64(rowsPer))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLargeFiles opens a file eight times larger than the cache budget set
// in the URL, jumps to its last row and reads its values; then cancels the
// indexing of a stream of thousands of record batches.
func TestLargeFiles(t *testing.T) {
	skipWithoutSite(t)
	big := batchesFile(t, "batches.arrow", false, 40, 64) // 40 × 64 rows × 3 KiB ≈ 7.5 MiB
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?cache=1"))
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
	b.upload(big)
	b.waitOpened("batches.arrow")
	var rows string
	b.eval(`document.querySelector('[data-role=num-rows]').textContent`, &rows)
	if rows != "2560" {
		t.Errorf("rows %q, want 2560", rows)
	}
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = v.scrollHeight; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="2559"]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]') !== null`)
	var last struct {
		ID  string
		Pix []int
	}
	b.eval(`(() => { const r = document.querySelector('[data-row="2559"]'); const c = r.querySelector('canvas');
		return {ID: r.querySelector('[data-field=id]').textContent, Pix: Array.from(c.getContext('2d').getImageData(0, 0, 2, 1).data)} })()`, &last)
	// Row 2559, pixels (0,0) and (0,1): elements 0..5 are (2559+k) % 251.
	want := []int{49, 50, 51, 255, 52, 53, 54, 255}
	if last.ID != "2559" || !reflect.DeepEqual(last.Pix, want) {
		t.Errorf("last row %+v, want id 2559 pixels %v", last, want)
	}
	var cache struct{ Bytes, Budget int64 }
	b.eval(`(e => ({Bytes: +e.dataset.bytes, Budget: +e.dataset.budget}))(document.querySelector('[data-role=cache]'))`, &cache)
	if cache.Budget != 1<<20 || cache.Bytes <= 0 || cache.Bytes > cache.Budget {
		t.Errorf("cache %+v: want 0 < bytes <= budget = 1 MiB", cache)
	}

	// One record batch of 7.5 MiB under a 1 MiB budget: read by row windows.
	single := batchesFile(t, "single.arrow", false, 1, 2560)
	b.upload(single)
	b.waitOpened("single.arrow")
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = v.scrollHeight; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="2559"]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]') !== null`)
	b.eval(`(() => { const r = document.querySelector('[data-row="2559"]'); const c = r.querySelector('canvas');
		return {ID: r.querySelector('[data-field=id]').textContent, Pix: Array.from(c.getContext('2d').getImageData(0, 0, 2, 1).data)} })()`, &last)
	if last.ID != "2559" || !reflect.DeepEqual(last.Pix, want) {
		t.Errorf("single batch, last row %+v, want id 2559 pixels %v", last, want)
	}
	b.eval(`(e => ({Bytes: +e.dataset.bytes, Budget: +e.dataset.budget}))(document.querySelector('[data-role=cache]'))`, &cache)
	if cache.Bytes <= 0 || cache.Bytes > cache.Budget {
		t.Errorf("single batch: cache %+v over budget", cache)
	}
	var warnings int
	b.eval(`document.querySelectorAll('[data-role=file-warnings] .warning').length`, &warnings)
	if warnings != 0 {
		t.Errorf("%d warnings: the batch should be read by windows, not whole", warnings)
	}

	stream := batchesFile(t, "many.arrows", true, 8000, 1) // indexing takes seconds: long enough to cancel
	b.upload(stream)
	b.waitFor(`document.querySelector('[data-role=progress][data-task=index][data-bytes-total] [data-rows]') !== null`)
	var prog struct{ Read, Total, Rows int64 }
	b.eval(`(e => ({Read: +e.dataset.bytesRead, Total: +e.dataset.bytesTotal, Rows: +e.querySelector('[data-rows]').dataset.rows}))(document.querySelector('[data-role=progress]'))`, &prog)
	if st, _ := os.Stat(stream); prog.Total != st.Size() || prog.Read > prog.Total || prog.Rows <= 0 || prog.Rows > 8000 {
		t.Errorf("progress %+v of a %d-byte file of 8000 rows", prog, st.Size())
	}
	// Progress updates must not remount the table: scroll down, let the
	// progress move, and the rows stay where they were.
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = 500 * 84; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="500"]') !== null`)
	b.waitFor(fmt.Sprintf(`(+document.querySelector('[data-role=progress]')?.dataset.bytesRead || Infinity) > %d`, prog.Read))
	var top float64
	b.eval(`document.querySelector('[data-role=rows]').scrollTop`, &top)
	if top < 500*84-1 {
		t.Errorf("the rows scrolled back to %v while indexing progressed", top)
	}
	b.run(chromedp.Click(`[data-action=cancel]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=progress]') === null`)
	var exact string
	b.eval(`document.querySelector('[data-role=num-rows]').dataset.exact`, &exact)
	if exact != "false" {
		t.Errorf("after cancelling, the row count says exact=%q: it should stay an estimate", exact)
	}
	// What was indexed before the cancel still reads.
	b.eval(`(() => { document.querySelector('[data-role=rows]').scrollTop = 0; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="0"]:not([data-loading]) [data-field=id]')?.textContent === '0'
		&& document.querySelector('[data-row="9"]:not([data-loading]) [data-field=id]')?.textContent === '9'`)
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

// TestSlowDisk opens a file whose reads take 300 ms each (a slow disk or
// network drive): the page says it is reading the file, then shows it; and
// the rows beyond the view (drawn a frame after the first ones) come too.
func TestSlowDisk(t *testing.T) {
	skipWithoutSite(t)
	path := batchesFile(t, "slow.arrow", false, 4, 8) // rows 8 and on, beyond the view, are in the second batch
	b := newBrowser(t)
	b.slowReads(0, 300)
	b.upload(path)
	b.waitFor(`document.querySelector('[data-state=loading] .loading')?.textContent === 'Reading slow.arrow…'`)
	b.waitOpened("slow.arrow")
	// The last row drawn (overscan beyond the view, in the second batch: 8
	// rows a batch) shows its value.
	b.waitFor(`(rows => rows.length > 8 && !rows[rows.length-1].hasAttribute('data-loading') &&
		rows[rows.length-1].querySelector('[data-field=id]')?.textContent === rows[rows.length-1].dataset.row)([...document.querySelectorAll('[data-row]')])`)
	var loading int
	b.eval(`document.querySelectorAll('.loading').length`, &loading)
	if loading != 0 {
		t.Errorf("%d loading messages left after the file opened", loading)
	}
}

// TestCancelRead opens an lz4-compressed file of one 12 MiB record batch,
// which is read whole (compressed buffers cannot be read by row windows),
// from a slow disk: the read shows its progress in bytes, Cancel stops it,
// the rows offer to read again, and reading again shows the right values.
func TestCancelRead(t *testing.T) {
	skipWithoutSite(t)
	const rows = 96
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "noise", Type: arrow.BinaryTypes.Binary},
	}, nil)
	ids := array.NewInt64Builder(memory.DefaultAllocator)
	noise := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	rnd := rand.New(rand.NewSource(1))
	for i := range rows {
		ids.Append(int64(i))
		p := make([]byte, 128<<10) // random: lz4 cannot shrink it
		rnd.Read(p)
		noise.Append(p)
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), noise.NewArray()}, rows)
	path := writeIPCFileWith(t, "noise.arrow", schema, []ipc.Option{ipc.WithLZ4()}, rec)

	b := newBrowser(t)
	b.slowReads(1<<20, 1000)
	b.upload(path)
	b.waitFor(`document.querySelector('[data-role=progress][data-task=read]') !== null`)
	var prog struct{ Read, Total int64 }
	b.eval(`(e => ({Read: +e.dataset.bytesRead, Total: +e.dataset.bytesTotal}))(document.querySelector('[data-role=progress][data-task=read]'))`, &prog)
	if st, _ := os.Stat(path); prog.Total < 12<<20 || prog.Total > st.Size() || prog.Read >= prog.Total {
		t.Errorf("read progress %+v for a %d-byte file, want part of the 12 MiB batch", prog, st.Size())
	}
	b.run(chromedp.Click(`[data-role=progress][data-task=read] [data-action=cancel]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-row="0"][data-cancelled] [data-action=read-again]') !== null
		&& document.querySelector('[data-role=progress]') === null`)

	b.eval(`window.__slow = false`, nil)
	b.run(chromedp.Click(`[data-row="0"] [data-action=read-again]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-row="0"]:not([data-loading]):not([data-cancelled]) [data-field=id]')?.textContent === '0'
		&& document.querySelector('[data-row="5"] [data-field=id]')?.textContent === '5'`)
	var cached int64
	b.eval(`+document.querySelector('[data-role=cache]').dataset.bytes`, &cached)
	if cached < 12<<20 {
		t.Errorf("cache holds %d bytes after reading the batch again, want the 12 MiB batch", cached)
	}
}

// TestColumnStatsCancel computes the statistics of a column of 2560 images
// in 40 record batches read from a slow disk: the inspector shows the rows
// done over both passes, Cancel stops, and computing again gives the exact
// range of every pixel of the column.
func TestColumnStatsCancel(t *testing.T) {
	skipWithoutSite(t)
	path := batchesFile(t, "stats.arrow", false, 40, 64)
	b := newBrowser(t)
	b.upload(path)
	b.waitOpened("stats.arrow")
	b.slowReads(0, 300)
	b.run(chromedp.Click(`[data-row="0"] [data-field=image]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector] [data-action=column-stats]') !== null`)
	b.run(chromedp.Click(`[data-role=inspector] [data-action=column-stats]`, chromedp.ByQuery))
	b.waitFor(`+document.querySelector('[data-role=progress][data-task=column-stats]')?.dataset.rowsDone > 0`)
	var prog struct{ Done, Total int }
	b.eval(`(e => ({Done: +e.dataset.rowsDone, Total: +e.dataset.rowsTotal}))(document.querySelector('[data-role=progress][data-task=column-stats]'))`, &prog)
	if prog.Total != 2*2560 || prog.Done >= prog.Total {
		t.Errorf("column progress %+v, want part of 5120 rows (2560, two passes)", prog)
	}
	b.run(chromedp.Click(`[data-role=progress][data-task=column-stats] [data-action=cancel]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=progress]') === null
		&& document.querySelector('[data-role=inspector] [data-action=column-stats]') !== null`)

	b.eval(`window.__slow = false`, nil)
	b.run(chromedp.Click(`[data-role=inspector] [data-action=column-stats]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=column-stats][data-rows]') !== null`)
	var col struct{ Rows, Min, Max string }
	b.eval(`(e => ({Rows: e.dataset.rows, Min: e.dataset.min, Max: e.dataset.max}))(document.querySelector('[data-role=column-stats]'))`, &col)
	// Pixel bytes are (row + k) % 251: 0 to 250.
	if col != (struct{ Rows, Min, Max string }{"2560", "0", "250"}) {
		t.Errorf("column stats %+v, want 2560 rows from 0 to 250", col)
	}
}

// TestMillionRows scrolls a file of 2 million rows, more than a browser can
// give one pixel row each at the table's row height, to its end and to its
// middle: the rows shown are the right ones.
func TestMillionRows(t *testing.T) {
	skipWithoutSite(t)
	const rows, batches = 2_000_000, 16
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	path := filepath.Join(t.TempDir(), "million.arrow")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ipc.NewFileWriter(out, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, rows/batches)
	for b := 0; b < batches; b++ {
		for k := range ids {
			ids[k] = int64(b*len(ids) + k)
		}
		ib := array.NewInt64Builder(memory.DefaultAllocator)
		ib.AppendValues(ids, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{ib.NewArray()}, int64(len(ids)))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	out.Close()

	b := newBrowser(t)
	b.upload(path)
	b.waitOpened("million.arrow")
	for _, c := range []struct {
		frac float64
		row  int
	}{{1, rows - 1}, {0.5, -1}, {0, 0}} {
		b.eval(fmt.Sprintf(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = (v.scrollHeight - v.clientHeight) * %g; return true })()`, c.frac), nil)
		want := c.row
		if want < 0 {
			// The middle: some row near 1,000,000 is in view, showing its own id.
			b.waitFor(`(r => r && Math.abs(+r.dataset.row - 1000000) < 1000)(document.querySelector('[data-row]:not([data-loading])'))`)
			var ok bool
			b.eval(`[...document.querySelectorAll('[data-row]:not([data-loading])')].every(r => r.querySelector('[data-field=id]').textContent === r.dataset.row)`, &ok)
			if !ok {
				t.Error("in the middle, a row shows another row's id")
			}
			continue
		}
		b.waitFor(fmt.Sprintf(`document.querySelector('[data-row="%d"]:not([data-loading]) [data-field=id]')?.textContent === '%d'`, want, want))
		// The row is inside the visible part of the container.
		var inView bool
		b.eval(fmt.Sprintf(`(() => { const v = document.querySelector('[data-role=rows]').getBoundingClientRect();
			const r = document.querySelector('[data-row="%d"]').getBoundingClientRect();
			return r.top >= v.top - 1 && r.bottom <= v.bottom + 1 })()`, want), &inView)
		if !inView {
			t.Errorf("row %d is in the DOM but not in view", want)
		}
	}
}

// pageHooks is run in every new document before the page's scripts (see
// newBrowserWith). It keeps every Content Security Policy violation in
// window.__cspViolations, the WebAssembly instance app.js creates (a local
// variable there) in window.__wasm, and the Go object of wasm_exec.js in
// window.__go (its exited field says whether the Go program has ended).
const pageHooks = `(() => {
	window.__cspViolations = [];
	document.addEventListener('securitypolicyviolation', (e) => {
		window.__cspViolations.push({directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample,
			source: e.sourceFile + ':' + e.lineNumber + ':' + e.columnNumber, disposition: e.disposition});
	}, true);
	const keep = (p) => p.then((r) => {
		const inst = r && (r.instance || r);
		if (inst && inst.exports && inst.exports.mem) window.__wasm = inst;
		return r;
	});
	const is = WebAssembly.instantiateStreaming;
	if (is) WebAssembly.instantiateStreaming = function () { return keep(is.apply(this, arguments)); };
	const i = WebAssembly.instantiate;
	WebAssembly.instantiate = function () { return keep(i.apply(this, arguments)); };
	let Go;
	Object.defineProperty(globalThis, 'Go', {configurable: true, get() { return Go; }, set(c) {
		Go = class extends c { constructor(...args) { super(...args); window.__go = this; } };
	}});
})()`

// cspViolation is one securitypolicyviolation event the page saw.
type cspViolation struct {
	Directive, Blocked, Sample, Source, Disposition string
}

func (b *browser) cspViolations() []cspViolation {
	b.t.Helper()
	var v []cspViolation
	b.eval(`window.__cspViolations`, &v)
	return v
}

// wasmMemory is the size of the Go program's WebAssembly memory in bytes
// (it never shrinks: the peak so far), or -1 before the wasm runs.
func (b *browser) wasmMemory() int64 {
	b.t.Helper()
	var n int64
	b.eval(`window.__wasm ? window.__wasm.exports.mem.buffer.byteLength : -1`, &n)
	return n
}

// TestContentSecurityPolicy: the page carries the policy of
// site.ContentSecurityPolicy, uses every feature the other tests use under
// it without a single violation, and the policy is live: an injected inline
// script, event handler attribute, <style> element and eval are refused.
func TestContentSecurityPolicy(t *testing.T) {
	skipWithoutSite(t)
	b := newBrowserWith(t, "", pageHooks)
	t.Cleanup(func() {
		// On failure, the violations so far (a step may have failed because
		// the policy refused something).
		var v []cspViolation
		if t.Failed() && chromedp.Run(b.ctx, chromedp.Evaluate(`window.__cspViolations`, &v)) == nil {
			for _, v := range v {
				t.Logf("CSP violation: %+v", v)
			}
		}
	})
	downloads, done := b.allowDownloads()
	u, _ := url.Parse(b.base)
	origin := u.Scheme + "://" + u.Host
	b.run(cdpbrowser.GrantPermissions([]cdpbrowser.PermissionType{cdpbrowser.PermissionTypeClipboardReadWrite, cdpbrowser.PermissionTypeClipboardSanitizedWrite}).WithOrigin(origin))
	waitDownload := func(name string) []byte {
		t.Helper()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("the download of %s did not complete", name)
		}
		data, err := os.ReadFile(filepath.Join(downloads, name))
		if err != nil {
			entries, _ := os.ReadDir(downloads)
			t.Fatalf("%v (downloads: %v)", err, entries)
		}
		return data
	}

	// The policy is in the page, as written.
	var meta []string
	b.eval(`[...document.querySelectorAll('meta[http-equiv="Content-Security-Policy" i]')].map(m => m.content)`, &meta)
	if len(meta) != 1 || meta[0] != site.ContentSecurityPolicy {
		t.Fatalf("CSP meta elements %q, want one with %q", meta, site.ContentSecurityPolicy)
	}
	// The static page, parsed as HTML (not run): nothing inline the policy
	// would refuse.
	var inline []string
	b.eval(`fetch(location.href).then(r => r.text()).then(text => {
		const doc = new DOMParser().parseFromString(text, 'text/html');
		const bad = [...doc.querySelectorAll('script:not([src]), style, [style]')].map(e => e.outerHTML);
		for (const e of doc.querySelectorAll('*'))
			for (const a of e.attributes) if (/^on/i.test(a.name)) bad.push(e.tagName + ' ' + a.name);
		return bad;
	})`, &inline)
	if len(inline) != 0 {
		t.Errorf("the static page has inline scripts, styles or handlers: %q", inline)
	}

	// A sample: the windowed table (its heights and offsets are style
	// attributes) scrolled to its end, with previews.
	b.openSample("js_big.arrow")
	b.waitOpened("js_big.arrow")
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = v.scrollHeight; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="63"] [data-field=image] canvas[data-preview=rgb]') !== null`)
	var rowTop struct{ Style, Computed string }
	b.eval(`(e => ({Style: e.style.top, Computed: getComputedStyle(e).top}))(document.querySelector('[data-row="63"]'))`, &rowTop)
	if rowTop.Style == "" || rowTop.Style != rowTop.Computed {
		t.Errorf("row 63's style attribute top %q, computed %q: style attributes are not applied", rowTop.Style, rowTop.Computed)
	}

	// A tensor file through the file input, and the inspector.
	path, _ := tensor4DFile(t)
	b.upload(path)
	b.waitOpened("tensor4d.arrow")
	b.run(chromedp.Click(`[data-row="1"] [data-tensor][data-field="t"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-field="t"][data-row="1"]') !== null`)
	b.setValue(`select[data-role=channel]`, "-1")
	b.waitFor(`document.querySelectorAll('input[type=range][data-dim]').length === 2`)
	b.setValue(`input[type=range][data-dim="1"]`, "2")
	b.setValue(`select[data-role=colormap]`, "magma")
	b.setValue(`select[data-role=axis-y]`, "3")
	b.waitFor(`(c => c && c.width === 4 && c.height === 5)(document.querySelector('canvas[data-role=slice]'))
		&& document.querySelector('select[data-role=colormap]').value === 'magma'`)
	var pt struct{ X, Y float64 }
	b.eval(`(() => { const c = document.querySelector('canvas[data-role=slice]'); const r = c.getBoundingClientRect();
		return {X: r.left + 1.5 * r.width / c.width, Y: r.top + 3.5 * r.height / c.height} })()`, &pt)
	b.run(chromedp.MouseEvent(input.MouseMoved, pt.X, pt.Y))
	b.waitFor(`document.querySelector('[data-role=readout]')?.dataset.value === '10213'`)
	// Wheel to zoom, drag to pan: the canvas's transform is a style attribute.
	b.run(chromedp.ActionFunc(func(ctx context.Context) error {
		return input.DispatchMouseEvent(input.MouseWheel, pt.X, pt.Y).WithDeltaX(0).WithDeltaY(-400).Do(ctx)
	}))
	b.waitFor(`document.querySelector('[data-role=zoom]')?.textContent !== 'zoom 1.0×'`)
	b.run(chromedp.MouseEvent(input.MousePressed, pt.X, pt.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, pt.X+20, pt.Y+10, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseReleased, pt.X+20, pt.Y+10, chromedp.ButtonLeft))
	b.waitFor(`(c => c.style.transform.startsWith('translate(') && !c.style.transform.startsWith('translate(0.0px,0.0px)')
		&& getComputedStyle(c).transform !== 'none')(document.querySelector('canvas[data-role=slice]'))`)
	b.waitFor(`document.querySelector('[data-role=column-stats][data-rows="2"]') !== null`)
	b.run(chromedp.Click(`[data-action=download-npy]`, chromedp.ByQuery))
	if npy := waitDownload("t-row1.npy"); !bytes.HasPrefix(npy, []byte("\x93NUMPY")) {
		t.Errorf("t-row1.npy starts %q", npy[:min(len(npy), 16)])
	}
	b.run(chromedp.Click(`[data-action=download-png]`, chromedp.ByQuery))
	if img, err := png.Decode(bytes.NewReader(waitDownload("t-row1.png"))); err != nil || img.Bounds().Dx() != 4 || img.Bounds().Dy() != 5 {
		t.Errorf("t-row1.png: %v, want a 4×5 picture (err %v)", img, err)
	}
	b.run(chromedp.Click(`[data-action=copy-values]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector] .note')?.textContent === 'copied'`)
	var copied string
	if err := chromedp.Run(b.ctx, chromedp.Evaluate(`navigator.clipboard.readText()`, &copied, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	})); err != nil {
		t.Logf("cannot read the clipboard back (%v): the copy is checked by its note only", err)
	} else if !strings.Contains(copied, "10213") {
		t.Errorf("copied %q, want the values of row 1 (with 10213)", copied)
	}
	b.run(chromedp.KeyEvent(kb.Escape))
	b.waitFor(`document.querySelector('[data-role=inspector]') === null`)

	// A dropped file, its column's shapes, the close button.
	b.drop("js_variable.arrow")
	b.waitOpened("js_variable.arrow")
	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="vt"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-field="vt"] [data-role=shapes]') !== null`)
	b.run(chromedp.Click(`[data-action=close]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector]') === null`)

	// Indexing a stream with its progress bar, cancelled (as TestLargeFiles).
	b.upload(batchesFile(t, "many.arrows", true, 8000, 1))
	b.waitFor(`document.querySelector('[data-role=progress][data-task=index] [data-action=cancel]') !== null`)
	b.run(chromedp.Click(`[data-role=progress][data-task=index] [data-action=cancel]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=progress]') === null && document.querySelector('[data-row="0"]:not([data-loading])') !== null`)

	var state string
	b.eval(`document.querySelector('.viewer').dataset.state`, &state)
	if state != "ready" {
		t.Errorf("data-state %q, want ready", state)
	}
	var wasm bool
	b.eval(`window.__wasm !== undefined && window.__go !== undefined && !window.__go.exited`, &wasm)
	if !wasm {
		t.Error("the hooks did not find the running Go program")
	}
	if v := b.cspViolations(); len(v) != 0 {
		for _, v := range v {
			t.Errorf("CSP violation: %+v", v)
		}
	}

	// The policy is live: what an injection would do is refused.
	var ran struct{ Script, Handler, Style, Eval bool }
	b.eval(`(() => {
		const s = document.createElement('script');
		s.textContent = 'window.__inlineRan = true';
		document.head.appendChild(s);
		const d = document.createElement('div');
		d.setAttribute('onclick', 'window.__handlerRan = true');
		document.body.appendChild(d);
		d.click();
		const st = document.createElement('style');
		st.textContent = 'body { outline: 7px solid rgb(1, 2, 3) }';
		document.head.appendChild(st);
		return {Script: window.__inlineRan === true, Handler: window.__handlerRan === true,
			Style: getComputedStyle(document.body).outlineWidth === '7px'};
	})()`, &ran)
	// DevTools lets the code it evaluates call eval unless told not to.
	b.run(chromedp.Evaluate(`(() => { try { return (0, eval)('1 + 1') === 2; } catch (e) { return false; } })()`, &ran.Eval,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
			return p.WithAllowUnsafeEvalBlockedByCSP(false)
		}))
	if ran.Script || ran.Handler || ran.Style || ran.Eval {
		t.Errorf("injected code ran: %+v", ran)
	}
	b.waitFor(`window.__cspViolations.length >= 4`)
	got := map[string]bool{}
	for _, v := range b.cspViolations() {
		got[v.Directive+" "+v.Blocked] = true
	}
	for _, want := range []string{"script-src-elem inline", "script-src-attr inline", "style-src-elem inline", "script-src eval"} {
		if !got[want] {
			t.Errorf("no violation %q among %v", want, got)
		}
	}
}

// ipcBatch is where the first record batch message of an IPC file is, in
// file offsets: its RecordBatch.length, the length of each FieldNode, its
// body, and each buffer's offset in the body and length.
type ipcBatch struct {
	length  int
	nodes   []int
	body    int
	buffers [][2]int64
}

// firstBatch finds the first record batch of an IPC file as arrow-go writes
// it: the 8-byte magic, then messages (0xFFFFFFFF, the metadata's length,
// the Message flatbuffer, the body), read with the flatbuffers runtime
// (format/Message.fbs: Message{version, header_type, header, bodyLength},
// RecordBatch{length, nodes, buffers, compression}).
func firstBatch(t *testing.T, data []byte) ipcBatch {
	t.Helper()
	for p := 8; p+8 <= len(data); {
		if binary.LittleEndian.Uint32(data[p:]) != 0xFFFFFFFF {
			t.Fatalf("no message at offset %d", p)
		}
		n, meta := int(binary.LittleEndian.Uint32(data[p+4:])), p+8
		if n == 0 || meta+n > len(data) {
			break
		}
		msg := flatbuffers.Table{Bytes: data[meta : meta+n]}
		msg.Pos = flatbuffers.GetUOffsetT(msg.Bytes)
		if msg.GetByteSlot(6, 0) == 3 { // MessageHeader.RecordBatch
			var rb flatbuffers.Table
			msg.Union(&rb, flatbuffers.UOffsetT(msg.Offset(8)))
			if rb.Offset(4) == 0 {
				t.Fatal("the record batch has no length")
			}
			b := ipcBatch{length: meta + int(rb.Pos) + int(rb.Offset(4)), body: meta + n}
			if o := flatbuffers.UOffsetT(rb.Offset(6)); o != 0 {
				for i, v := 0, int(rb.Vector(o)); i < rb.VectorLen(o); i++ {
					b.nodes = append(b.nodes, meta+v+16*i)
				}
			}
			if o := flatbuffers.UOffsetT(rb.Offset(8)); o != 0 {
				for i, v := 0, int(rb.Vector(o)); i < rb.VectorLen(o); i++ {
					at := msg.Bytes[v+16*i:]
					b.buffers = append(b.buffers, [2]int64{int64(binary.LittleEndian.Uint64(at)), int64(binary.LittleEndian.Uint64(at[8:]))})
				}
			}
			return b
		}
		p = meta + n + int(msg.GetInt64Slot(10, 0))
	}
	t.Fatal("no record batch in the file")
	return ipcBatch{}
}

// int64File writes an IPC file of one int64 column "x" holding 0..99, with
// arrow-go's writer options, and returns its bytes.
func int64File(t *testing.T, opts ...ipc.Option) []byte {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	for i := range 100 {
		ib.Append(int64(i))
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{ib.NewArray()}, 100)
	data, err := os.ReadFile(writeIPCFileWith(t, "x.arrow", schema, opts, rec))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// declaredSizeFile writes int64File compressed (lz4 or zstd) with the
// values buffer's 8-byte uncompressed-length prefix set to declared.
func declaredSizeFile(t *testing.T, zstd bool, declared int64) []byte {
	t.Helper()
	opt := ipc.WithLZ4()
	if zstd {
		opt = ipc.WithZstd()
	}
	data := int64File(t, opt)
	b := firstBatch(t, data)
	at := -1
	for _, buf := range b.buffers {
		if buf[1] > 0 {
			at = b.body + int(buf[0]) // the last with data: the values
		}
	}
	if at < 0 || binary.LittleEndian.Uint64(data[at:]) != 800 {
		t.Fatalf("the values buffer's prefix is not 800 (100 int64s): buffers %v", b.buffers)
	}
	binary.LittleEndian.PutUint64(data[at:], uint64(declared))
	return data
}

// hugeRowsFile writes int64File with its record batch claiming 2^40 rows;
// with nodes, its field node too.
func hugeRowsFile(t *testing.T, nodes bool) []byte {
	t.Helper()
	data := int64File(t)
	b := firstBatch(t, data)
	at := []int{b.length}
	if nodes {
		at = append(at, b.nodes...)
	}
	for _, p := range at {
		if binary.LittleEndian.Uint64(data[p:]) != 100 {
			t.Fatalf("no length 100 at %d", p)
		}
		binary.LittleEndian.PutUint64(data[p:], 1<<40)
	}
	return data
}

// fuzzCorpus reads the []byte inputs of a Go fuzz corpus directory (files
// "go test fuzz v1" then one []byte("...") line), by file name.
func fuzzCorpus(t *testing.T, dir string) (names []string, inputs [][]byte) {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(raw), "\n", 3)
		if len(lines) < 2 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "[]byte(") {
			continue // another argument type: not a file
		}
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(lines[1]), "[]byte("), ")"))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		names, inputs = append(names, filepath.Base(path)), append(inputs, []byte(s))
	}
	return names, inputs
}

// opened is how the page ended up after a file was opened.
type opened struct {
	State  string // "error" (an alert) or "ready" (the file's view)
	Text   string // the alert, or the first cell, column or file error shown
	Errors int    // errors shown in the view
	Rows   string
	Dead   bool // the Go program has exited
}

// settle waits until the page shows the outcome of opening name: the alert
// of an error, or name's view with no row loading and no work under way.
// It fails nothing: a page that never settles returns an error.
func (b *browser) settle(name string, timeout time.Duration) (opened, error) {
	var o opened
	js := fmt.Sprintf(`((name) => {
		if (!window.__go || window.__go.exited) return {Dead: true};
		const st = document.querySelector('.viewer')?.dataset.state;
		if (st === 'error') {
			const a = document.querySelector('.messages .alert[role=alert]');
			return a ? {State: st, Text: a.textContent} : null;
		}
		if (st !== 'ready' || document.querySelector('[data-role=file-info] h2')?.textContent !== name
			|| document.querySelector('[data-row][data-loading], [data-role=progress]')) return null;
		const errs = [...document.querySelectorAll('[data-cell-error], tr[data-error], [data-role=file-warnings] .warning')]
			.map(e => e.dataset.cellError || e.dataset.error || e.textContent);
		return {State: st, Text: errs[0] || '', Errors: errs.length, Rows: document.querySelector('[data-role=num-rows]')?.textContent || ''};
	})(%q)`, name)
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	var last *opened
	for {
		var res *opened
		if err := chromedp.Run(ctx, chromedp.Evaluate(js, &res)); err != nil {
			return o, err
		}
		switch {
		case res != nil && res.Dead:
			return *res, nil
		case res != nil && last != nil && *res == *last:
			return *res, nil // the same for 100 ms: rows drawn a frame later are in
		}
		wait := 20 * time.Millisecond
		if last = res; res != nil {
			wait = 100 * time.Millisecond
		}
		select {
		case <-ctx.Done():
			return o, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// TestHostileFilesKeepPageAlive opens, in one page with a 64 MiB cache
// budget, files made to break a reader: compressed buffers declaring 64 GiB,
// 3.9 GiB, 1 GiB or a negative size, truncated files, record batches
// claiming 2^40 rows, and the fuzz corpora of tensorext and app/decode.
// After each the page shows an alert or the file's view, the Go program
// runs (a good file opens next), and the wasm memory stays within its bound;
// then js_images.arrow shows its rows and previews exactly. A file that
// kills the page is named with what the console said (Go's fatal error) and
// the rest go on in a new page. (Checked against a build from before the
// budget allocator: the 1 GiB file grew the wasm memory to 1037 MiB, the
// 3.9 GiB one then ended the program with "fatal error: out of memory".)
func TestHostileFilesKeepPageAlive(t *testing.T) {
	skipWithoutSite(t)
	want := loadExpected(t)
	dir := t.TempDir()
	type file struct{ name, path string }
	var files []file
	add := func(name string, data []byte) {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, file{name, path})
	}
	add("a-lz4-declares-64GiB.arrow", declaredSizeFile(t, false, 64<<30))
	add("a-lz4-declares-1GiB.arrow", declaredSizeFile(t, false, 1<<30))
	add("a-lz4-declares-3.9GiB.arrow", declaredSizeFile(t, false, 4<<30-100<<20))
	add("b-zstd-declares-minus5.arrow", declaredSizeFile(t, true, -5))
	add("b-zstd-declares-64GiB.arrow", declaredSizeFile(t, true, 64<<30))
	images, err := os.ReadFile("testdata/js_images.arrow")
	if err != nil {
		t.Fatal(err)
	}
	add("c-truncated-half.arrow", images[:len(images)/2])
	add("c-truncated-footer.arrow", images[:len(images)-5])
	add("d-batch-claims-2^40-rows.arrow", hugeRowsFile(t, false))
	add("d-batch-and-node-claim-2^40-rows.arrow", hugeRowsFile(t, true))
	names, inputs := fuzzCorpus(t, "tensorext/testdata/fuzz/FuzzRecordBatch")
	if len(names) < 3 {
		t.Fatalf("only %d inputs in tensorext's FuzzRecordBatch corpus", len(names))
	}
	for i, name := range names {
		add("e-FuzzRecordBatch-"+name+".arrow", inputs[i])
	}
	names, inputs = fuzzCorpus(t, "app/decode/testdata/fuzz/FuzzOpen")
	if len(names) == 0 {
		t.Log("no app/decode/testdata/fuzz/FuzzOpen corpus")
	}
	for i, name := range names {
		add("f-FuzzOpen-"+name+".arrow", inputs[i])
	}
	permuted, err := os.ReadFile("testdata/js_permuted.arrow")
	if err != nil {
		t.Fatal(err)
	}

	// The bound of the wasm memory (which never shrinks: its size is the
	// peak). The app sets Go's soft memory limit to twice the cache budget
	// plus 128 MiB (app/memory.go: a full cache beside a record batch read
	// whole), and every allocation a file's declared sizes ask for is
	// refused past the budget before it is made; the memory also holds what
	// the page had before any file (the program's data, go-app's heap).
	const budget = 64 << 20
	const goLimit = 2*budget + 128<<20
	var b *browser
	var initial, limit int64
	start := func() {
		b = newBrowserWith(t, "?cache=64", pageHooks)
		initial = b.wasmMemory()
		limit = initial + goLimit
		t.Logf("wasm memory on the empty page: %s; bound: that + %s (Go's memory limit at a %s budget) = %s = budget + %s",
			mib(initial), mib(goLimit), mib(budget), mib(limit), mib(limit-budget))
	}
	start()
	type outcome struct {
		name          string
		size          int
		res           opened
		before, after int64
		note          string
	}
	var table []outcome
	shot := map[string]bool{}
	for i, f := range files {
		st, _ := os.Stat(f.path)
		o := outcome{name: f.name, size: int(st.Size()), before: b.wasmMemory()}
		lines := b.console.count()
		b.upload(f.path)
		res, err := b.settle(f.name, 30*time.Second)
		o.res, o.after = res, -1
		_ = chromedp.Run(b.ctx, chromedp.Evaluate(`window.__wasm ? window.__wasm.exports.mem.buffer.byteLength : -1`, &o.after))
		dead := err != nil || res.Dead
		if !dead && (res.State == "error" && !shot["error"] || res.State == "ready" && res.Errors > 0 && !shot["ready"]) {
			b.screenshot("hostile-" + res.State + "-" + f.name)
			shot[res.State] = true
		}
		if !dead {
			// The Go program still works: the next file opens.
			alive := fmt.Sprintf("alive-after-%02d.arrow", i)
			path := filepath.Join(dir, alive)
			if err := os.WriteFile(path, permuted, 0o644); err != nil {
				t.Fatal(err)
			}
			b.upload(path)
			// Not settle: until the page takes the upload, it may still show
			// the previous file's alert.
			var r opened
			err := chromedp.Run(b.ctx, chromedp.Poll(fmt.Sprintf(`document.querySelector('[data-state=ready] [data-role=file-info] h2')?.textContent === %q
				&& document.querySelector('[data-row]:not([data-loading])') !== null`, alive), nil,
				chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second)))
			if err == nil {
				r, err = b.settle(alive, 30*time.Second)
			}
			if err != nil || r.State != "ready" || r.Errors != 0 {
				dead = true
				o.note = fmt.Sprintf("the next file did not open: %+v %v; ", r, err)
			} else if cells := b.tensorCells("t"); len(cells) != 2 || cells[0].LogicalShape != "3,2,2" {
				t.Errorf("after %s, the next file shows %+v", f.name, cells)
			}
		}
		if dead {
			// Go's fatal error and panic lines, then the last lines.
			all := b.console.since(lines)
			var said []string
			for _, l := range all {
				if strings.Contains(l, "fatal error") || strings.Contains(l, "panic") || strings.Contains(l, "out of memory") {
					said = append(said, l)
				}
			}
			said = append(said, all[max(0, len(all)-6):]...)
			t.Errorf("%s (%d bytes) killed the page: settle %v, %+v %s\nthe console said:\n\t%s",
				f.name, o.size, err, res, o.note, strings.Join(said, "\n\t"))
			b.screenshot("hostile-killed-" + f.name)
			o.note = "KILLED THE PAGE " + o.note
			table = append(table, o)
			start() // carry on in a new page with the next files
			continue
		}
		if o.after > limit {
			t.Errorf("%s: wasm memory %s, over the bound %s", f.name, mib(o.after), mib(limit))
		}
		table = append(table, o)
	}

	b.upload("testdata/js_images.arrow")
	b.waitOpened("js_images.arrow")
	b.checkJSImages(want)
	b.screenshot("hostile-then-good")
	final := b.wasmMemory()
	if final > limit {
		t.Errorf("wasm memory %s at the end, over the bound %s", mib(final), mib(limit))
	}

	var sb strings.Builder
	fmt.Fprintf(&sb, "%-44s %6s %-6s %9s %9s  %s\n", "file", "bytes", "state", "mem before", "after", "shown")
	for _, o := range table {
		text := strings.Join(strings.Fields(o.res.Text), " ")
		if r := []rune(text); len(r) > 150 {
			text = string(r[:150]) + "…"
		}
		if o.res.State == "ready" {
			text = fmt.Sprintf("rows %s, %d errors: %s", o.res.Rows, o.res.Errors, text)
		}
		fmt.Fprintf(&sb, "%-44s %6d %-6s %9s %9s  %s%s\n", o.name, o.size, o.res.State, mib(o.before), mib(o.after), o.note, text)
	}
	fmt.Fprintf(&sb, "js_images.arrow at the end: wasm memory %s (bound %s)", mib(final), mib(limit))
	t.Logf("hostile files, one page, ?cache=64:\n%s", sb.String())
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// TestTensorMessageFile opens testdata/js_tensor_message.arrow, an Arrow IPC
// Tensor message (what pyarrow.ipc.write_tensor writes) built by
// testdata/gen_tensor_message.mjs: a column-major uint8 image (H, W, C) =
// (4, 6, 3) whose element (h, w, c) is (40h + 20w + 90c + 7) mod 256. The
// page shows one row of one tensor column, its physical and logical shapes,
// an RGB preview with exactly those pixels, and the inspector on it.
func TestTensorMessageFile(t *testing.T) {
	skipWithoutSite(t)
	value := func(h, w, c int) int { return (40*h + 20*w + 90*c + 7) % 256 }
	b := newBrowser(t)
	b.upload("testdata/js_tensor_message.arrow")
	b.waitOpened("js_tensor_message.arrow")
	var format, rows string
	b.eval(`document.querySelector('[data-role=format]').textContent`, &format)
	b.eval(`document.querySelector('[data-role=num-rows]').textContent`, &rows)
	if format != "Arrow IPC Tensor message" || rows != "1" {
		t.Errorf("format %q, rows %q; want Arrow IPC Tensor message, 1", format, rows)
	}
	cells := b.tensorCells("tensor")
	want := []tensorCell{{Row: "0", Field: "tensor", Shape: "3,6,4", LogicalShape: "4,6,3", DimNames: "C,W,H", LogicalDimNames: "H,W,C", Preview: "rgb"}}
	if !reflect.DeepEqual(cells, want) {
		t.Errorf("cells\n got %+v\nwant %+v", cells, want)
	}
	w, h, pix := b.canvas(0, "tensor")
	var wantPix []int
	for y := range 4 {
		for x := range 6 {
			wantPix = append(wantPix, value(y, x, 0), value(y, x, 1), value(y, x, 2), 255)
		}
	}
	if w != 6 || h != 4 || !reflect.DeepEqual(pix, wantPix) {
		t.Errorf("preview %d×%d %v, want 6×4 %v", w, h, pix, wantPix)
	}
	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="tensor"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-field="tensor"][data-row="0"] [data-role=stats]') !== null`)
	var stats struct{ Min, Max string }
	b.eval(`(e => ({Min: e.dataset.min, Max: e.dataset.max}))(document.querySelector('[data-role=stats]'))`, &stats)
	lo, hi := 255, 0
	for y := range 4 {
		for x := range 6 {
			for c := range 3 {
				lo, hi = min(lo, value(y, x, c)), max(hi, value(y, x, c))
			}
		}
	}
	if stats.Min != strconv.Itoa(lo) || stats.Max != strconv.Itoa(hi) {
		t.Errorf("inspector stats %+v, want min %d max %d", stats, lo, hi)
	}
	b.screenshot("tensor-message")
}

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
	src, err := os.ReadFile("testdata/node_modules/axe-core/axe.min.js")
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

// TestThemesAndAccessibility opens the empty page, a file and the inspector
// with the system in light and in dark mode: the colours follow
// prefers-color-scheme, axe-core finds no serious or critical violation in
// either theme, and the theme button overrides the system and is
// remembered across a reload.
func TestThemesAndAccessibility(t *testing.T) {
	skipWithoutSite(t)
	b := newBrowser(t)
	background := func() string {
		var bg string
		b.eval(`getComputedStyle(document.documentElement).backgroundColor`, &bg)
		return bg
	}
	check := func(where string) {
		t.Helper()
		for _, v := range b.axe() {
			t.Errorf("%s: axe %s (%s): %s at %v", where, v.ID, v.Impact, v.Help, v.Nodes)
		}
	}
	for _, scheme := range []struct{ name, bg string }{{"light", "rgb(255, 255, 255)"}, {"dark", "rgb(18, 20, 23)"}} {
		b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme.name}}))
		b.run(chromedp.Navigate(b.base))
		b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
		if got := background(); got != scheme.bg {
			t.Errorf("%s: page background %s, want %s", scheme.name, got, scheme.bg)
		}
		check(scheme.name + " empty page")
		b.upload("testdata/js_images.arrow")
		b.waitOpened("js_images.arrow")
		check(scheme.name + " js_images.arrow")
		b.screenshot("theme-" + scheme.name + "-file")
		b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="rgb"]`, chromedp.ByQuery))
		b.waitFor(`document.querySelector('[data-role=inspector] canvas[data-role=slice]') !== null`)
		check(scheme.name + " inspector")
		b.screenshot("theme-" + scheme.name + "-inspector")
	}
	// The system is dark; the button chooses light, then dark, then the
	// system's again; a reload keeps the choice.
	b.run(chromedp.Navigate(b.base))
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-action=theme]') !== null`)
	b.run(chromedp.Click(`[data-action=theme]`, chromedp.ByQuery))
	b.waitFor(`document.documentElement.dataset.theme === 'light'`)
	if got := background(); got != "rgb(255, 255, 255)" {
		t.Errorf("light chosen on a dark system: background %s", got)
	}
	b.run(chromedp.Reload())
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-action=theme]') !== null && document.documentElement.dataset.theme === 'light'`)
	var label string
	b.eval(`document.querySelector('[data-action=theme]').textContent`, &label)
	if label != "Theme: light" {
		t.Errorf("after a reload the button says %q, want Theme: light", label)
	}
	b.run(chromedp.Click(`[data-action=theme]`, chromedp.ByQuery))
	b.waitFor(`document.documentElement.dataset.theme === 'dark'`)
	b.run(chromedp.Click(`[data-action=theme]`, chromedp.ByQuery))
	b.waitFor(`document.documentElement.dataset.theme === undefined`)
	if got := background(); got != "rgb(18, 20, 23)" {
		t.Errorf("back to the system's (dark): background %s", got)
	}
}

// TestAppShell opens the main sample at 1280×800, 360×640 and 2560×1440: the
// page fills the window and never scrolls, the first row's preview is in
// view without scrolling, the rows scroll inside their own box; the schema
// panel opens and closes with its button, and stays open across a reload.
func TestAppShell(t *testing.T) {
	skipWithoutSite(t)
	b := newBrowser(t)
	for _, size := range [][2]int64{{1280, 800}, {360, 640}, {2560, 1440}} {
		b.run(emulation.SetDeviceMetricsOverride(size[0], size[1], 1, size[0] < 600))
		b.run(chromedp.Navigate(b.base))
		b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
		b.openSample("js_big.arrow")
		b.waitOpened("js_big.arrow")
		var page struct {
			ScrollW, ScrollH, W, H  int
			PreviewBottom, RowsView float64
		}
		b.eval(`(() => { const d = document.scrollingElement, c = document.querySelector('[data-row="0"] canvas[data-preview]');
			return {ScrollW: d.scrollWidth, ScrollH: d.scrollHeight, W: innerWidth, H: innerHeight,
				PreviewBottom: c ? c.getBoundingClientRect().bottom : 1e9,
				RowsView: document.querySelector('[data-role=rows]').getBoundingClientRect().height} })()`, &page)
		if page.ScrollW > page.W || page.ScrollH > page.H {
			t.Errorf("%v: the page scrolls: %d×%d in a %d×%d window", size, page.ScrollW, page.ScrollH, page.W, page.H)
		}
		if page.PreviewBottom > float64(page.H) {
			t.Errorf("%v: the first row's preview ends at %.0f px, below the %d px window", size, page.PreviewBottom, page.H)
		}
		if page.RowsView < 120 {
			t.Errorf("%v: the rows get %.0f px", size, page.RowsView)
		}
		if size[0] < 600 {
			// The grid scrolls sideways inside its box; the row numbers stay.
			var pos struct{ Index, View, ScrollLeft float64 }
			b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollLeft = 300;
				return {Index: document.querySelector('[data-row="0"] .row-index').getBoundingClientRect().left,
					View: v.getBoundingClientRect().left, ScrollLeft: v.scrollLeft} })()`, &pos)
			if pos.ScrollLeft < 300 || pos.Index < pos.View || pos.Index > pos.View+2 {
				t.Errorf("%v: scrolled %v px sideways, row number at %v px, the grid at %v px", size, pos.ScrollLeft, pos.Index, pos.View)
			}
		}
		b.screenshot(fmt.Sprintf("shell-%dx%d", size[0], size[1]))
	}
	b.run(emulation.SetDeviceMetricsOverride(1280, 800, 1, false))
	panelShown := func() bool {
		var shown bool
		b.eval(`getComputedStyle(document.querySelector('[data-role=schema-panel]')).display !== 'none'`, &shown)
		return shown
	}
	if panelShown() {
		t.Error("the schema panel is open before it was asked for")
	}
	b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-action=toggle-schema]').getAttribute('aria-expanded') === 'true'`)
	if !panelShown() {
		t.Error("the schema panel did not open")
	}
	b.screenshot("shell-schema")
	b.run(chromedp.Reload()) // the address holds the sample's URL: it opens again
	b.waitOpened("js_big.arrow")
	if !panelShown() {
		t.Error("the schema panel's state was not remembered across a reload")
	}
	b.run(chromedp.Click(`[data-action=close-schema]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-action=toggle-schema]').getAttribute('aria-expanded') === 'false'`)
	if panelShown() {
		t.Error("the schema panel did not close")
	}
}

// TestKeyboard walks the rows grid of the main sample with the keyboard:
// arrows move the focused cell, Enter opens the inspector on it and Escape
// gives the focus back to it, Ctrl+End goes to the last row (scrolled into
// view), "/" goes to the "go to row" box, which moves the focus to the row
// typed.
func TestKeyboard(t *testing.T) {
	skipWithoutSite(t)
	b := newBrowser(t)
	b.openSample("js_big.arrow")
	b.waitOpened("js_big.arrow")
	focused := func() string {
		var at string
		b.eval(`(e => e && e.closest('[data-row]') ? e.closest('[data-row]').dataset.row + ',' + (e.dataset.col ?? e.dataset.role) : (e?.dataset.role || e?.tagName))(document.activeElement)`, &at)
		return at
	}
	key := func(k string, mods ...input.Modifier) {
		b.run(chromedp.KeyEvent(k, chromedp.KeyModifiers(mods...)))
	}
	b.run(chromedp.Click(`[data-row="0"] [data-col="0"]`, chromedp.ByQuery))
	b.waitFor(`document.activeElement?.dataset.col === '0'`)
	for range 3 {
		key(kb.ArrowDown)
	}
	key(kb.ArrowRight)
	key(kb.ArrowRight)
	b.waitFor(`document.activeElement?.closest('[data-row]')?.dataset.row === '3' && document.activeElement?.dataset.col === '2'`)
	key(kb.Enter)
	b.waitFor(`document.querySelector('[data-role=inspector][data-row="3"][data-field=image]') !== null`)
	b.waitFor(`document.activeElement?.dataset.role === 'inspector'`) // the dialog has the keyboard
	key(kb.Escape)
	b.waitFor(`document.querySelector('[data-role=inspector]') === null`)
	b.waitFor(`document.activeElement?.closest('[data-row]')?.dataset.row === '3' && document.activeElement?.dataset.col === '2'`)
	key(kb.End, input.ModifierCtrl)
	b.waitFor(`document.activeElement?.closest('[data-row]')?.dataset.row === '63'`)
	var inView bool
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]').getBoundingClientRect(), c = document.activeElement.getBoundingClientRect();
		return c.top >= v.top && c.bottom <= v.bottom + 1 })()`, &inView)
	if !inView || focused() != "63,4" {
		t.Errorf("Ctrl+End: focus on %s, in view %v; want 63,4 in view", focused(), inView)
	}
	key("/")
	b.waitFor(`document.activeElement?.dataset.role === 'goto-row'`)
	b.run(chromedp.SendKeys(`[data-role=goto-row]`, "40"+kb.Enter, chromedp.ByQuery))
	b.waitFor(`document.activeElement?.closest('[data-row]')?.dataset.row === '40'`)
	if got := focused(); got != "40,4" {
		t.Errorf("go to row 40: focus on %s, want 40,4", got)
	}
}

// TestRowHeights: rows are as tall as what they show: one line of text in a
// file without tensors; in a file with previews, the preview size the
// control chooses (remembered across a reload).
func TestRowHeights(t *testing.T) {
	skipWithoutSite(t)
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "name", Type: arrow.BinaryTypes.String}}, nil)
	ib, sb := array.NewInt32Builder(memory.DefaultAllocator), array.NewStringBuilder(memory.DefaultAllocator)
	for i := range 100 {
		ib.Append(int32(i))
		sb.Append(fmt.Sprintf("row %d", i))
	}
	ids, names := ib.NewArray(), sb.NewArray()
	defer ids.Release()
	defer names.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{ids, names}, 100)
	defer rec.Release()
	path := writeIPCFile(t, "text.arrow", schema, rec)

	b := newBrowser(t)
	rowStep := func() (step float64, size string) {
		var got struct {
			Step float64
			Size string
		}
		b.eval(`(() => { const a = document.querySelector('[data-row="0"]'), c = document.querySelector('[data-row="1"]');
			return {Step: c.getBoundingClientRect().top - a.getBoundingClientRect().top, Size: document.querySelector('[data-role=rows]').dataset.size} })()`, &got)
		return got.Step, got.Size
	}
	b.upload(path)
	b.waitOpened("text.arrow")
	if step, size := rowStep(); step != 36 || size != "text" {
		t.Errorf("text-only rows: %v px apart, data-size %q; want 36, text", step, size)
	}
	var controls int
	b.eval(`document.querySelectorAll('[data-role=preview-size]').length`, &controls)
	if controls != 0 {
		t.Error("a file without previews offers a preview size")
	}
	b.openSample("js_big.arrow")
	b.waitOpened("js_big.arrow")
	if step, size := rowStep(); step != 84 || size != "medium" {
		t.Errorf("js_big.arrow: rows %v px apart, data-size %q; want 84, medium", step, size)
	}
	for _, c := range []struct {
		size          string
		step, preview float64
	}{{"large", 164, 200}, {"small", 52, 56}} {
		b.setValue(`[data-role=preview-size]`, c.size)
		b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=rows]').dataset.size === %q`, c.size))
		var width float64
		b.eval(`document.querySelector('[data-row="0"] canvas[data-preview]').getBoundingClientRect().width`, &width)
		if step, _ := rowStep(); step != c.step || width != c.preview {
			t.Errorf("%s: rows %v px apart, previews %v px wide; want %v, %v", c.size, step, width, c.step, c.preview)
		}
	}
	b.run(chromedp.Reload()) // the address holds the sample's URL: it opens again
	b.waitOpened("js_big.arrow")
	if _, size := rowStep(); size != "small" {
		t.Errorf("after a reload the preview size is %q, want small", size)
	}
}

// TestManyColumns opens a file of 500 int32 columns (c0 … c499, value
// 1000·row + column): only the columns in view are drawn; scrolling to the
// right end shows the last ones with their values, and End moves the
// keyboard there.
func TestManyColumns(t *testing.T) {
	skipWithoutSite(t)
	const cols, rows = 500, 50
	fields := make([]arrow.Field, cols)
	arrs := make([]arrow.Array, cols)
	for c := range cols {
		fields[c] = arrow.Field{Name: fmt.Sprintf("c%d", c), Type: arrow.PrimitiveTypes.Int32}
		bld := array.NewInt32Builder(memory.DefaultAllocator)
		for r := range rows {
			bld.Append(int32(1000*r + c))
		}
		arrs[c] = bld.NewArray()
		defer arrs[c].Release()
	}
	schema := arrow.NewSchema(fields, nil)
	rec := array.NewRecordBatch(schema, arrs, rows)
	defer rec.Release()
	path := writeIPCFile(t, "wide.arrow", schema, rec)

	b := newBrowser(t)
	b.upload(path)
	b.waitOpened("wide.arrow")
	var drawn int
	b.eval(`document.querySelectorAll('[data-row="0"] [data-col]').length`, &drawn)
	if drawn == 0 || drawn > 20 {
		t.Errorf("%d of 500 columns drawn in row 0", drawn)
	}
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollLeft = v.scrollWidth; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="3"] [data-field=c499]')?.textContent === '3499'`)
	var head string
	b.eval(`document.querySelector('.rows-header [data-col="499"]')?.textContent ?? ''`, &head)
	if head != "c499" {
		t.Errorf("header of the last column %q, want c499", head)
	}
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollLeft = 0; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="0"] [data-col="0"]') !== null`)
	b.run(chromedp.Click(`[data-row="1"] [data-col="0"]`, chromedp.ByQuery))
	b.run(chromedp.KeyEvent(kb.End))
	b.waitFor(`document.activeElement?.dataset.col === '499' && document.activeElement?.textContent === '1499'`)
	b.screenshot("many-columns")
}

// TestColumnResize drags the edge of a column's header to widen it by 120
// px, and double-clicks another's to fit it to its content.
func TestColumnResize(t *testing.T) {
	skipWithoutSite(t)
	b := newBrowser(t)
	b.openSample("js_big.arrow")
	b.waitOpened("js_big.arrow")
	width := func(col int) float64 {
		var w float64
		b.eval(fmt.Sprintf(`document.querySelector('.rows-header [data-col="%d"]').getBoundingClientRect().width`, col), &w)
		return w
	}
	var handle struct{ X, Y float64 }
	b.eval(`(r => ({X: r.left + r.width / 2, Y: r.top + r.height / 2}))(document.querySelector('.rows-header [data-col="1"] .col-resize').getBoundingClientRect())`, &handle)
	before := width(1)
	b.run(chromedp.MouseEvent(input.MouseMoved, handle.X, handle.Y),
		chromedp.MouseEvent(input.MousePressed, handle.X, handle.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, handle.X+60, handle.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, handle.X+120, handle.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseReleased, handle.X+120, handle.Y, chromedp.ButtonLeft))
	b.waitFor(fmt.Sprintf(`document.querySelector('.rows-header [data-col="1"]').getBoundingClientRect().width > %v`, before+100))
	if after := width(1); math.Abs(after-before-120) > 2 {
		t.Errorf("dragged 120 px: the column went from %v to %v px", before, after)
	}
	// Cells follow their header.
	var cell float64
	b.eval(`document.querySelector('[data-row="0"] [data-col="1"]').getBoundingClientRect().width`, &cell)
	if math.Abs(cell-width(1)) > 1 {
		t.Errorf("cell %v px wide under a %v px header", cell, width(1))
	}
	b.run(chromedp.DoubleClick(`.rows-header [data-col="0"] .col-resize`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('.rows-header [data-col="0"]').getBoundingClientRect().width < 120`)
	if w := width(0); w < 48 {
		t.Errorf("fitted id column %v px wide", w)
	}
}

// touch sends one touch event with the given fingers (viewport CSS pixels;
// none for a touchEnd).
func (b *browser) touch(typ input.TouchType, fingers ...[2]float64) {
	b.t.Helper()
	pts := make([]*input.TouchPoint, len(fingers))
	for i, f := range fingers {
		pts[i] = &input.TouchPoint{X: f[0], Y: f[1], ID: float64(i + 1), RadiusX: 1, RadiusY: 1, Force: 1}
	}
	b.run(chromedp.ActionFunc(func(ctx context.Context) error {
		return input.DispatchTouchEvent(typ, pts).Do(ctx)
	}))
}

// readoutAt taps the inspector's picture at viewport position p, waits for
// the readout to show the element at index want ("n,c,h,w") and returns its
// value.
func (b *browser) readoutAt(p [2]float64, want string) (value string) {
	b.t.Helper()
	b.touch(input.TouchStart, p)
	b.touch(input.TouchEnd)
	b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=readout]')?.dataset.index === %q`, want))
	b.eval(`document.querySelector('[data-role=readout]').dataset.value`, &value)
	return value
}

// TestTouch uses the viewer as a phone does, at 360×640 with touch input: a
// tap on a tensor cell opens the inspector, which fits the screen (the page
// never scrolls sideways); a tap on the picture reads out the element under
// the finger (its value checked against the file's), one finger drags, two
// fingers pinch (zoom 2 for fingers twice as far apart) and drag at once,
// keeping the element under the fingers under them. axe-core finds no
// serious or critical violation at this size, with the schema sheet open
// or the inspector.
func TestTouch(t *testing.T) {
	skipWithoutSite(t)
	b := newBrowser(t)
	b.run(emulation.SetDeviceMetricsOverride(360, 640, 2, true),
		emulation.SetTouchEmulationEnabled(true).WithMaxTouchPoints(5))
	b.run(chromedp.Navigate(b.base))
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
	path, row1 := tensor4DFile(t)
	b.upload(path)
	b.waitOpened("tensor4d.arrow")
	for _, v := range b.axe() {
		t.Errorf("360 px, file: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
	}
	b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-action=toggle-schema]').getAttribute('aria-expanded') === 'true'`)
	for _, v := range b.axe() {
		t.Errorf("360 px, schema sheet: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
	}
	b.screenshot("touch-schema")
	b.run(chromedp.Click(`[data-action=close-schema]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-action=toggle-schema]').getAttribute('aria-expanded') === 'false'`)

	// A tap on row 1's cell opens the inspector.
	var cell [2]float64
	b.eval(`(r => [r.left + r.width / 2, r.top + r.height / 2])(document.querySelector('[data-row="1"] [data-tensor][data-field="t"]').getBoundingClientRect())`, &cell)
	b.touch(input.TouchStart, cell)
	b.touch(input.TouchEnd)
	b.waitFor(`document.querySelector('[data-role=inspector][data-field="t"][data-row="1"] canvas[data-role=slice]') !== null`)
	b.setValue(`select[data-role=channel]`, "-1") // one value per pixel
	b.waitFor(`document.querySelectorAll('input[type=range][data-dim]').length === 2`)
	for _, v := range b.axe() {
		t.Errorf("360 px, inspector: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
	}
	var fit struct {
		ScrollW, W           int
		Left, Right, VW, VH  float64
		CanvasW, CanvasH     int
		ViewportL, ViewportT float64
	}
	b.eval(`(() => { const v = document.querySelector('[data-role=inspector] .viewport').getBoundingClientRect(), c = document.querySelector('canvas[data-role=slice]'), r = c.getBoundingClientRect();
		return {ScrollW: document.scrollingElement.scrollWidth, W: innerWidth, Left: v.left, Right: v.right, VW: r.width, VH: r.height,
			CanvasW: c.width, CanvasH: c.height, ViewportL: r.left, ViewportT: r.top} })()`, &fit)
	if fit.ScrollW > fit.W || fit.Left < 0 || fit.Right > float64(fit.W) {
		t.Errorf("the inspector does not fit 360 px: page %d px wide in %d, picture from %.0f to %.0f px", fit.ScrollW, fit.W, fit.Left, fit.Right)
	}
	if fit.CanvasW != 5 || fit.CanvasH != 4 {
		t.Fatalf("the picture is %d×%d, want W×H = 5×4", fit.CanvasW, fit.CanvasH)
	}
	b.screenshot("touch-inspector")
	// Element (x, y) of the picture is drawn from (x, y)·k (k CSS pixels per
	// element at zoom 1).
	k := fit.VW / 5
	at := func(x, y float64) [2]float64 { return [2]float64{fit.ViewportL + x*k, fit.ViewportT + y*k} }
	value := func(index string) string {
		var n, c, h, w int
		if _, err := fmt.Sscanf(index, "%d,%d,%d,%d", &n, &c, &h, &w); err != nil {
			t.Fatalf("readout index %q: %v", index, err)
		}
		return strconv.FormatFloat(float64(row1[((n*3+c)*4+h)*5+w]), 'g', -1, 32)
	}
	// Each check taps another element than the one before (the readout
	// waits for the index tapped).
	check := func(what string, p [2]float64, wantH, wantW int) {
		t.Helper()
		index := fmt.Sprintf("0,0,%d,%d", wantH, wantW)
		if got, want := b.readoutAt(p, index), value(index); got != want {
			t.Errorf("%s: the readout says %s at [%s], the file has %s", what, got, index, want)
		}
	}
	check("tap", at(3.5, 2.5), 2, 3)

	// One finger drags the picture one element right and down.
	b.touch(input.TouchStart, at(1.5, 1.5))
	b.touch(input.TouchMove, at(2, 2))
	b.touch(input.TouchMove, at(2.5, 2.5))
	b.touch(input.TouchEnd)
	b.waitFor(`document.querySelector('[data-action=reset-zoom]') !== null`)
	check("after a drag", at(3.5, 2.5), 1, 2)
	b.run(chromedp.Click(`[data-action=reset-zoom]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-action=reset-zoom]') === null`)

	// Two fingers spread from 1 to 2 elements apart about the centre of
	// element (2, 1) and move it to (2.5, 2.5): zoom 2, the element under
	// the fingers stays under them.
	b.touch(input.TouchStart, at(2, 1.5), at(3, 1.5))
	b.touch(input.TouchMove, at(1.75, 2), at(3.25, 2))
	b.touch(input.TouchMove, at(1.5, 2.5), at(3.5, 2.5))
	b.touch(input.TouchEnd)
	b.waitFor(`document.querySelector('[data-role=zoom]')?.textContent === 'zoom 2.0\u00d7'`)
	// At zoom 2 each element is 2k wide: one element right of the fingers'
	// midpoint is the middle of element 3.
	check("after a pinch, one element right", at(4.5, 2.5), 1, 3)
	check("after a pinch", at(2.5, 2.5), 1, 2)
	b.screenshot("touch-pinch")
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
