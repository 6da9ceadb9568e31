package main

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tensorview/tensorview/internal/httpmeter"
)

// The query benchmark (BENCH_LAYOUTS=query): the first sorted and
// first filtered screens, tensorview against DuckDB-wasm. See the package
// comment.

// Viewers and queries of the query benchmark.
const (
	viewerTV     = "tensorview"
	viewerDuckDB = "duckdb"
	opSort       = "sort"
	opFilter     = "filter"
)

// qResult is one run of one query by one viewer on one file.
type qResult struct {
	Viewer string `json:"viewer"`
	Format string `json:"format"` // arrow or parquet
	Source string `json:"source"` // file or url
	Op     string `json:"op"`     // sort or filter
	// FirstMs is the time to the first screen of the result shown (a
	// sort's whole first screen; a filter's first matches), DoneMs to the
	// query done (a filter's count known) with its screen shown; for
	// DuckDB both are its query's answer. From the navigation's start, or
	// for a dropped file from the file input's change.
	FirstMs float64 `json:"first_ms"`
	DoneMs  float64 `json:"done_ms"`
	// OpenedMs is when tensorview showed the file's row count (the file
	// open, the query started), EngineMs when DuckDB's engine was
	// instantiated (downloaded, compiled, started).
	OpenedMs float64 `json:"opened_ms,omitempty"`
	EngineMs float64 `json:"engine_ms,omitempty"`
	Status   string  `json:"status,omitempty"` // timeout, crashed, or the error
	Check    string  `json:"check,omitempty"`  // how the answer differs from the generator's
	Matches  int64   `json:"matches"`          // a filter's matches (tensorview), else -1
	// Bytes and Requests are what the server sent of the file until done
	// (by URL); for a dropped file, Bytes are what the page read from it
	// with Blob.arrayBuffer (-1 when unknown: tensorview reads Parquet in a
	// worker). FirstBytes is the same until the first screen (-1 unknown).
	Bytes      int64 `json:"bytes"`
	FirstBytes int64 `json:"first_bytes"`
	Requests   int64 `json:"requests,omitempty"`
	// EngineBytes is what DuckDB's page fetched of its engine (its scripts
	// and wasm).
	EngineBytes  int64   `json:"engine_bytes,omitempty"`
	LongTasks    int     `json:"long_tasks"`
	LongMaxMs    float64 `json:"long_max_ms"`
	WasmBytes    float64 `json:"wasm_bytes"` // tensorview's wasm memory, -1 unknown
	JSHeapBytes  float64 `json:"js_heap_bytes"`
	BackingBytes float64 `json:"array_buffer_bytes"`
	RendererPeak float64 `json:"renderer_peak_bytes"`
	PageError    string  `json:"page_error,omitempty"`
}

func (r *qResult) ok() bool { return r.Status == "" && r.Check == "" }

// qRun is a viewer's way to a file: the rows of the query table.
type qRun struct {
	viewer, source string
	file           queryFile
}

// queryFiles writes (or reuses) the query layout's two files.
func queryFiles(c config) ([]queryFile, error) {
	var out []queryFile
	for _, format := range []string{"arrow", "parquet"} {
		start := time.Now()
		f, err := ensureQuery(queryPlan(c.dir, c.queryRows, format), logf)
		if err != nil {
			return nil, err
		}
		if d := time.Since(start); d > time.Second {
			logf("  %.1f MB in %v", float64(f.Bytes)/1e6, d.Round(time.Second))
		}
		out = append(out, f)
	}
	return out, nil
}

// qRow is the runs of one query by one way: a row of the table.
type qRow struct {
	op   string
	way  qRun
	runs []*qResult
}

