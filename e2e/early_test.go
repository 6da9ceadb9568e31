//go:build !wasm

package e2e

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// earlyFile writes a Parquet file of one row group of rows rows: "id"
// (int64), "label" (the string "row-<id>") and binaries columns "b<k>"
// of size bytes a row (byte j of row r of column k is (r+7k+j) % 251),
// uncompressed, pages of about two rows of a binary column, with or
// without a page index.
func earlyFile(t *testing.T, rows, binaries, size int, pageIndex bool) []byte {
	t.Helper()
	fields := []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "label", Type: arrow.BinaryTypes.String}}
	for k := range binaries {
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("b%d", k), Type: arrow.BinaryTypes.Binary})
	}
	schema := arrow.NewSchema(fields, nil)
	ids := array.NewInt64Builder(memory.DefaultAllocator)
	labels := array.NewStringBuilder(memory.DefaultAllocator)
	cols := []arrow.Array{nil, nil}
	for r := range rows {
		ids.Append(int64(r))
		labels.Append(fmt.Sprintf("row-%d", r))
	}
	cols[0], cols[1] = ids.NewArray(), labels.NewArray()
	for k := range binaries {
		bb := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
		v := make([]byte, size)
		for r := range rows {
			for j := range v {
				v[j] = byte((r + 7*k + j) % 251)
			}
			bb.Append(v)
		}
		cols = append(cols, bb.NewArray())
	}
	var buf bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Uncompressed), parquet.WithDictionaryDefault(false),
		parquet.WithDataPageSize(int64(size)*3/2), parquet.WithBatchSize(1), parquet.WithPageIndexEnabled(pageIndex), parquet.WithMaxRowGroupLength(int64(rows)))
	w, err := pqarrow.NewFileWriter(schema, &buf, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(array.NewRecordBatch(schema, cols, int64(rows))); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// byteRange parses "GET bytes=a-b".
func byteRange(t *testing.T, req string) [2]int64 {
	t.Helper()
	var r [2]int64
	if _, err := fmt.Sscanf(req, "GET bytes=%d-%d", &r[0], &r[1]); err != nil || strings.Contains(req, ",") {
		t.Fatalf("a request %q: want GET of one range", req)
	}
	return r
}

// TestEarlyPages: for a link to a Parquet file, the worker
// web/boot.js starts reads the footer and the pages of row group 0 that
// the first screen shows while the app starts (app.wasm is held here
// until it said it has: tensorviewBoot.earlyRead), and the app's open and
// first read take them: with and without a page index, no byte of the
// file is asked for twice (no two requests overlap), some pages were
// asked for early, past the probe, and the first rows show the writer's
// values. A wide file (20 columns of 256 KiB of rows 0-7 each: arrow-go
// writes row groups of 8 rows of them) reads no
// more than 2 MiB early (the worker's EARLY_BYTES), then shows its rows.
func TestEarlyPages(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	const size = 64 << 10
	files := map[string][]byte{
		"index.parquet":   earlyFile(t, 64, 1, size, true),
		"noindex.parquet": earlyFile(t, 64, 1, size, false),
		"wide.parquet":    earlyFile(t, 16, 20, 32<<10, true),
	}
	host := newPrefetchHost(t, files)

	// open opens the link to name with app.wasm held until the early
	// worker said it has read (at most 20 s), and returns the early
	// reading's answer and the requests made before app.wasm came.
	open := func(t *testing.T, name string) (*browser, map[string]any, []string) {
		ready := make(chan struct{})
		var once sync.Once
		release := func() { once.Do(func() { close(ready) }) }
		t.Cleanup(release)
		b := newBrowserBlank(t, "", func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if isWasm(r.URL.Path) {
					select {
					case <-ready:
					case <-time.After(20 * time.Second):
					case <-r.Context().Done():
						return
					}
				}
				h.ServeHTTP(w, r)
			})
		})
		b.run(chromedp.Navigate(b.base + "?url=" + url.QueryEscape(host.srv.URL+"/"+name)))
		b.waitFor(`window.tensorviewBoot.earlyRead() !== null`)
		var got map[string]any
		b.eval(`window.tensorviewBoot.earlyRead()`, &got)
		before := host.requests("/" + name)
		var started bool
		b.eval(`document.querySelector('.viewer[data-ready=true]') === null`, &started)
		if !started {
			t.Errorf("the app started before app.wasm was served")
		}
		release()
		return b, got, before
	}
	// check shows rows and checks their cells, and that no request of name
	// overlaps another: no byte read early (the probe, the end, the early
	// worker's: early) is asked for again, by the app or by the browser
	// (Chrome's HTTP cache, racing range requests of one URL, restarts
	// some: the range reads bypass it, cache "no-store").
	check := func(t *testing.T, b *browser, name string, rows []int) {
		t.Helper()
		b.waitOpened(name)
		for _, r := range rows {
			got := b.gotoRowCells(r, "id", "label")
			if want := [2]string{fmt.Sprint(r), fmt.Sprintf("row-%d", r)}; got != want {
				t.Errorf("row %d shows %q, want %q", r, got, want)
			}
		}
		asked := host.requests("/" + name)
		for i, a := range asked {
			ra := byteRange(t, a)
			for _, c := range asked[i+1:] {
				if rc := byteRange(t, c); ra[0] <= rc[1] && rc[0] <= ra[1] {
					t.Errorf("%q and %q overlap: bytes asked for twice (%v)", a, c, asked)
				}
			}
		}
	}

	for _, name := range []string{"index.parquet", "noindex.parquet"} {
		t.Run(name, func(t *testing.T) {
			b, early, before := open(t, name)
			if early["error"] != "" || early["probe"] != "" {
				t.Errorf("the early reading failed: %v", early)
			}
			// Rows 0-7 of the binary column: 512 KiB, past the probe's 256
			// KiB but for the first rows, read early (over the probe and
			// the end: more requests than those two).
			if n, _ := early["bytes"].(float64); n < 256<<10 || n > 2<<20 || len(before) < 3 {
				t.Errorf("read %v bytes early in %v, want the pages of rows 0-7 past the probe", early["bytes"], before)
			}
			check(t, b, name, []int{0, 1, 7})
		})
	}
	t.Run("wide", func(t *testing.T) {
		b, early, before := open(t, "wide.parquet")
		var past int64
		size := int64(len(files["wide.parquet"]))
		for _, a := range before {
			r := byteRange(t, a)
			if r[0] >= 262144 && r[1] < size-65536 { // neither the probe nor the end
				past += r[1] - r[0] + 1
			}
		}
		if n, _ := early["bytes"].(float64); past > 2<<20 || int64(n) < past || n > 2<<20 {
			t.Errorf("read %v bytes early (%d past the probe and the end, in %v), want at most 2 MiB", early["bytes"], past, before)
		}
		check(t, b, "wide.parquet", []int{0, 7})
	})
}

// gotoRowCells goes to row r (the goto-row field), waits for it to be
// shown with its cells loaded, and returns the text of its cells of fields
// a and b (or their data-cell-error).
func (b *browser) gotoRowCells(r int, a, c string) [2]string {
	b.run(chromedp.SetValue(`[data-role=goto-row]`, fmt.Sprint(r), chromedp.ByQuery),
		chromedp.SendKeys(`[data-role=goto-row]`, kb.Enter, chromedp.ByQuery))
	sel := fmt.Sprintf(`[data-row="%d"]`, r)
	b.waitFor(`document.querySelector('` + sel + ` [data-field=` + c + `]') !== null && document.querySelector('` + sel + `[data-loading]') === null`)
	var got [2]string
	b.eval(`['`+a+`', '`+c+`'].map(f => { const c = document.querySelector('`+sel+` [data-field=' + f + ']'); return c.dataset.cellError || c.textContent; })`, &got)
	return got
}
