//go:build !wasm

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/tensorview/tensorview/app/site"
)

// parquetFacts are the file facts the top bar shows for a Parquet file.
type parquetFacts struct {
	Name, Format, RowGroups, Rows, Batches, CreatedBy, Compression string
}

func (b *browser) parquetFacts() parquetFacts {
	b.t.Helper()
	var f parquetFacts
	b.eval(`(() => { const q = s => document.querySelector('[data-role=file-info] ' + s)?.textContent ?? '';
		return {Name: q('h2'), Format: q('[data-role=format]'), RowGroups: q('[data-role=row-groups]'), Rows: q('[data-role=num-rows]'),
			Batches: q('[data-role=batches]'), CreatedBy: q('[data-role=created-by]'), Compression: q('[data-role=compression]')}; })()`, &f)
	return f
}

// nongoColumn is one column of a file in testdata/nongo_expected.json: what
// the generator (testdata/gen_nongo.mjs) wrote, row by row (nil: null).
type nongoColumn struct {
	Extension string `json:"extension"`
	Metadata  string `json:"metadata"`
	Rows      []*struct {
		Shape  []int `json:"shape"`
		Values []any `json:"values"`
	} `json:"rows"`
}

func loadNongo(t *testing.T, file string) map[string]nongoColumn {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "nongo_expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all struct {
		Files map[string]struct {
			Columns map[string]nongoColumn `json:"columns"`
		} `json:"files"`
	}
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	cols := all.Files[file].Columns
	if len(cols) == 0 {
		t.Fatalf("nongo_expected.json has no columns for %s", file)
	}
	return cols
}