// runQueries measures every query of c.queries by every viewer's way,
// c.repeat times, the ways taking turns (in the opposite order every other
// round): tensorview by URL on the Parquet file, DuckDB on it, then
// tensorview on the Arrow file by URL and on both dropped.
func runQueries(c config, origin string, files []queryFile, served, engine *httpmeter.Meter) []*qRow {
	var ways []qRun
	for _, s := range []string{sourceURL, sourceFile} {
		for i := len(files) - 1; i >= 0; i-- { // Parquet first
			f := files[i]
			if has(c.sources, s) && has(c.viewers, viewerTV) {
				ways = append(ways, qRun{viewerTV, s, f})
			}
			if s == sourceURL && f.Format == "parquet" && has(c.viewers, viewerDuckDB) {
				ways = append(ways, qRun{viewerDuckDB, sourceURL, f})
			}
		}
	}
	var rows []*qRow
	for _, op := range c.queries {
		for _, w := range ways {
			rows = append(rows, &qRow{op: op, way: w})
		}
	}
	for k := 0; k < c.repeat; k++ {
		for o, op := range c.queries {
			for i := range ways {
				j := i
				if k%2 == 1 {
					j = len(ways) - 1 - i
				}
				row := rows[o*len(ways)+j]
				w := row.way
				logf("%s %s: %s by %s (run %d of %d)", w.viewer, op, filepath.Base(w.file.Path), w.source, k+1, c.repeat)
				var r *qResult
				if w.viewer == viewerDuckDB {
					r = measureDuckDB(c, origin, w.file, op, served, engine)
				} else {
					r = measureTVQuery(c, origin, w.file, w.source, op, served)
				}
				logf("  %+v", *r)
				row.runs = append(row.runs, r)
			}
		}
	}
	return rows
}

// startQuery starts a fresh browser for a run of op by viewer; the tab is
// nil when it did not start (r says why).
func startQuery(viewer string, f queryFile, source, op string) (*qResult, *tab) {
	r := &qResult{Viewer: viewer, Format: f.Format, Source: source, Op: op, Matches: -1, Bytes: -1, FirstBytes: -1,
		WasmBytes: -1, JSHeapBytes: -1, BackingBytes: -1, RendererPeak: -1}
	t, err := newTab(time.Minute)
	if err != nil {
		r.Status = err.Error()
		return r, nil
	}
	return r, t
}

// finishQuery reads the page's memory into r (its heap unless it
// crashed, the renderer's peak) and its last error.
func (t *tab) finishQuery(r *qResult) {
	if r.Status != "crashed" {
		if used, backing, err := t.heap(20 * time.Second); err == nil {
			r.JSHeapBytes, r.BackingBytes = used, backing
		}
	}
	r.RendererPeak = t.rendererPeakRSS()
	r.PageError = t.lastError()
}

// tvQueryState is what page.js queryScreen reports.
type tvQueryState struct {
	FirstMs, DoneMs, Opened, LongMaxMs float64
	LongTasks                          int
	FirstBlobBytes, BlobBytes          int64
	Matches                            int64
	FirstRows, Rows                    []struct{ Pos, Row int64 }
	Timeout                            bool
	Error                              string
}

// measureTVQuery opens f in tensorview with the query op, by a link (by
// URL: ?url=…&sort=… from the navigation's start, the app's download and
// start included) or dropped (the link's query, ?sort=…, waits for the
// file chosen next), and waits for its first screen and for it done.
func measureTVQuery(c config, origin string, f queryFile, source, op string, served *httpmeter.Meter) *qResult {
	r, t := startQuery(viewerTV, f, source, op)
	if t == nil {
		return r
	}
	defer t.cancel()
	var err error
	var tr *tracer
	if c.traceDir != "" {
		tr, err = t.startTrace(profilerCategory)
	}
	q := url.Values{}
	if op == opSort {
		q.Set("sort", qSortKey)
	} else {
		q.Set("filter", qFilter)
	}
	if source == sourceURL {
		q.Set("url", queryFileURL(origin, f))
		served.Reset()
		err = t.run(time.Minute, chromedp.Navigate(origin+c.base+"?"+q.Encode()))
	} else {
		var ok struct{ Timeout bool }
		err = t.run(time.Minute, chromedp.Navigate(origin+c.base+"?"+q.Encode()))
		if err == nil {
			err = t.eval(time.Minute, `__bench.waitFor(() => document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]'), 55000)`, &ok)
		}
		if err == nil && ok.Timeout {
			err = fmt.Errorf("the page did not start (no drop zone)")
		}
		if err == nil {
			// Let the service worker finish caching the site first.
			err = t.eval(10*time.Second, `__bench.sleep(1000), window.__benchBlobBytes = 0, true`, nil)
		}
		if err == nil {
			err = t.run(time.Minute, chromedp.SetUploadFiles(`input[type=file]`, []string{f.Path}, chromedp.ByQuery))
		}
	}
	var st tvQueryState
	if err == nil {
		err = t.eval(c.timeout+10*time.Second, fmt.Sprintf(`__bench.queryScreen(%q, %d)`, op, ms(c.timeout)), &st)
	}
	r.OpenedMs = st.Opened
	if r.Status = phaseStatus(err, st.Timeout, st.Error); r.Status == "" {
		r.FirstMs, r.DoneMs, r.LongTasks, r.LongMaxMs, r.Matches = st.FirstMs, st.DoneMs, st.LongTasks, st.LongMaxMs, st.Matches
		if source == sourceURL {
			r.Bytes, r.Requests = served.Read()
		} else if f.Format == "arrow" {
			r.Bytes, r.FirstBytes = st.BlobBytes, st.FirstBlobBytes
		}
		r.Check = checkTV(f, op, st)
	}
	var mem struct{ WasmBytes float64 }
	if r.Status != "crashed" && t.eval(20*time.Second, `__bench.memory()`, &mem) == nil {
		r.WasmBytes = mem.WasmBytes
	}
	if tr != nil {
		out := filepath.Join(c.traceDir, fmt.Sprintf("%s.%s.%s.trace.json", filepath.Base(f.Path), source, op))
		t.saveTrace(tr, out)
	}
	t.finishQuery(r)
	return r
}

