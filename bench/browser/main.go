// Command browser benchmarks tensorview against apache-arrow (arrow-js) in
// headless Chromium on big Arrow IPC files of image tensors. Run it with
// `make bench-browser`, which builds the static site first; it is not part of
// `make test`.
//
// It writes Arrow IPC files (224x224x3 uint8 fixed shape tensors, with id,
// score and label columns) of the sizes asked, each in record batches of 256
// rows and in one record batch, serves the static build, the files and
// npm's apache-arrow bundle on 127.0.0.1, and for each file measures in a
// fresh browser:
//
//   - the I/O floor of a first screen, in the same page just before
//     tensorview's turn: after a change event of a file input of its own,
//     reading the file's last 64 KiB and then its first 4 MiB with
//     File.slice(...).arrayBuffer() and nothing else (by URL: two HTTP
//     Range requests); the table puts tensorview's first previews over it;
//   - tensorview: the file chosen through input[type=file] until the frame
//     showing row 0's preview has been rendered (also kept: the time the
//     canvas was in the page, "bench:in-page"), with Chromium's main-thread
//     counters over that time (task, script, style, layout) and, from a
//     build with the Go build tag perfmarks (make static
//     TAGS=arrow_json_stdlib,perfmarks), the page's own performance marks on the way
//     (internal/perfmark; the hf layout lists them too); scrolling to the last row until it is shown (and its
//     preview); animation frame intervals while scrolling for 2 s; the wasm
//     memory (it only grows, so this is its peak) and the page's
//     [data-role=cache] data-bytes / data-budget when it has one;
//   - arrow-js: the same file chosen on a blank page of the same origin,
//     tableFromIPC(await file.arrayBuffer()) until table.get(0), and the
//     JS heap and ArrayBuffer bytes then, or the error it hit;
//
// The parquet layout (BENCH_LAYOUTS=parquet) writes the same rows as a
// Parquet file instead (parquet-wasm 0.8.0 in Node.js, row groups of 100
// rows, ZSTD, a page index, the tensor type in ARROW:schema; its size
// depends on the compression: about 1.1 times the Arrow file's), which
// tensorview opens the same ways; the whole-file reader it is measured
// against is then parquet-wasm, the library tensorview reads Parquet with:
// readParquet of all of the file's bytes (chosen through input[type=file],
// or fetched whole by URL), then the first row through apache-arrow; its
// results fill the arrow-js columns, with a note.
//
// With the source "url" (BENCH_SOURCES), each file is opened by URL from the
// same local server (Go's http.FileServer, which honours HTTP Range) instead:
// tensorview through its Open URL form (the time from the form's submit to
// row 0's preview, reading with Range requests), arrow-js as its
// documentation shows, tableFromIPC(await fetch(url)); the server counts the
// bytes each transferred by then.
//
// and prints a Markdown table (also written as JSON to BENCH_DIR).
//
// The query layout (BENCH_LAYOUTS=query) measures sort and
// filter over the whole file instead. It writes BENCH_QUERY_ROWS rows (10M)
// of id int64, score float32 (distinct values in [0, 1)), label (a
// dictionary of 20 words), caption (utf8, about 40 bytes), ts (timestamp)
// and emb (a [2, 2] float32 fixed_shape_tensor) as an Arrow IPC file
// (record batches of 64 Ki rows, arrow-go) and as a Parquet file (a row
// group per 64 Ki rows, snappy, dictionaries, the Arrow schema in
// ARROW:schema; parquet-wasm in Node.js), query-<rows>.arrow and .parquet,
// with what a reader must find in a .json beside each (the ids by score,
// the filter's matches) and each column's bytes in the file. Then, per
// query (BENCH_QUERIES: sort is sort=-score, filter is
// filter=label = 'cat' and score > 0.9), in turns, a fresh browser each:
//
//   - tensorview by URL: a link ?url=<file>&sort=… (or &filter=…), timed
//     from the navigation's start (the app's download and start
//     included); dropped (file): the page opened with the link's query
//     alone (?sort=…), which applies to the file chosen next, timed from
//     the file input's change. The first screen: the row count's
//     data-query done (a sort) or running/done (a filter's first matches),
//     the row at data-pos 0 and every row in the page showing its data (no
//     data-loading), and the frame that shows it painted; done: data-query
//     done (a filter: data-matches) with its screen shown. The rows shown
//     (data-pos → data-row) and data-matches are checked against the
//     generator's. Also: the bytes the server sent of the file (by URL) or
//     the page read from it with Blob.arrayBuffer (dropped Arrow; tensorview
//     reads a dropped Parquet file in a worker, where this is not seen),
//     the main thread's long tasks from the file open to done, the wasm
//     memory, the JS heap and the renderer's peak memory;
//   - DuckDB-wasm (npm @duckdb/duckdb-wasm 1.28.0, served from the same
//     origin, AsyncDuckDB in a worker) on the Parquet file by URL (HTTP
//     Range): SELECT id, score, label FROM '<url>' ORDER BY score DESC
//     LIMIT 50, or … WHERE label = 'cat' AND score > 0.9 LIMIT 50, timed
//     from the navigation's start of its page (the engine's download,
//     compilation and start included), its ids checked too;
//
// and prints a table of its own, the bytes read against the bytes of the
// columns the query needs (JSON in BENCH_DIR/queries-<time>.json).
//
// The dataset layout (BENCH_LAYOUTS=dataset) measures a dataset
// of BENCH_SHARDS shards (20) of BENCH_SHARD_SIZE (100M) each against its
// first shard alone. To spare the disk, each format has ONE shard file,
// served under every shard's name (train-00000-of-00020.arrow, …): the
// shards' bytes are identical. The Arrow shard is the b256 layout's file
// of that size; the Parquet shard holds its first rows (about the same
// bytes) in row groups of 100 rows, snappy (Hugging Face's settings for
// image datasets; parquet-wasm 0.8.0 in Node.js, a page index, the tensor
// type in ARROW:schema). Both are served with Range and CORS from the
// page's origin, and by an emulated Hub (internal/hubfake: the API's
// listing and tree on one local origin, 302s to signed addresses on a CDN
// origin), the Arrow shards under .parquet names there (tensorview tells
// the format from the bytes). For each format, each way of BENCH_WAYS,
// in turns, a fresh browser opens a link, timed from the navigation's
// start (the app's download and start included):
//
//   - first: ?url=<the first shard>, the file alone (the baseline);
//   - url: ?url=<shard 0>&url=<shard 1>&… (all the shards);
//   - hf: ?hf=bench/ds&hub=<the emulated Hub> (bench/ds-arrow for Arrow);
//   - urls: ?urls=<a text file of the shards' links>;
//
// until the frame that shows row 0's preview (first previews; the ratio
// to the first shard alone is the target, ≤ 1.2×), with the bytes
// the dataset's servers sent and the requests that reached them until
// then (a timeline of the server, cut at the page's time of that frame);
// then until the row count is exact ([data-role=num-rows][data-exact=true]:
// every shard open), with the bytes and requests until then and the wasm
// memory. BENCH_NET shapes the network between the page and the
// dataset's servers (the shards, the list and the emulated Hub; not the
// app's own files): "40Mbit,20ms" sends every body at 40 Mbit/s over one
// shared link and answers every request 20 ms late. With BENCH_BASELINE,
// each way is measured in both builds, in turns. It prints a table of its
// own, with the page's marks below it (app.wasm downloaded, the first
// request for data, and a perfmarks build's own), and writes JSON to
// BENCH_DIR/datasets-<time>.json; BENCH_TRACE keeps a trace of each run
// to its first previews (dataset.<format>.<way>[.baseline].trace.json,
// its long tasks logged).
//
// The hf layout (BENCH_LAYOUTS=hf) measures first screens
// against hyparquet on files as the Hugging Face Hub holds image datasets
// (hf.go): BENCH_HF_ROWS rows (3000) of image (the Image feature's struct
// {bytes, path}: distinct 256×256 JPEGs of 50–90 KB), label (a ClassLabel
// int64), caption (a string) and emb (a 16×16 float32 fixed_shape_tensor),
// the features in the schema's "huggingface" metadata, as Parquet written
// by parquet-wasm in Node.js (row groups of 100 rows, snappy, the Arrow
// schema in ARROW:schema) without a page index (as pyarrow, what datasets
// writes with, writes by default) and with one, and as an Arrow IPC file
// in record batches of 100 rows; with them the parquet layout's tensor
// file of each size of BENCH_HF_TENSORS (100M; "none": none). Each file,
// from each source, by each viewer, in turns, a fresh browser each, until
// the frame that shows the first row's image (hfrun.go):
//
//   - hyparquet (npm hyparquet 1.33.0, and hyparquet-compressors 1.1.2
//     imported when a codec needs it, from bench/browser/node_modules on
//     the same origin as npm ships them, gzipped): a page of its own
//     (hyparquet_view.js) that imports it, reads the metadata, then the
//     first 8 rows of every column (parquetReadObjects, useOffsetIndex),
//     shows them as text and draws the first image (createImageBitmap of
//     the JPEG, or a tensor's pixels through ImageData); the row read is
//     checked against the generator's;
//   - tensorview (and BENCH_BASELINE's): until row 0's preview, the image
//     column's thumbnail;
//
// by URL (a link, ?url=, timed from the navigation's start: the page, the
// app and the engine's download included; hyparquet through
// asyncBufferFromUrl: a HEAD request, then Range requests) and dropped
// (the page loaded, the empty page's warm-up over and the network quiet,
// then the file chosen through the file input, timed from the choice:
// tensorview fetches its Parquet engine then, hyparquet has it imported).
// The server counts, until that frame, the bytes and requests of the data
// (the file), of the engines (hyparquet's modules; tensorview's
// web/*parquet*) and of the rest (the app or the viewer's page). The
// app is served with the .gz copies make static writes (as GitHub Pages
// serves it), the file as it is with Range. BENCH_NET shapes all of it:
// one link for the data, the engines and the app alike. By URL, each
// visit of BENCH_VISITS: cold, the link opened in the fresh browser, or
// warm, a returning visitor's: in the same fresh browser, the reader's
// page first loaded once without a file (tensorview's start page until its
// service worker controls it with the app cached: go-app's worker caches
// its list at install, index, app.js, wasm_exec.js, app.wasm, boot.js,
// styles, icons and manifest, but not the Parquet reader, web/parquet*,
// which it caches only when first used; hyparquet's page until hyparquet
// is imported, its modules sent with a CDN's year-long Cache-Control and
// its page with GitHub Pages' ten minutes, kept in the HTTP cache; not
// hyparquet-compressors, imported only for a file that needs it), the
// network quiet and the server's counts reset, then the link opened as
// cold (a dropped file is cold only: it is always chosen on a loaded page
// and timed from the choice). It prints a table
// of its own (the first image's time, its ratio to hyparquet's on the
// same file, source and visit, the MB read against what the first 8
// rows hold) and writes JSON to BENCH_DIR/hf-<time>.json.
//
// Environment:
//
//	BENCH_DIR        where the files and results go (/tmp/tensorview-bench)
//	BENCH_SIZES      file sizes, binary units (100M,1G,6G)
//	BENCH_LAYOUTS    b256, single, single32, jpeg4k, parquet, query, dataset
//	                 and/or hf (b256,single); single32 is one batch capped at 14266
//	                 rows so int32 lengths suffice; jpeg4k is a binary
//	                 column of 3840×2160 JPEGs (thumbnails decoded from bytes
//	                 while scrolling); parquet is a Parquet file of the same
//	                 rows (Node.js and testdata/node_modules write it);
//	                 query is the sort and filter benchmark above (not
//	                 per size: BENCH_QUERY_ROWS); dataset the datasets
//	                 above (BENCH_SHARDS of BENCH_SHARD_SIZE); hf the
//	                 first screens against hyparquet above
//	BENCH_QUERY_ROWS the query layout's rows (10M; 1M, 200K, …; at most
//	                 2^24)
//	BENCH_QUERIES    sort and/or filter (sort,filter)
//	BENCH_SHARDS     the dataset layout's shards (20)
//	BENCH_SHARD_SIZE their size, binary units (100M)
//	BENCH_WAYS       first, url, hf and/or urls (all four)
//	BENCH_HF_ROWS    the hf layout's rows (3000)
//	BENCH_HF_TENSORS sizes of the parquet layout's tensor files the hf
//	                 layout compares too (100M; none)
//	BENCH_VISITS     the hf layout's visits by URL: cold (a fresh browser)
//	                 and/or warm (the reader's page loaded once before in
//	                 the same browser) (cold)
//	BENCH_PRESS      1: the hf layout presses tensorview's Open file… button
//	                 before a file is chosen (dropped), as a person does
//	                 before picking, and waits until the network is quiet
//	                 (the Parquet reader's worker starts on it) (off)
//	BENCH_NET        the dataset and hf layouts' network, e.g. 40Mbit,20ms
//	                 (none)
//	BENCH_VIEWERS    tensorview, arrow-js, duckdb and/or hyparquet
//	                 (tensorview,arrow-js,duckdb,hyparquet); for parquet files
//	                 arrow-js (or parquet-wasm) means parquet-wasm's
//	                 readParquet of the whole file; duckdb runs in the
//	                 query layout only, hyparquet in the hf layout only,
//	                 arrow-js in the others
//	BENCH_SOURCES    file (input[type=file]) and/or url (HTTP) (file,url);
//	                 DuckDB reads by URL only
//	BENCH_TIMEOUT    per measurement (120s)
//	BENCH_REPEAT     measurements of each file by each viewer (1); the table
//	                 shows the run with the median first-row time, and the
//	                 range over all runs
//	BENCH_GEN_ONLY   set to write the files and stop
//	BENCH_PROFILE    a directory: V8 CPU profiles of tensorview's first
//	                 previews (<file>.cpuprofile) and of its scrolling
//	                 (<file>.scroll.cpuprofile) go there (for Chrome
//	                 DevTools; `make bench-browser STRIP=` keeps the
//	                 wasm's function names)
//	BENCH_TRACE      a directory: Chromium traces (devtools.timeline) of
//	                 tensorview's first previews (<file>.trace.json) and
//	                 of its scrolling (<file>.scroll.trace.json); in the
//	                 query layout, of each tensorview run from the
//	                 navigation to done (<file>.<source>.<op>.trace.json;
//	                 in the hf layout, from the navigation or the choice
//	                 to the first image: hf.<file>.<source>.<visit>.trace.json,
//	                 with V8's sampling profiler), its long tasks logged
//	                 with the functions most sampled in each (wasm names
//	                 with a build made with STRIP=)
//	TENSORVIEW_DIST  the static build (dist)
//	BENCH_BASELINE   another static build of the same base path (an older
//	                 commit's dist) to measure side by side: served from a
//	                 second local origin, its tensorview runs alternate with
//	                 TENSORVIEW_DIST's (taking turns which goes first) and
//	                 show in rows of their own marked "baseline"
//	TENSORVIEW_BASE  the path it is served under (read from its app.js)
//	ARROW_JS_DIR     npm's apache-arrow (testdata/node_modules/apache-arrow);
//	                 parquet-wasm beside it; @duckdb/duckdb-wasm, hyparquet and
//	                 hyparquet-compressors in bench/browser/node_modules
//	CHROMIUM         the browser (chromium on the PATH)
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tensorview/tensorview/internal/httpmeter"
	"github.com/tensorview/tensorview/internal/netshape"
)