// logical is a row-major tensor's values in its logical order, the spec's
// numpy.transpose(physical, perm): logical dimension i is physical
// dimension perm[i].
func logical(shape, perm []int, values []any) (lshape []int, lvalues []any) {
	if len(perm) == 0 {
		return shape, values
	}
	strides := make([]int, len(shape))
	for i, n := len(shape)-1, 1; i >= 0; i-- {
		strides[i], n = n, n*shape[i]
	}
	lshape = make([]int, len(perm))
	for i, p := range perm {
		lshape[i] = shape[p]
	}
	idx := make([]int, len(perm))
	for range values {
		off := 0
		for i, p := range perm {
			off += idx[i] * strides[p]
		}
		lvalues = append(lvalues, values[off])
		for d := len(idx) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < lshape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return lshape, lvalues
}

// checkTensorCells compares every tensor cell of the rows in view with
// the generator's values: the physical shape, null rows, and the values
// listed in logical order (nestedText; bits: 32 for float32 columns,
// whose names say f32).
func (b *browser) checkTensorCells(cols map[string]nongoColumn) {
	t := b.t
	t.Helper()
	for name, col := range cols {
		bits := 64
		if strings.Contains(name, "f32") {
			bits = 32
		}
		var meta struct {
			Permutation []int `json:"permutation"`
		}
		_ = json.Unmarshal([]byte(col.Metadata), &meta) // absent or invalid: no permutation
		for r, want := range col.Rows {
			var got struct {
				Tensor, Null bool
				Shape, Err   string
				Summary      []string
			}
			b.eval(fmt.Sprintf(`(() => { const c = document.querySelector('[data-row="%d"] [data-field=%q]');
				return c ? {Tensor: c.hasAttribute('data-tensor'), Null: c.hasAttribute('data-null'), Shape: c.dataset.shape || '',
					Err: c.dataset.cellError || '', Summary: [...c.querySelectorAll('.summary > div')].map(d => d.textContent)} : {}; })()`, r, name), &got)
			if want == nil {
				if !got.Null || !got.Tensor {
					t.Errorf("%s row %d: %+v, want a null tensor", name, r, got)
				}
				continue
			}
			if !got.Tensor || got.Shape != joinInts(want.Shape) || len(got.Summary) == 0 {
				t.Errorf("%s row %d: %+v, want a tensor of shape %v", name, r, got, want.Shape)
				continue
			}
			lshape, lvalues := logical(want.Shape, meta.Permutation, want.Values)
			if text := nestedText(lshape, lvalues, bits); !slices.Contains(got.Summary, text) {
				t.Errorf("%s row %d lists %q, want %q", name, r, got.Summary, text)
			}
		}
	}
}

// TestParquet opens testdata/arrowrs_tensors.parquet (written by
// parquet-wasm, that is arrow-rs's writer, from npm) through the page: the
// Parquet reader (web/parquet-worker.js and its hyparquet engine) is not
// fetched while the page boots, only when the file is opened, and
// parquet-wasm not at all; the file facts are
// the footer's; every tensor cell holds the generator's values (the
// extension types restored from ARROW:schema); and once the reader was
// fetched, the service worker serves it when the server no longer does.
func TestParquet(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	// The reader's engine is held until the page has said it is loading it.
	log := &requestLog{hold: "parquet-engine.js", release: make(chan struct{})}
	released := sync.OnceFunc(func() { close(log.release) })
	t.Cleanup(released)
	b := newBrowserServing(t, "", "", log.wrap)
	// The service worker controls the page (it claims it once installed):
	// from then on the page's fetches go through it.
	b.waitFor(`navigator.serviceWorker.controller !== null`)
	if got := log.matching("parquet"); len(got) != 0 {
		t.Errorf("the page's boot and the service worker's install fetched the Parquet reader: %q", got)
	}
	if got := log.matching("app.wasm"); len(got) == 0 {
		t.Errorf("no request for app.wasm was seen: the request log misses requests")
	}

	const name = "arrowrs_tensors.parquet"
	want := parquetFacts{Name: name, Format: "Parquet", RowGroups: "1", Rows: "3", CreatedBy: "parquet-rs version 59.3.0", Compression: "UNCOMPRESSED"}
	cols := loadNongo(t, name)
	b.upload(filepath.Join("..", "testdata", name))
	b.waitFor(`document.querySelector('[data-state=loading] .loading')?.textContent === 'Loading the Parquet reader…'`)
	released()
	b.waitOpened(name)
	if got := b.parquetFacts(); got != want {
		t.Errorf("file facts %+v, want %+v", got, want)
	}
	b.checkTensorCells(cols)
	b.screenshot("parquet-arrowrs")
	reader := log.matching("/web/parquet")
	slices.Sort(reader)
	base := strings.TrimRight(os.Getenv("TENSORVIEW_BASE"), "/")
	// The worker and its engine: not parquet-wasm (which the engine reads
	// this file without), nor a decompressor (the file is uncompressed).
	var wantReader []string
	for _, p := range append([]string{"/web/parquet-worker.js"}, site.ParquetEngine...) {
		wantReader = append(wantReader, base+p)
	}
	if slices.Sort(wantReader); !slices.Equal(reader, wantReader) {
		t.Errorf("opening a Parquet file fetched %q, want the reader's files once each: %q", reader, wantReader)
	}

	t.Run("by URL", func(t *testing.T) {
		// The worker asks the page for byte ranges, which it reads with
		// HTTP Range requests (the test server honours Range).
		before := len(log.matching("/testdata/" + name))
		b.run(chromedp.Navigate(b.base + "?url=" + url.QueryEscape(b.data+name)))
		b.waitOpened(name)
		if got := b.parquetFacts(); got != want {
			t.Errorf("file facts %+v, want %+v", got, want)
		}
		b.checkTensorCells(cols)
		if n := len(log.matching("/testdata/"+name)) - before; n == 0 {
			t.Errorf("no request for the file")
		}
	})

	t.Run("not a Parquet file", func(t *testing.T) {
		// "PAR1" then zeros: sniffed as Parquet, refused by the reader at
		// open (no footer).
		path := filepath.Join(t.TempDir(), "broken.parquet")
		if err := os.WriteFile(path, append([]byte("PAR1"), make([]byte, 60)...), 0o644); err != nil {
			t.Fatal(err)
		}
		b.run(chromedp.Navigate(b.base))
		b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
		b.upload(path)
		b.waitFor(`document.querySelector('[data-state=error] [role=alert]') !== null`)
		var text string
		b.eval(`document.querySelector('[role=alert]').textContent`, &text)
		if !strings.HasPrefix(text, "Cannot open broken.parquet. not a Parquet file that can be read: ") {
			t.Errorf("the error says %q", text)
		}
		b.screenshot("parquet-broken")
	})

	t.Run("offline after first use", func(t *testing.T) {
		log.mu.Lock()
		log.refuse = "/web/parquet"
		log.mu.Unlock()
		b.run(chromedp.Navigate(b.base))
		b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
		b.upload(filepath.Join("..", "testdata", name))
		b.waitOpened(name)
		if got := b.parquetFacts(); got != want {
			t.Errorf("file facts %+v, want %+v", got, want)
		}
		b.checkTensorCells(cols)
		log.mu.Lock()
		defer log.mu.Unlock()
		if len(log.refused) != 0 {
			t.Errorf("the reader was asked of the server again: %q", log.refused)
		}
	})
}

// TestParquetTrap opens a Parquet file of 3 row groups whose second row
// group's column chunk of v is overwritten with 0xff bytes: the worker's
// hyparquet engine fails on it and hands the read to parquet-wasm, which
// traps reading it (RuntimeError: unreachable, seen with parquet-wasm
// 0.8.0 in Node.js), which leaves its wasm instance unusable. The rows of
// that row group show the error; the rows of the other row groups show
// their values, read by the worker that replaced the trapped one.
func TestParquetTrap(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	data, chunks := parquetRowGroupsFile(t, 4)
	for i := chunks[1][0]; i < chunks[1][1]; i++ {
		data[i] = 0xff
	}
	path := filepath.Join(t.TempDir(), "trap.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.upload(path)
	b.waitFor(`document.querySelector('[data-state=ready] [data-role=file-info] h2')?.textContent === 'trap.parquet'
		&& document.querySelectorAll('[data-row]').length === 12 && document.querySelector('[data-row][data-loading]') === null`)
	if got := b.parquetFacts(); got.RowGroups != "3" || got.Rows != "12" {
		t.Errorf("file facts %+v, want 3 row groups of 12 rows", got)
	}
	type cell struct{ Text, Err string }
	var rows [][2]cell
	b.eval(`[...Array(12).keys()].map(r => ['id', 'v'].map(f => {
		const c = document.querySelector('[data-row="' + r + '"] [data-field=' + f + ']');
		return {Text: c?.textContent ?? '(no cell)', Err: c?.dataset.cellError ?? ''}; }))`, &rows)
	for r, got := range rows {
		if r/4 == 1 {
			for _, c := range got {
				if !strings.Contains(c.Err, "row group 1") || !strings.Contains(c.Err, "parquet-wasm crashed (unreachable") {
					t.Errorf("row %d: %+v, want row group 1's error (the trap)", r, got)
				}
			}
			continue
		}
		want := [2]cell{{Text: fmt.Sprint(r)}, {Text: fmt.Sprint(float64(r*10) + 0.5)}}
		if got != want {
			t.Errorf("row %d: %+v, want %+v", r, got, want)
		}
	}
	b.screenshot("parquet-trap")
}

// TestParquetBudget: with a cache budget of 4 KiB, a row group whose
// column chunks hold 16 KB is refused before the Parquet reader reads it,
// and says why.
func TestParquetBudget(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	data, _ := parquetRowGroupsFile(t, 1000)
	path := filepath.Join(t.TempDir(), "budget.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowserWith(t, "?cache="+fmt.Sprint(4096.0/(1<<20)), "")
	b.upload(path)
	b.waitFor(`document.querySelector('[data-state=ready] [data-row="0"] [data-field=v][data-cell-error]') !== null`)
	var text string
	b.eval(`document.querySelector('[data-row="0"] [data-field=v]').dataset.cellError`, &text)
	if !strings.Contains(text, "row group 0: its column chunks to read hold 15.8 KiB (compressed)") || !strings.Contains(text, "more than the cache budget (4.0 KiB)") {
		t.Errorf("row 0 says %q", text)
	}
	b.screenshot("parquet-budget")
}

// TestParquetWindows reads row groups by windows of rows (a cache budget of
// 64 KiB makes decode ask for a few rows at a time, each a read of the
// worker, whose column chunks it keeps from one window to the next), from
// a dropped file and by URL, and checks the rows shown at the start, the
// middle and the end of the file.
func TestParquetWindows(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	data, _ := parquetRowGroupsFile(t, 1000)
	dir := t.TempDir()
	path := filepath.Join(dir, "windows.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	query := "?cache=" + fmt.Sprint(64.0*1024/(1<<20))
	var mu sync.Mutex
	var asked []string // the file's requests: method and Range header
	b := newBrowserServing(t, query, "", func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/windows/windows.parquet" {
				mu.Lock()
				asked = append(asked, r.Method+" "+r.Header.Get("Range"))
				mu.Unlock()
				http.ServeContent(w, r, "windows.parquet", time.Time{}, bytes.NewReader(data)) // honours Range
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	check := func(t *testing.T, rows ...int) {
		t.Helper()
		for _, r := range rows {
			b.run(chromedp.SetValue(`[data-role=goto-row]`, fmt.Sprint(r), chromedp.ByQuery),
				chromedp.SendKeys(`[data-role=goto-row]`, kb.Enter, chromedp.ByQuery))
			sel := fmt.Sprintf(`[data-row="%d"]`, r)
			b.waitFor(`document.querySelector('` + sel + ` [data-field=v]') !== null && document.querySelector('` + sel + `[data-loading]') === null`)
			var got [2]string
			b.eval(`[...['id', 'v']].map(f => { const c = document.querySelector('`+sel+` [data-field=' + f + ']'); return c.dataset.cellError || c.textContent; })`, &got)
			if want := [2]string{fmt.Sprint(r), fmt.Sprint(float64(r*10) + 0.5)}; got != want {
				t.Errorf("row %d shows %q, want %q", r, got, want)
			}
		}
	}
	t.Run("file", func(t *testing.T) {
		b.upload(path)
		b.waitOpened("windows.parquet")
		check(t, 0, 5, 999, 1000, 1500, 2999, 1)
	})
	t.Run("URL", func(t *testing.T) {
		b.run(chromedp.Navigate(b.base + query + "&url=" + url.QueryEscape(strings.TrimSuffix(b.data, "testdata/")+"windows/windows.parquet")))
		b.waitOpened("windows.parquet")
		check(t, 0, 5, 999, 1000, 1500, 2999, 1)
		// Every request a GET of one range bytes=a-b: no suffix range, no
		// other header (no CORS preflight). (The worker's own reads are
		// checked by app/browser's TestParquetEngineRequests.)
		mu.Lock()
		defer mu.Unlock()
		single := regexp.MustCompile(`^GET bytes=\d+-\d+$`)
		if len(asked) == 0 {
			t.Errorf("no request for the file")
		}
		for _, a := range asked {
			if !single.MatchString(a) {
				t.Errorf("a request %q, want GET with one range bytes=a-b", a)
			}
		}
	})
}

// pqExpected is a file of testdata/parquet_expected.json (written by
// testdata/gen_parquet.mjs from the values it wrote).
type pqExpected struct {
	Source      string `json:"source"` // a broken copy of this file
	CreatedBy   string `json:"created_by"`
	NumRows     int    `json:"num_rows"`
	RowGroups   []int  `json:"row_groups"`
	BadRowGroup *int   `json:"bad_row_group"`
	BadRows     [2]int `json:"bad_rows"` // [first, end)
	LZOColumn   string `json:"lzo_column"`
	Error       string `json:"error"`
	Columns     map[string]struct {
		Plain []any             `json:"plain"`
		Rows  []json.RawMessage `json:"rows"`
	} `json:"columns"`
}

// pqTensorRow is one tensor cell of parquet_expected.json.
type pqTensorRow struct {
	Error        string `json:"error"`
	Shape        []int  `json:"shape"`
	Permutation  []int  `json:"permutation"`
	LogicalShape []int  `json:"logical_shape"`
	Values       []any  `json:"values"`
	Format       string `json:"format"` // an encoded image's
	Path         string `json:"path"`   // a Hugging Face image without bytes
}

// pqCell is what the page shows of one cell.
type pqCell struct {
	Found, Tensor, Null bool
	Shape, Err, Text    string
	Summary             []string
	ImageFormat         string
}

func (b *browser) pqRow(r int) map[string]pqCell {
	b.t.Helper()
	b.run(chromedp.SetValue(`[data-role=goto-row]`, fmt.Sprint(r), chromedp.ByQuery),
		chromedp.SendKeys(`[data-role=goto-row]`, kb.Enter, chromedp.ByQuery))
	sel := fmt.Sprintf(`[data-row="%d"]`, r)
	b.waitFor(`document.querySelector('` + sel + ` [data-field]') !== null && document.querySelector('` + sel + `[data-loading]') === null`)
	var cells map[string]pqCell
	b.eval(`Object.fromEntries([...document.querySelectorAll('`+sel+` [data-field]')].map(c => [c.dataset.field, {
		Found: true, Tensor: c.hasAttribute('data-tensor'), Null: c.hasAttribute('data-null'), Shape: c.dataset.shape || '',
		Err: c.dataset.cellError || '', Text: c.querySelector('.text')?.textContent ?? '',
		Summary: [...c.querySelectorAll('.summary > div')].map(d => d.textContent),
		ImageFormat: c.querySelector('canvas[data-image-format]')?.dataset.imageFormat || ''}]))`, &cells)
	return cells
}

// TestParquetFixtures opens each Parquet file testdata/gen_parquet.mjs
// wrote with non-Go writers (parquet-wasm, hyparquet-writer) and checks
// what the page shows against parquet_expected.json: the file facts, and
// every cell of every row: plain values as text, tensors' shapes and (small
// ones) values in logical order, Hugging Face images as PNG thumbnails of
// their shape, null rows, the ragged row's error; the corrupt row group's
// rows show the reader's crash while the others read (by a fresh worker);
// the LZO column shows its error while the others read; the encrypted file
// is refused with a message that says so.
// parquetExpected is testdata/parquet_expected.json: what the Parquet
// fixtures hold, by file name (the interop files' apart).
type parquetExpected struct {
	Files   map[string]pqExpected `json:"files"`
	Interop struct {
		Files map[string]pqExpected `json:"files"`
	} `json:"interop"`
}

// loadParquetExpected reads testdata/parquet_expected.json.
func loadParquetExpected(t *testing.T) parquetExpected {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "parquet_expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all parquetExpected
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	return all
}

func TestParquetFixtures(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	all := loadParquetExpected(t)
	b := newBrowser(t)
	for _, name := range []string{"parquet_tensors.parquet", "parquet_nested_lists.parquet", "parquet_hf_images.parquet",
		"parquet_corrupt_rowgroup.parquet", "parquet_lzo.parquet", "parquet_encrypted.parquet",
		// Files of ../shared/interop: R's (parquet-cpp 1.5.1) and arrow-rs's.
		"arrow/r__tests__testthat__golden-files__data-arrow-extra-meta_3.0.0.parquet",
		"generated-nonGo-writers/arrowrs_fixed_shape_tensor.parquet",
		"generated-nonGo-writers/arrowrs_tensors_mixed.parquet"} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			want, path := all.Files[name], filepath.Join("..", "testdata", name)
			if strings.Contains(name, "/") {
				want, path = all.Interop.Files[name], filepath.Join("..", "..", "shared", "interop", name)
				if want.NumRows == 0 {
					t.Fatalf("parquet_expected.json has no interop entry for %s", name)
				}
				name = filepath.Base(name)
			}
			b.t = t
			if want.Error != "" {
				b.run(chromedp.Navigate(b.base))
				b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
				b.upload(path)
				b.waitFor(`document.querySelector('[data-state=error] [role=alert]') !== null`)
				var text string
				b.eval(`document.querySelector('[role=alert]').textContent`, &text)
				if !strings.Contains(text, "encrypted") {
					t.Errorf("the error says %q, want that the file is encrypted", text)
				}
				return
			}
			cols := want.Columns
			if want.Source != "" {
				cols = all.Files[want.Source].Columns
			}
			b.upload(path)
			b.waitFor(fmt.Sprintf(`document.querySelector('[data-state=ready] [data-role=file-info] h2')?.textContent === %q`, name))
			f := b.parquetFacts()
			if f.Format != "Parquet" || f.RowGroups != fmt.Sprint(len(want.RowGroups)) || f.Rows != fmt.Sprint(want.NumRows) || f.CreatedBy != want.CreatedBy {
				t.Errorf("file facts %+v, want %d row groups, %d rows, created by %q", f, len(want.RowGroups), want.NumRows, want.CreatedBy)
			}
			for r := range want.NumRows {
				got := b.pqRow(r)
				bad := want.BadRowGroup != nil && r >= want.BadRows[0] && r < want.BadRows[1]
				for field, col := range cols {
					c := got[field]
					switch {
					case !c.Found:
						t.Errorf("row %d: no cell for %s", r, field)
					case bad:
						if !strings.Contains(c.Err, fmt.Sprintf("row group %d", *want.BadRowGroup)) || !strings.Contains(c.Err, "parquet-wasm") {
							t.Errorf("row %d %s: %+v, want row group %d's error", r, field, c, *want.BadRowGroup)
						}
					case field == want.LZOColumn:
						if !strings.Contains(c.Err, "LZO") {
							t.Errorf("row %d %s: %+v, want the LZO column's error", r, field, c)
						}
					case col.Plain != nil:
						v := col.Plain[r]
						if v == nil {
							if !c.Null {
								t.Errorf("row %d %s: %+v, want null", r, field, c)
							}
						} else if !plainMatches(c.Text, v) || c.Err != "" {
							t.Errorf("row %d %s: %+v, want %v", r, field, c, v)
						}
					default:
						checkPQTensor(t, r, field, c, col.Rows[r])
					}
				}
			}
			b.screenshot(strings.TrimSuffix(name, ".parquet"))
			if name != "parquet_lzo.parquet" {
				return
			}
			// The Parquet facts, a column's error and the schema panel, in
			// both themes, wide and on a phone.
			for _, v := range b.axe() {
				t.Errorf("Parquet file: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
			}
			b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}),
				chromedp.EmulateViewport(360, 640))
			b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
			b.screenshot("parquet-dark-360-schema")
			for _, v := range b.axe() {
				t.Errorf("Parquet file's schema, dark, 360 px: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
			}
			b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery),
				emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}),
				chromedp.EmulateViewport(1280, 800))
		})
	}
}