// checkTV compares tensorview's screens with the generator's answers: a
// sort's positions hold the rows with the highest scores in order; a
// filter's first screen only matching rows, its last the first matches in
// file order, and its count the generator's.
func checkTV(f queryFile, op string, st tvQueryState) string {
	if op == opSort {
		for _, p := range st.FirstRows {
			if p.Pos < int64(len(f.Top)) && p.Row != f.Top[p.Pos] {
				return fmt.Sprintf("position %d shows row %d, want %d", p.Pos, p.Row, f.Top[p.Pos])
			}
		}
		return ""
	}
	for _, p := range st.FirstRows {
		if !qMatch(int(p.Row)) {
			return fmt.Sprintf("first screen: position %d shows row %d, which does not match", p.Pos, p.Row)
		}
	}
	for _, p := range st.Rows {
		if p.Pos < int64(len(f.FirstMatches)) && p.Row != f.FirstMatches[p.Pos] {
			return fmt.Sprintf("position %d shows row %d, want %d", p.Pos, p.Row, f.FirstMatches[p.Pos])
		}
	}
	if st.Matches != f.Matches {
		return fmt.Sprintf("%d matches, want %d", st.Matches, f.Matches)
	}
	return ""
}

// duckdbSQL is the SQL DuckDB runs for op on the file at u.
func duckdbSQL(op, u string) string {
	if op == opSort {
		return fmt.Sprintf("SELECT id, score, label FROM '%s' ORDER BY score DESC LIMIT %d", u, qTopN)
	}
	return fmt.Sprintf("SELECT id, score, label FROM '%s' WHERE label = 'cat' AND score > 0.9 LIMIT %d", u, qTopN)
}

// measureDuckDB runs op's SQL in DuckDB-wasm on the Parquet file f by URL
// in a fresh page (duckdb.html), timed from the navigation's start: the
// engine's download, compilation and start in its worker included.
func measureDuckDB(c config, origin string, f queryFile, op string, served, engine *httpmeter.Meter) *qResult {
	r, t := startQuery(viewerDuckDB, f, sourceURL, op)
	if t == nil {
		return r
	}
	defer t.cancel()
	served.Reset()
	engine.Reset()
	q := url.Values{"sql": {duckdbSQL(op, queryFileURL(origin, f))}, "timeout": {fmt.Sprint(ms(c.timeout))}}
	var res struct {
		Ms, EngineMs float64
		IDs          []int64
		Bundle       string
		Error        string
		Timeout      bool
	}
	err := t.run(time.Minute, chromedp.Navigate(origin+"/bench/duckdb.html?"+q.Encode()))
	if err == nil {
		err = t.eval(c.timeout+10*time.Second, `window.__duckdb`, &res)
	}
	if r.Status = phaseStatus(err, res.Timeout, res.Error); r.Status == "" {
		r.FirstMs, r.DoneMs, r.EngineMs = res.Ms, res.Ms, res.EngineMs
		r.Bytes, r.Requests = served.Read()
		r.EngineBytes, _ = engine.Read()
		r.Check = checkDuckDB(f, op, res.IDs)
	}
	t.finishQuery(r)
	return r
}