type config struct {
	dir, dist, base, arrowJS string
	traceDir                 string // Chromium traces of the first previews go there (BENCH_TRACE)
	baseline                 string // a second static build to compare with (BENCH_BASELINE)
	sizes, layouts, viewers  []string
	sources                  []string
	timeout                  time.Duration
	genOnly                  bool
	profileDir               string
	repeat                   int
	scrollMs, scrollPx       int
	queryRows                int            // the query layout's rows (BENCH_QUERY_ROWS)
	queries                  []string       // sort and/or filter (BENCH_QUERIES)
	shards                   int            // the dataset layout's shards (BENCH_SHARDS)
	shardSize                string         // and their size (BENCH_SHARD_SIZE)
	ways                     []string       // the links it opens them by (BENCH_WAYS)
	net                      netshape.Shape // between the page and the dataset's servers (BENCH_NET)
	hfRows                   int            // the hf layout's rows (BENCH_HF_ROWS)
	hfTensors                []string       // sizes of the parquet layout's files the hf layout compares too (BENCH_HF_TENSORS)
	visits                   []string       // the hf layout's visits by URL: cold and/or warm (BENCH_VISITS)
	// press: before a file is chosen (dropped), the hf layout presses the
	// page's Open file… button, as a person does before a file chooser
	// shows, and waits until the network is quiet (BENCH_PRESS=1)
	press bool
}