func checkPQTensor(t *testing.T, r int, field string, c pqCell, raw json.RawMessage) {
	t.Helper()
	if string(raw) == "null" {
		if !c.Null {
			t.Errorf("row %d %s: %+v, want a null", r, field, c)
		}
		return
	}
	var w pqTensorRow
	if err := json.Unmarshal(raw, &w); err != nil {
		t.Fatal(err)
	}
	switch {
	case w.Error != "":
		if c.Err == "" {
			t.Errorf("row %d %s: %+v, want its error (%s)", r, field, c, w.Error)
		}
		return
	case w.Shape == nil: // an image without bytes (a path)
		if c.Tensor {
			t.Errorf("row %d %s: %+v, want no tensor (path %q only)", r, field, c, w.Path)
		}
		return
	}
	if !c.Tensor || c.Shape != joinInts(w.Shape) || c.Err != "" {
		t.Errorf("row %d %s: %+v, want a tensor of shape %v", r, field, c, w.Shape)
		return
	}
	if w.Format != "" {
		if c.ImageFormat != w.Format {
			t.Errorf("row %d %s: thumbnail of format %q, want %q", r, field, c.ImageFormat, w.Format)
		}
		return
	}
	n := 1
	for _, d := range w.Shape {
		n *= d
	}
	if n > 16 || n == 0 {
		return // not listed
	}
	bits := 64
	if strings.Contains(field, "f32") {
		bits = 32
	}
	lshape, lvalues := logical(w.Shape, w.Permutation, w.Values)
	if text := nestedText(lshape, lvalues, bits); !containsString(c.Summary, text) {
		t.Errorf("row %d %s lists %q, want %q", r, field, c.Summary, text)
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// plainMatches compares a plain cell's text with its expected value: a
// struct or list (arrow-go writes it as JSON) by its JSON value, anything
// else as fmt.Sprint writes it.
func plainMatches(text string, want any) bool {
	switch want.(type) {
	case map[string]any, []any:
		var got any
		return json.Unmarshal([]byte(text), &got) == nil && reflect.DeepEqual(got, want)
	}
	return text == fmt.Sprint(want)
}