// checkDuckDB compares DuckDB's ids with the generator's answers.
func checkDuckDB(f queryFile, op string, ids []int64) string {
	want := min(qTopN, int(f.Matches))
	if op == opSort {
		want = len(f.Top)
	}
	if len(ids) != want {
		return fmt.Sprintf("%d rows, want %d", len(ids), want)
	}
	for k, id := range ids {
		if op == opSort && id != f.Top[k] {
			return fmt.Sprintf("row %d is id %d, want %d", k, id, f.Top[k])
		}
		if op == opFilter && !qMatch(int(id)) {
			return fmt.Sprintf("row %d is id %d, which does not match", k, id)
		}
	}
	return ""
}

func queryFileURL(origin string, f queryFile) string {
	return origin + "/bench/files/" + filepath.Base(f.Path)
}

// duckdbRoutes serves DuckDB-wasm's browser build (counted by engine), the
// apache-arrow its main-thread module imports (the version it depends on,
// through an import map) and the page that runs a query.
//
// The version is 1.28.0 (DuckDB 0.9.2), the last whose wasm has the
// Parquet reader built in: from 1.29.0 on, reading Parquet loads the
// parquet extension from extensions.duckdb.org at run time, which no
// package registry ships and a closed network cannot reach (1.29.0 traps
// with "unreachable", 1.30.0 and 1.32.0 fail to load
// …/wasm_eh/parquet.duckdb_extension.wasm).
func duckdbRoutes(mux *http.ServeMux, engine *httpmeter.Meter) {
	// bench/browser/package.json pins it apart from testdata's packages,
	// so that make test does not install it; its apache-arrow is the
	// version DuckDB asks for (13.0.0), beside it.
	pkg := filepath.Join(benchModules, "@duckdb", "duckdb-wasm")
	arrow := filepath.Join(benchModules, "apache-arrow")
	mux.Handle("/bench/duckdb/dist/", engine.Wrap(http.StripPrefix("/bench/duckdb/dist/", http.FileServer(http.Dir(filepath.Join(pkg, "dist"))))))
	mux.Handle("/bench/duckdb/arrow/", engine.Wrap(http.StripPrefix("/bench/duckdb/arrow/", http.FileServer(http.Dir(arrow)))))
	// apache-arrow's UMD build sets a global; this module hands DuckDB's
	// module the names it imports.
	mux.HandleFunc("/bench/duckdb/arrow-shim.mjs", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		fmt.Fprint(w, "const A = globalThis.Arrow;\nexport const { Type, Table, RecordBatchReader, tableToIPC, tableFromIPC } = A;\nexport default A;\n")
	})
	mux.HandleFunc("/bench/duckdb.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, duckdbPage)
	})
}

// duckdbPage runs ?sql= in DuckDB-wasm as its documentation shows (the
// bundle selectBundle picks, AsyncDuckDB in a worker) and resolves
// window.__duckdb with the times (ms after the navigation's start) the
// engine was instantiated and the answer came, and the answer's ids.
var duckdbPage = strings.TrimSpace(`
<!doctype html><meta charset=utf-8><title>duckdb-wasm</title>
<script src="/bench/duckdb/arrow/Arrow.es2015.min.js"></script>
<script type=importmap>{"imports": {"apache-arrow": "/bench/duckdb/arrow-shim.mjs"}}</script>
<script type=module>
const params = new URLSearchParams(location.search);
const d = '/bench/duckdb/dist/';
const run = async () => {
  const r = {};
  try {
    const duckdb = await import(d + 'duckdb-browser.mjs');
    const bundle = await duckdb.selectBundle({
      mvp: { mainModule: d + 'duckdb-mvp.wasm', mainWorker: d + 'duckdb-browser-mvp.worker.js' },
      eh: { mainModule: d + 'duckdb-eh.wasm', mainWorker: d + 'duckdb-browser-eh.worker.js' },
    });
    r.bundle = bundle.mainModule;
    const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), new Worker(bundle.mainWorker));
    await db.instantiate(bundle.mainModule, bundle.pthreadWorker);
    r.engineMs = performance.now();
    const conn = await db.connect();
    const table = await conn.query(params.get('sql'));
    r.ms = performance.now();
    r.ids = Array.from(table.getChild('id').toArray(), Number);
    window.__duckdbKeep = [db, conn, table];
  } catch (e) {
    r.error = String(e && e.message || e);
  }
  return r;
};
const timeout = new Promise((resolve) => setTimeout(() => resolve({ timeout: true }), +params.get('timeout')));
window.__duckdb = Promise.race([run(), timeout]);
</script>`)