func env(k, def string) string {
	if v := strings.TrimSpace(os.Getenv(k)); v != "" {
		return v
	}
	return def
}

func list(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func loadConfig() (config, error) {
	c := config{
		dir:        env("BENCH_DIR", "/tmp/tensorview-bench"),
		dist:       env("TENSORVIEW_DIST", "dist"),
		baseline:   os.Getenv("BENCH_BASELINE"),
		arrowJS:    env("ARROW_JS_DIR", filepath.Join("testdata", "node_modules", "apache-arrow")),
		sizes:      list(env("BENCH_SIZES", "100M,1G,6G")),
		layouts:    list(env("BENCH_LAYOUTS", "b256,single")),
		viewers:    list(env("BENCH_VIEWERS", "tensorview,arrow-js,duckdb,hyparquet")),
		sources:    list(env("BENCH_SOURCES", "file,url")),
		queries:    list(env("BENCH_QUERIES", "sort,filter")),
		shardSize:  env("BENCH_SHARD_SIZE", "100M"),
		ways:       list(env("BENCH_WAYS", strings.Join(allWays, ","))),
		genOnly:    os.Getenv("BENCH_GEN_ONLY") != "",
		profileDir: os.Getenv("BENCH_PROFILE"),
		traceDir:   os.Getenv("BENCH_TRACE"),
		press:      os.Getenv("BENCH_PRESS") == "1",
		scrollMs:   2000,
		scrollPx:   6000,
	}
	t := env("BENCH_TIMEOUT", "120s")
	if !strings.ContainsAny(t, "smh") {
		t += "s"
	}
	var err error
	if c.timeout, err = time.ParseDuration(t); err != nil {
		return c, fmt.Errorf("BENCH_TIMEOUT: %w", err)
	}
	if c.repeat, err = strconv.Atoi(env("BENCH_REPEAT", "1")); err != nil || c.repeat < 1 {
		return c, fmt.Errorf("BENCH_REPEAT: want a count of at least 1, not %q", os.Getenv("BENCH_REPEAT"))
	}
	for _, s := range c.sources {
		if s != sourceFile && s != sourceURL {
			return c, fmt.Errorf("BENCH_SOURCES: %q is neither %s nor %s", s, sourceFile, sourceURL)
		}
	}
	if c.queryRows, err = parseRows(env("BENCH_QUERY_ROWS", "10M")); err != nil {
		return c, fmt.Errorf("BENCH_QUERY_ROWS: %w", err)
	}
	for _, q := range c.queries {
		if q != opSort && q != opFilter {
			return c, fmt.Errorf("BENCH_QUERIES: %q is neither %s nor %s", q, opSort, opFilter)
		}
	}
	if c.shards, err = parseShards(env("BENCH_SHARDS", "20")); err != nil {
		return c, fmt.Errorf("BENCH_SHARDS: %w", err)
	}
	if _, err := parseSize(c.shardSize); err != nil {
		return c, fmt.Errorf("BENCH_SHARD_SIZE: %w", err)
	}
	for _, w := range c.ways {
		if !has(allWays, w) {
			return c, fmt.Errorf("BENCH_WAYS: %q is none of %s", w, strings.Join(allWays, ", "))
		}
	}
	if c.net, err = netshape.Parse(os.Getenv("BENCH_NET")); err != nil {
		return c, fmt.Errorf("BENCH_NET: %w", err)
	}
	if c.hfRows, err = parseHFRows(env("BENCH_HF_ROWS", "3000")); err != nil {
		return c, fmt.Errorf("BENCH_HF_ROWS: %w", err)
	}
	c.hfTensors = hfSizes(env("BENCH_HF_TENSORS", "100M"))
	if c.visits, err = parseVisits(env("BENCH_VISITS", visitCold)); err != nil {
		return c, fmt.Errorf("BENCH_VISITS: %w", err)
	}
	for _, size := range c.hfTensors {
		if _, err := parseSize(size); err != nil {
			return c, fmt.Errorf("BENCH_HF_TENSORS: %w", err)
		}
	}
	if c.genOnly {
		return c, nil
	}
	appJS, err := os.ReadFile(filepath.Join(c.dist, "app.js"))
	if err != nil {
		return c, fmt.Errorf("no static build in %s (make static writes it): %w", c.dist, err)
	}
	c.base = "/"
	if m := regexp.MustCompile(`"GOAPP_ROOT_PREFIX":"([^"]*)"`).FindSubmatch(appJS); m != nil && string(m[1]) != "" {
		c.base = string(m[1])
	}
	c.base = env("TENSORVIEW_BASE", c.base)
	c.base = "/" + strings.Trim(c.base, "/") + "/"
	c.base = strings.ReplaceAll(c.base, "//", "/")
	return c, nil
}

// Where the viewers read a file from.
const (
	sourceFile = "file" // chosen through input[type=file]: read with File.slice
	sourceURL  = "url"  // by URL from the local server: HTTP (Range) requests
)

// Results of one file from one source.
type result struct {
	File       benchFile  `json:"file"`
	Source     string     `json:"source"`
	Build      string     `json:"build,omitempty"`      // "baseline" for BENCH_BASELINE's runs`
	Tensorview *tvResult  `json:"tensorview,omitempty"` // the run with the median first-previews time
	ArrowJS    *ajsResult `json:"arrow_js,omitempty"`   // the run with the median first-row time
	// Every run, when BENCH_REPEAT > 1.
	TensorviewRuns []*tvResult  `json:"tensorview_runs,omitempty"`
	ArrowJSRuns    []*ajsResult `json:"arrow_js_runs,omitempty"`
}

type tvResult struct {
	FirstMs       float64 `json:"first_previews_ms"`      // until the frame showing row 0's preview has been rendered
	FirstStatus   string  `json:"first_status,omitempty"` // timeout, crashed, or the page's error
	JumpRowMs     float64 `json:"jump_row_ms"`
	JumpPreviewMs float64 `json:"jump_preview_ms"`
	JumpStatus    string  `json:"jump_status,omitempty"`
	Frames        int     `json:"frames"`
	FrameMaxMs    float64 `json:"frame_max_ms"`
	FrameP95Ms    float64 `json:"frame_p95_ms"`
	FrameP50Ms    float64 `json:"frame_p50_ms"`
	FrameStatus   string  `json:"frame_status,omitempty"`
	// Long tasks of the main thread (over 50 ms, PerformanceObserver
	// 'longtask'): how many and the longest, from the file's choice until
	// the first previews (opening), from then until it is indexed (no
	// [data-task=index] progress left; IndexMs after the choice), and while
	// scrolling.
	OpenLongTasks   int     `json:"open_long_tasks"`
	OpenLongMaxMs   float64 `json:"open_long_max_ms"`
	IndexMs         float64 `json:"indexed_ms"`
	IndexLongTasks  int     `json:"index_long_tasks"`
	IndexLongMaxMs  float64 `json:"index_long_max_ms"`
	ScrollLongTasks int     `json:"scroll_long_tasks"`
	ScrollLongMaxMs float64 `json:"scroll_long_max_ms"`
	IndexStatus     string  `json:"index_status,omitempty"`
	WasmBytes       float64 `json:"wasm_bytes"` // -1 when unknown
	JSHeapBytes     float64 `json:"js_heap_bytes"`
	BackingBytes    float64 `json:"array_buffer_bytes"` // ArrayBuffer backing stores, the wasm memory included
	CacheBytes      string  `json:"cache_bytes,omitempty"`
	CacheBudget     string  `json:"cache_budget,omitempty"`
	// RendererPeak is the peak resident memory of the page's renderer
	// process (the page, its workers, all wasm memories), -1 when unknown.
	RendererPeak float64 `json:"renderer_peak_bytes"`
	PageError    string  `json:"page_error,omitempty"` // last exception or console error
	// The I/O floor measured in the same page before tensorview's turn:
	// reading the file's last 64 KiB and first 4 MiB and nothing else
	// (File.slice, or two HTTP Range requests by URL), in ms.
	FloorMs     float64 `json:"floor_ms"`
	FloorStatus string  `json:"floor_status,omitempty"`
	// Marks are the performance marks the page set (builds with the Go
	// build tag perfmarks) until row 0's preview: name → ms after the
	// change event (the first time each was set); and "main:<counter>",
	// Chromium's main-thread counters over the same time (tab.metrics;
	// durations in ms, LayoutCount a count).
	Marks map[string]float64 `json:"marks,omitempty"`
	// By URL: what the server sent until row 0's preview showed.
	FirstBytes    int64 `json:"first_bytes,omitempty"`
	FirstRequests int64 `json:"first_requests,omitempty"`
}

type ajsResult struct {
	// Reader is the library reading the whole file: arrow-js (empty) or,
	// for Parquet files, parquet-wasm (readParquet).
	Reader       string  `json:"reader,omitempty"`
	WasmBytes    float64 `json:"wasm_bytes,omitempty"` // parquet-wasm's memory
	ReadMs       float64 `json:"read_ms"`
	FirstRowMs   float64 `json:"first_row_ms"`
	Rows         int     `json:"rows"`
	Batches      int     `json:"batches"`
	JSHeapBytes  float64 `json:"js_heap_bytes"`
	BackingBytes float64 `json:"array_buffer_bytes"`
	PerfHeap     float64 `json:"performance_memory_used_js_heap_size"`
	RendererPeak float64 `json:"renderer_peak_bytes"` // as tvResult's
	Error        string  `json:"error,omitempty"`
	FailMs       float64 `json:"fail_ms,omitempty"` // when the error came
	Status       string  `json:"status,omitempty"`  // timeout, crashed, or why it did not run
	// By URL: what the server sent until the first row was read (or the
	// error came).
	Bytes    int64 `json:"bytes,omitempty"`
	Requests int64 `json:"requests,omitempty"`
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/browser (configured by environment variables: see `go doc ./bench/browser`)")
		os.Exit(2)
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() error {
	c, err := loadConfig()
	if err != nil {
		return err
	}
	nodeModules = filepath.Dir(c.arrowJS)
	var files []benchFile
	var qfiles []queryFile
	var sets []*shardSet
	var hfs []*hfFile
	if has(c.layouts, layoutHF) {
		if hfs, err = hfFiles(c.dir, c.hfRows); err != nil {
			return err
		}
		for _, size := range c.hfTensors {
			f, err := hfTensorFile(c, size)
			if err != nil {
				return err
			}
			hfs = append(hfs, f)
		}
	}
	if has(c.layouts, layoutQuery) {
		if qfiles, err = queryFiles(c); err != nil {
			return err
		}
	}
	if has(c.layouts, layoutDataset) {
		if sets, err = shardFiles(c); err != nil {
			return err
		}
	}
	for _, size := range c.sizes {
		for _, layout := range c.layouts {
			if layout == layoutQuery || layout == layoutDataset || layout == layoutHF {
				continue // not a size's: BENCH_QUERY_ROWS rows, BENCH_SHARDS shards, BENCH_HF_ROWS rows
			}
			f, err := plan(c.dir, size, layout)
			if err != nil {
				return err
			}
			if layout == layoutSingle32 && f.Note == "" {
				continue // the same as single
			}
			start := time.Now()
			f, err = ensure(f, logf)
			if err != nil {
				logf("%v", err)
				f.Note = strings.TrimSpace(f.Note + " not written: " + err.Error())
				f.Path = ""
			} else if d := time.Since(start); d > time.Second {
				logf("  %.1f MB in %v", float64(f.Bytes)/1e6, d.Round(time.Second))
			}
			files = append(files, f)
		}
	}
	if c.genOnly {
		return nil
	}

	// The static build under its base path, the files, and apache-arrow.
	served, engine := &httpmeter.Meter{}, &httpmeter.Meter{}
	var ds *dsServer
	if len(sets) > 0 {
		if ds, err = startDatasets(c, sets); err != nil {
			return err
		}
		defer ds.close()
	}
	mux := benchMux(c, c.dist, served)
	duckdbRoutes(mux, engine)
	if ds != nil {
		ds.routes(mux)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()
	origin := "http://" + ln.Addr().String()
	logf("serving %s at %s%s", c.dist, origin, c.base)
	baseOrigin := ""
	if c.baseline != "" {
		// Another origin, so that the two builds' service workers and
		// caches stay apart.
		bln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		bmux := benchMux(c, c.baseline, served)
		if ds != nil {
			ds.routes(bmux)
		}
		bsrv := &http.Server{Handler: bmux}
		go bsrv.Serve(bln)
		defer bsrv.Close()
		baseOrigin = "http://" + bln.Addr().String()
		logf("serving the baseline %s at %s%s", c.baseline, baseOrigin, c.base)
	}
	if _, err := os.Stat(filepath.Join(c.arrowJS, "Arrow.es2015.min.js")); err != nil && has(c.viewers, "arrow-js") {
		logf("no apache-arrow bundle (make testdata/node_modules installs it): %v", err)
	}

	var hfrows []*hfRow
	if len(hfs) > 0 {
		if hfrows, err = runHF(c, hfs); err != nil {
			return err
		}
	}
	var qrows []*qRow
	if len(qfiles) > 0 {
		qrows = runQueries(c, origin, qfiles, served, engine)
	}
	var dsrows []*dsRow
	if ds != nil {
		origins := []string{origin}
		if baseOrigin != "" {
			origins = append(origins, baseOrigin)
		}
		dsrows = runDatasets(c, ds, origins)
	}
	var results []result
	for _, f := range files {
		for _, source := range c.sources {
			r := result{File: f, Source: source}
			rb := result{File: f, Source: source, Build: "baseline"}
			// The viewers take turns, so that a slower spell of the machine
			// does not fall on one of them only.
			for k := 0; f.Path != "" && k < c.repeat; k++ {
				if has(c.viewers, "tensorview") {
					builds := []string{""}
					if baseOrigin != "" {
						builds = []string{"", "baseline"}
						if k%2 == 1 {
							builds = []string{"baseline", ""}
						}
					}
					for _, b := range builds {
						o, into := origin, &r
						if b != "" {
							o, into = baseOrigin, &rb
						}
						logf("tensorview%s: %s by %s (run %d of %d)", map[string]string{"": "", "baseline": " (baseline)"}[b], filepath.Base(f.Path), source, k+1, c.repeat)
						tv := measureTensorview(c, o, f, source, served)
						logf("  %+v", *tv)
						into.TensorviewRuns = append(into.TensorviewRuns, tv)
					}
				}
				if f.Layout == layoutParquet && (has(c.viewers, "arrow-js") || has(c.viewers, "parquet-wasm")) {
					logf("parquet-wasm whole: %s by %s (run %d of %d)", filepath.Base(f.Path), source, k+1, c.repeat)
					pqw := measureParquetWhole(c, origin, f, source, served)
					logf("  %+v", *pqw)
					r.ArrowJSRuns = append(r.ArrowJSRuns, pqw)
				} else if has(c.viewers, "arrow-js") {
					logf("arrow-js: %s by %s (run %d of %d)", filepath.Base(f.Path), source, k+1, c.repeat)
					ajs := measureArrowJS(c, origin, f, source, served)
					logf("  %+v", *ajs)
					r.ArrowJSRuns = append(r.ArrowJSRuns, ajs)
				}
			}
			r.Tensorview = median(r.TensorviewRuns, tvFirst)
			r.ArrowJS = median(r.ArrowJSRuns, arrowFirst)
			rb.Tensorview = median(rb.TensorviewRuns, tvFirst)
			if c.repeat == 1 {
				r.TensorviewRuns, r.ArrowJSRuns, rb.TensorviewRuns = nil, nil, nil
			}
			if rb.Tensorview != nil {
				results = append(results, rb)
			}
			results = append(results, r)
		}
	}
	if len(results) > 0 {
		printTable(os.Stdout, c, results)
	}
	if len(qrows) > 0 {
		printQueryTable(os.Stdout, c, qfiles, qrows)
	}
	if len(dsrows) > 0 {
		printDatasetTable(os.Stdout, c, sets, dsrows)
	}
	if len(hfrows) > 0 {
		printHFTable(os.Stdout, c, hfs, hfrows)
	}
	stamp := time.Now().Format("20060102-150405")
	if len(qrows) > 0 {
		out := filepath.Join(c.dir, "queries-"+stamp+".json")
		if err := writeQueryJSON(out, qfiles, qrows); err == nil {
			logf("query results in %s", out)
		}
	}
	if len(dsrows) > 0 {
		out := filepath.Join(c.dir, "datasets-"+stamp+".json")
		if err := writeDatasetJSON(out, c, sets, dsrows); err == nil {
			logf("dataset results in %s", out)
		}
	}
	if len(hfrows) > 0 {
		out := filepath.Join(c.dir, "hf-"+stamp+".json")
		if err := writeHFJSON(out, c, hfs, hfrows); err == nil {
			logf("hf results in %s", out)
		}
	}
	if len(results) == 0 {
		return nil
	}
	out := filepath.Join(c.dir, "results-"+stamp+".json")
	data, _ := json.MarshalIndent(results, "", "  ")
	if err := os.WriteFile(out, data, 0o644); err == nil {
		logf("results in %s", out)
	}
	return nil
}

// median returns the run with the median time among those that succeeded
// (the lower middle one of an even count), or the last run when none did.
func median[R any](runs []*R, time func(*R) (float64, bool)) *R {
	var ok []*R
	for _, r := range runs {
		if _, good := time(r); good {
			ok = append(ok, r)
		}
	}
	if len(ok) == 0 {
		if len(runs) == 0 {
			return nil
		}
		return runs[len(runs)-1]
	}
	sort.SliceStable(ok, func(i, j int) bool {
		a, _ := time(ok[i])
		b, _ := time(ok[j])
		return a < b
	})
	return ok[(len(ok)-1)/2]
}

// spread formats the range of the successful runs' times, " (lo–hi)", when
// there is more than one.
func spread[R any](runs []*R, time func(*R) (float64, bool)) string {
	lo, hi, n := bounds(runs, time)
	if n < 2 {
		return ""
	}
	return fmt.Sprintf(" (%.0f–%.0f)", lo, hi)
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func ms(d time.Duration) int { return int(d / time.Millisecond) }

// fileURL is where the server has f.
func fileURL(origin string, f benchFile) string {
	return origin + "/bench/files/" + filepath.Base(f.Path)
}

func measureTensorview(c config, origin string, f benchFile, source string, served *httpmeter.Meter) *tvResult {
	r := &tvResult{WasmBytes: -1, JSHeapBytes: -1, BackingBytes: -1, RendererPeak: -1}
	t, err := newTab(time.Minute)
	if err != nil {
		r.FirstStatus = err.Error()
		return r
	}
	defer t.cancel()
	defer func() { r.PageError = t.lastError() }()
	err = t.openEmpty(origin+c.base, false)
	if err == nil {
		// Let the service worker finish caching the site first.
		err = t.eval(10*time.Second, `__bench.sleep(1000)`, nil)
	}
	if err == nil {
		// The I/O floor, in the same page just before tensorview's turn.
		r.FloorMs, r.FloorStatus = measureFloor(t, c, origin, f, source)
	}
	if err == nil {
		err = t.eval(10*time.Second, fmt.Sprintf(`window.__benchFirst = __bench.firstPreviews(%d), true`, ms(c.timeout)), nil)
	}
	if err == nil && c.profileDir != "" {
		err = t.startProfile()
	}
	var tr *tracer
	if err == nil && c.traceDir != "" {
		tr, err = t.startTrace()
	}
	before, merr := t.metrics()
	if err == nil {
		served.Reset()
		if source == sourceURL {
			var opened struct{ Error string }
			err = t.eval(20*time.Second, fmt.Sprintf(`__bench.openURL(%q)`, fileURL(origin, f)), &opened)
			if err == nil && opened.Error != "" {
				err = fmt.Errorf("%s", opened.Error)
			}
		} else {
			err = t.run(time.Minute, chromedp.SetUploadFiles(`input[type=file]`, []string{f.Path}, chromedp.ByQuery))
		}
	}
	var first struct {
		Ms, DomMs float64
		Timeout   bool
		Error     string
		RowsTitle string
	}
	if err == nil {
		err = t.eval(c.timeout+10*time.Second, `window.__benchFirst`, &first)
	}
	if c.profileDir != "" && err == nil {
		out := filepath.Join(c.profileDir, strings.TrimSuffix(filepath.Base(f.Path), ".arrow")+".cpuprofile")
		if perr := t.stopProfile(out); perr != nil {
			logf("profile: %v", perr)
		} else {
			logf("  CPU profile in %s", out)
		}
	}
	if tr != nil && err == nil {
		out := filepath.Join(c.traceDir, strings.TrimSuffix(filepath.Base(f.Path), ".arrow")+".trace.json")
		if terr := t.stopTrace(tr, out); terr != nil {
			logf("trace: %v", terr)
		} else {
			logf("  trace in %s", out)
		}
	}
	if err == nil {
		// The page's own performance marks (a build with the perfmarks
		// tag), relative to the change event.
		_ = t.eval(10*time.Second, `__bench.marks()`, &r.Marks)
		if after, err := t.metrics(); err == nil && merr == nil {
			// The main thread's work from the change event to the first
			// previews, in ms (in the same map, as "main:" counters).
			if r.Marks == nil {
				r.Marks = map[string]float64{}
			}
			for _, k := range []string{"TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration"} {
				r.Marks["main:"+k] = 1000 * (after[k] - before[k])
			}
			r.Marks["main:LayoutCount"] = after["LayoutCount"] - before["LayoutCount"]
		}
	}
	if r.FirstStatus = phaseStatus(err, first.Timeout, first.Error); r.FirstStatus == "" {
		r.FirstMs = first.Ms
		if r.Marks == nil {
			r.Marks = map[string]float64{}
		}
		r.Marks["bench:in-page"] = first.DomMs // row 0's canvas in the page, before the frame showing it
		if source == sourceURL {
			r.FirstBytes, r.FirstRequests = served.Read()
		}
	}
	if r.FirstStatus == "" {
		var idx struct {
			Ms, LongMaxMs, OpenLongMaxMs float64
			LongTasks, OpenLongTasks     int
			Timeout                      bool
			Error                        string
		}
		err = t.eval(c.timeout+10*time.Second, fmt.Sprintf(`__bench.indexed(%d)`, ms(c.timeout)), &idx)
		if r.IndexStatus = phaseStatus(err, idx.Timeout, idx.Error); r.IndexStatus == "" {
			r.IndexMs, r.IndexLongTasks, r.IndexLongMaxMs = idx.Ms, idx.LongTasks, idx.LongMaxMs
			r.OpenLongTasks, r.OpenLongMaxMs = idx.OpenLongTasks, idx.OpenLongMaxMs
		}
		var jump struct {
			RowMs, PreviewMs float64
			Timeout          bool
			Error            string
		}
		err = t.eval(2*c.timeout+10*time.Second, fmt.Sprintf(`__bench.jumpToLast(%d, %d)`, f.Rows-1, ms(c.timeout)), &jump)
		if r.JumpStatus = phaseStatus(err, jump.Timeout, jump.Error); r.JumpStatus == "" {
			r.JumpRowMs, r.JumpPreviewMs = jump.RowMs, jump.PreviewMs
		}
		var frames struct {
			Frames              int
			MaxMs, P95Ms, P50Ms float64
			LongTasks           int
			LongMaxMs           float64
			Error               string
			LoadingRows         int
			PreviewsDrawn       int
			RowsRenders         int
		}
		if r.JumpStatus != "crashed" {
			profiling := c.profileDir != "" && t.startProfile() == nil
			var scrollTrace *tracer
			if c.traceDir != "" {
				if st, terr := t.startTrace(); terr == nil {
					scrollTrace = st
				}
			}
			err = t.eval(c.timeout+time.Duration(c.scrollMs)*time.Millisecond, fmt.Sprintf(`__bench.scrollFrames(%d, %d)`, c.scrollMs, c.scrollPx), &frames)
			if scrollTrace != nil {
				out := filepath.Join(c.traceDir, strings.TrimSuffix(filepath.Base(f.Path), ".arrow")+".scroll.trace.json")
				if terr := t.stopTrace(scrollTrace, out); terr != nil {
					logf("trace: %v", terr)
				} else {
					logf("  trace of scrolling in %s", out)
				}
			}
			if profiling {
				out := filepath.Join(c.profileDir, strings.TrimSuffix(filepath.Base(f.Path), ".arrow")+".scroll.cpuprofile")
				if perr := t.stopProfile(out); perr != nil {
					logf("profile: %v", perr)
				} else {
					logf("  CPU profile of scrolling in %s", out)
				}
			}
			switch {
			case err != nil:
				r.FrameStatus = status(err)
			case frames.Error != "":
				r.FrameStatus = frames.Error
			default:
				r.Frames, r.FrameMaxMs, r.FrameP95Ms, r.FrameP50Ms = frames.Frames, frames.MaxMs, frames.P95Ms, frames.P50Ms
				r.ScrollLongTasks, r.ScrollLongMaxMs = frames.LongTasks, frames.LongMaxMs
				logf("  scrolling: %d frames, max %.0f ms, p95 %.0f ms; rows loading summed over the frames %d; previews drawn %d, table renders %d (perfmarks builds)",
					frames.Frames, frames.MaxMs, frames.P95Ms, frames.LoadingRows, frames.PreviewsDrawn, frames.RowsRenders)
			}
		}
	}
	var mem struct {
		WasmBytes, JSHeapBytes  float64
		CacheBytes, CacheBudget string
	}
	if t.eval(20*time.Second, `__bench.memory()`, &mem) == nil {
		r.WasmBytes, r.CacheBytes, r.CacheBudget = mem.WasmBytes, mem.CacheBytes, mem.CacheBudget
	}
	if used, backing, err := t.heap(20 * time.Second); err == nil {
		r.JSHeapBytes, r.BackingBytes = used, backing
	}
	r.RendererPeak = t.rendererPeakRSS()
	return r
}

func measureArrowJS(c config, origin string, f benchFile, source string, served *httpmeter.Meter) *ajsResult {
	r := &ajsResult{JSHeapBytes: -1, BackingBytes: -1, RendererPeak: -1}
	t, err := newTab(time.Minute)
	if err != nil {
		r.Status = err.Error()
		return r
	}
	defer t.cancel()
	var ready bool
	err = t.run(time.Minute, chromedp.Navigate(origin+"/bench/arrowjs.html"))
	if err == nil {
		err = t.eval(10*time.Second, fmt.Sprintf(`typeof Arrow === 'object' && typeof Arrow.tableFromIPC === 'function' && __bench.arrowJS(%d)`, ms(c.timeout)), &ready)
	}
	if err == nil && !ready {
		err = fmt.Errorf("apache-arrow did not load from %s", c.arrowJS)
	}
	var res wholeRead
	served.Reset()
	if err == nil && source == sourceURL {
		err = t.eval(c.timeout+10*time.Second, fmt.Sprintf(`__bench.arrowJSURL(%q, %d)`, fileURL(origin, f), ms(c.timeout)), &res)
		r.Bytes, r.Requests = served.Read()
	} else if err == nil {
		err = t.run(time.Minute, chromedp.SetUploadFiles(`input[type=file]`, []string{f.Path}, chromedp.ByQuery))
		if err == nil {
			err = t.eval(c.timeout+10*time.Second, `window.__benchArrow`, &res)
		}
	}
	t.finishWhole(r, res, err)
	return r
}

// wholeRead is what page.js reports of a whole-file read (arrow-js's or
// parquet-wasm's; WasmBytes is parquet-wasm's memory, 0 for arrow-js).
type wholeRead struct {
	ReadMs, FirstRowMs, FailMs float64
	Rows, Batches              int
	JSHeapBytes, WasmBytes     float64
	Error                      string
	Timeout                    bool
}

// finishWhole fills r from a whole-file read's result res (or err), then
// with the page's heap (unless the tab crashed) and the renderer's peak
// memory.
func (t *tab) finishWhole(r *ajsResult, res wholeRead, err error) {
	switch {
	case err != nil:
		r.Status = status(err)
	case res.Timeout:
		r.Status = "timeout"
	default:
		r.ReadMs, r.FirstRowMs, r.Rows, r.Batches, r.PerfHeap, r.Error, r.FailMs = res.ReadMs, res.FirstRowMs, res.Rows, res.Batches, res.JSHeapBytes, res.Error, res.FailMs
	}
	if r.Status != "crashed" {
		if used, backing, err := t.heap(20 * time.Second); err == nil {
			r.JSHeapBytes, r.BackingBytes = used, backing
		}
	}
	r.RendererPeak = t.rendererPeakRSS()
}

// measureParquetWhole reads a Parquet file the way a page without
// tensorview would with the same library tensorview reads Parquet with:
// parquet-wasm's readParquet on all of its bytes (chosen through
// input[type=file], or downloaded whole by URL), then the first row.
func measureParquetWhole(c config, origin string, f benchFile, source string, served *httpmeter.Meter) *ajsResult {
	r := &ajsResult{Reader: "parquet-wasm", JSHeapBytes: -1, BackingBytes: -1, WasmBytes: -1, RendererPeak: -1}
	t, err := newTab(time.Minute)
	if err != nil {
		r.Status = err.Error()
		return r
	}
	defer t.cancel()
	var ready struct{ Timeout bool }
	err = t.run(time.Minute, chromedp.Navigate(origin+"/bench/parquetwasm.html"))
	if err == nil {
		err = t.eval(time.Minute, `__bench.waitFor(() => typeof Arrow === 'object' && window.__pw, 55000)`, &ready)
	}
	if err == nil && ready.Timeout {
		err = fmt.Errorf("parquet-wasm or apache-arrow did not load from %s", nodeModules)
	}
	var res wholeRead
	served.Reset()
	if err == nil && source == sourceURL {
		err = t.eval(c.timeout+10*time.Second, fmt.Sprintf(`__bench.parquetWholeURL(%q, %d)`, fileURL(origin, f), ms(c.timeout)), &res)
		r.Bytes, r.Requests = served.Read()
	} else if err == nil {
		err = t.eval(10*time.Second, fmt.Sprintf(`__bench.parquetWholeFile(%d)`, ms(c.timeout)), nil)
		if err == nil {
			err = t.run(time.Minute, chromedp.SetUploadFiles(`input[type=file]`, []string{f.Path}, chromedp.ByQuery))
		}
		if err == nil {
			err = t.eval(c.timeout+10*time.Second, `window.__benchArrow`, &res)
		}
	}
	if err == nil && !res.Timeout {
		r.WasmBytes = res.WasmBytes
	}
	t.finishWhole(r, res, err)
	return r
}

// measureFloor measures the I/O floor of f's first screen in t's page: the
// time to read the last 64 KiB and the first 4 MiB of the file, after a
// file input's change event (page.js floorFile) or by two HTTP Range
// requests (floorURL). It returns the time in ms, or why there is none.
func measureFloor(t *tab, c config, origin string, f benchFile, source string) (float64, string) {
	var res struct {
		Ms      float64
		Bytes   int64
		Timeout bool
		Error   string
	}
	var err error
	if source == sourceURL {
		err = t.eval(c.timeout+10*time.Second, fmt.Sprintf(`__bench.floorURL(%q, %d, %d)`, fileURL(origin, f), f.Bytes, ms(c.timeout)), &res)
	} else {
		err = t.eval(10*time.Second, fmt.Sprintf(`__bench.floorFile(%d)`, ms(c.timeout)), nil)
		if err == nil {
			err = t.run(time.Minute, chromedp.SetUploadFiles(`input[data-bench=floor]`, []string{f.Path}, chromedp.ByQuery))
		}
		if err == nil {
			err = t.eval(c.timeout+10*time.Second, `window.__benchFloor`, &res)
		}
	}
	if s := phaseStatus(err, res.Timeout, res.Error); s != "" {
		return 0, s
	}
	return res.Ms, ""
}

// phaseStatus is the status of a step the page ran: status(err) when
// evaluating it failed, "timeout" when the page gave up, else the page's
// error ("" when the step went through).
func phaseStatus(err error, timeout bool, pageErr string) string {
	switch {
	case err != nil:
		return status(err)
	case timeout:
		return "timeout"
	}
	return pageErr
}

// benchMux serves the static build dist under c.base, the files (counted
// by served) and apache-arrow and parquet-wasm with their pages.
func benchMux(c config, dist string, served *httpmeter.Meter) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle(c.base, http.StripPrefix(strings.TrimSuffix(c.base, "/"), http.FileServer(http.Dir(dist))))
	mux.Handle("/bench/files/", served.Wrap(http.StripPrefix("/bench/files/", http.FileServer(http.Dir(c.dir)))))
	mux.Handle("/bench/arrow/", http.StripPrefix("/bench/arrow/", http.FileServer(http.Dir(c.arrowJS))))
	mux.Handle("/bench/parquet-wasm/", http.StripPrefix("/bench/parquet-wasm/", http.FileServer(http.Dir(filepath.Join(nodeModules, "parquet-wasm", "esm")))))
	mux.HandleFunc("/bench/parquetwasm.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><meta charset=utf-8><title>parquet-wasm</title>
<script src="/bench/arrow/Arrow.es2015.min.js"></script>
<script type=module>
import init, * as pw from '/bench/parquet-wasm/parquet_wasm.js';
await init();
window.__pw = pw;
</script>
<input type=file>`)
	})
	mux.HandleFunc("/bench/arrowjs.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><meta charset=utf-8><title>arrow-js</title>
<script src="/bench/arrow/Arrow.es2015.min.js"></script>
<input type=file>`)
	})
	return mux
}
