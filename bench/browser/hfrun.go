package main

import (
	"bytes"
	"compress/gzip"
	"context"
	_ "embed"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/tensorview/tensorview/internal/netshape"
	"github.com/tensorview/tensorview/internal/pagesserve"
)

// The hf layout's measurements (see hf.go and the package comment): each
// file, each source (by URL, dropped), each viewer (hyparquet, tensorview,
// BENCH_BASELINE's tensorview) in turns, a fresh browser each, until the
// frame that shows the first row's image.

//go:embed hyparquet_view.js
var hyparquetViewJS string

// Viewers of the hf layout.
const (
	viewerHyparquet  = "hyparquet"
	viewerTensorview = "tensorview"
)

// What the hf server sends, counted apart.
const (
	kindData   = "data"   // the file (/bench/files/)
	kindEngine = "engine" // a Parquet engine: hyparquet's modules, tensorview's web/*parquet*
	kindShell  = "shell"  // the rest: the app (index, app.js, app.wasm, …) or the viewer's page
)

var hfKinds = []string{kindData, kindEngine, kindShell}

// The hf layout's visits by URL (BENCH_VISITS).
const (
	// visitCold: the link opened in a fresh browser (an empty HTTP cache,
	// no service worker): everything the reader needs is downloaded.
	visitCold = "cold"
	// visitWarm: in the same fresh browser, the reader's page was loaded
	// once before, without a file (a returning visitor): tensorview's
	// start page until its service worker controls it with the app cached
	// (warmTensorview), hyparquet's page until hyparquet is imported
	// (warmHyparquet); then the network quiet, the server's counts reset,
	// and the link opened as cold.
	visitWarm = "warm"
)

// parseVisits reads BENCH_VISITS: cold and/or warm, each once.
func parseVisits(s string) ([]string, error) {
	v := list(s)
	if len(v) == 0 {
		return nil, fmt.Errorf("no visit in %q: want cold and/or warm", s)
	}
	for i, x := range v {
		if x != visitCold && x != visitWarm {
			return nil, fmt.Errorf("%q is neither %s nor %s", x, visitCold, visitWarm)
		}
		if slices.Contains(v[:i], x) {
			return nil, fmt.Errorf("%s twice in %q", x, s)
		}
	}
	return v, nil
}

// hfVisits are the visits of a source: by URL each of visits; a dropped
// file only cold (it is always chosen on a page already loaded and timed
// from the choice, so no visit of the page is in its time).
func hfVisits(source string, visits []string) []string {
	if source != sourceURL {
		return []string{visitCold}
	}
	return visits
}

// cacheHeader is what a CDN sends with a pinned npm version's files (as
// jsDelivr and unpkg do): kept by the browser for a year.
const cacheHeader = "public, max-age=31536000, immutable"

// hfServer serves the hf layout's origins: the static build (or the
// baseline's) under the base path, the files, hyparquet's modules and
// page; every request behind one network shape (BENCH_NET: the data, the
// engines and the app shell alike), each kind on a timeline of its own.
type hfServer struct {
	shape *netshape.Link
	tl    map[string]*timeline
	gz    sync.Map // a module's path → its gzipped bytes
}

// gzipped serves the files of dir gzipped (when the request accepts gzip;
// compressed once, at level 9), as a CDN serves npm's packages.
func (s *hfServer) gzipped(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := path.Clean("/" + r.URL.Path)
		if !pagesserve.AcceptsEncoding(r.Header.Get("Accept-Encoding"), "gzip") {
			files.ServeHTTP(w, r)
			return
		}
		v, ok := s.gz.Load(name)
		if !ok {
			raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
			if err != nil {
				files.ServeHTTP(w, r)
				return
			}
			var b bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			zw.Write(raw)
			zw.Close()
			v, _ = s.gz.LoadOrStore(name, b.Bytes())
		}
		ctype := mime.TypeByExtension(path.Ext(name))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Add("Vary", "Accept-Encoding")
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(v.([]byte)))
	})
}

// classify tells what a request of path asks for.
func (s *hfServer) classify(path string) string {
	switch {
	case strings.HasPrefix(path, "/bench/files/"):
		return kindData
	case strings.HasPrefix(path, "/bench/npm/"):
		return kindEngine
	}
	// tensorview's Parquet reader: the scripts and wasm of web/ that name
	// Parquet (web/parquet-worker.js, web/parquet/…).
	if _, rest, ok := strings.Cut(path, "/web/"); ok && strings.Contains(strings.ToLower(rest), "parquet") {
		switch filepath.Ext(rest) {
		case ".js", ".mjs", ".wasm":
			return kindEngine
		}
	}
	return kindShell
}

// handler serves dist under c.base as GitHub Pages does (its .gz copies,
// gzip), the files as they are (with Range), and when withViewer the
// hyparquet viewer, its modules gzipped as a CDN serves them.
func (s *hfServer) handler(c config, dist string, withViewer bool) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(c.base, http.StripPrefix(strings.TrimSuffix(c.base, "/"), pagesserve.Handler(dist, "gzip")))
	mux.Handle("/bench/files/", http.StripPrefix("/bench/files/", http.FileServer(http.Dir(c.dir))))
	if withViewer {
		// The modules as a CDN sends a pinned version, the page as GitHub
		// Pages sends the app (pagesserve): a warm visit finds them in the
		// browser's HTTP cache.
		npm := http.StripPrefix("/bench/npm/", s.gzipped(benchModules))
		mux.HandleFunc("/bench/npm/", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", cacheHeader)
			npm.ServeHTTP(w, r)
		})
		mux.HandleFunc("/bench/hyparquet-view.js", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "max-age=600")
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			fmt.Fprint(w, hyparquetViewJS)
		})
		mux.HandleFunc("/bench/hyparquet.html", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "max-age=600")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><meta charset=utf-8><title>hyparquet</title>
<script type=importmap>{"imports":{"hyparquet":"/bench/npm/hyparquet/src/index.js","hyparquet-compressors":"/bench/npm/hyparquet-compressors/src/index.js","fzstd":"/bench/npm/fzstd/esm/index.mjs","hysnappy":"/bench/npm/hysnappy/js/index.js"}}</script>
<script type=module src="/bench/hyparquet-view.js"></script>
<input type=file>
<canvas id=first width=256 height=256></canvas>
<table id=rows></table>`)
		})
	}
	wrapped := map[string]http.Handler{}
	for _, k := range hfKinds {
		wrapped[k] = s.tl[k].Wrap(s.shape.Wrap(mux))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wrapped[s.classify(r.URL.Path)].ServeHTTP(w, r)
	})
}

// reset forgets what every timeline recorded.
func (s *hfServer) reset() {
	for _, tl := range s.tl {
		tl.Reset()
	}
}

// quiet waits until no kind has recorded anything for idle (the page's
// loading, its service worker's precaching, are over), at most max.
func (s *hfServer) quiet(idle, max time.Duration) {
	deadline := time.Now().Add(max)
	for time.Now().Before(deadline) {
		var last time.Time
		for _, tl := range s.tl {
			tl.mu.Lock()
			if n := len(tl.events); n > 0 && tl.events[n-1].at.After(last) {
				last = tl.events[n-1].at
			}
			tl.mu.Unlock()
		}
		if time.Since(last) >= idle {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// hfBytes is what one kind sent up to a run's first image.
type hfBytes struct {
	Bytes    int64 `json:"bytes"`
	Requests int64 `json:"requests"`
}

// hfResult is one run: a viewer (a build of tensorview) on a file from a
// source.
type hfResult struct {
	// Ms is the time to the frame that showed the first row's image: from
	// the navigation's start by URL, from the file input's change
	// dropped; DomMs to the image drawn (the canvas in the page).
	Ms     float64 `json:"first_image_ms"`
	DomMs  float64 `json:"first_in_page_ms"`
	Status string  `json:"status,omitempty"` // timeout, crashed, the page's error
	Check  string  `json:"check,omitempty"`  // how the row shown differs from the generator's
	// Sent is, per kind (data, engine, shell), what the server sent and
	// the requests that reached it until then.
	Sent      map[string]hfBytes `json:"sent"`
	PageError string             `json:"page_error,omitempty"`
	// Marks are times (ms, counted as Ms is) the page's main thread saw:
	// app.wasm downloaded, the viewer's engine modules downloaded, the
	// first request for the file's bytes (hfMarksJS); with a perfmarks
	// build, the first of each of the page's "tv:" marks.
	Marks map[string]float64 `json:"marks,omitempty"`
}

// hfMarksJS reads the marks from the page's resource timing (its main
// thread's requests; a worker's are its own) and the first of each
// performance mark named "tv:" (perfmarks builds, internal/perfmark).
const hfMarksJS = `(() => {
  const out = [];
  for (const e of performance.getEntriesByType('resource')) {
    const p = new URL(e.name).pathname;
    if (p.endsWith('/app.wasm') || p.endsWith('/app.wasm.br')) out.push(['app.wasm downloaded', e.responseEnd]);
    if (p.startsWith('/bench/npm/')) out.push(['engine downloaded', e.responseEnd]);
    if (p.startsWith('/bench/files/')) out.push(['first data request', e.startTime]);
  }
  for (const e of performance.getEntriesByType('mark')) {
    if (e.name.startsWith('tv:')) out.push([e.name, e.startTime]);
  }
  return out;
})()`

// hfMarks returns, of hfMarksJS's marks ([name, ms] pairs), the first of
// each name at or after p0 (ms from p0), but the engine's download, the
// last; nil for none.
func hfMarks(marks [][2]any, p0 float64) map[string]float64 {
	var out map[string]float64
	for _, m := range marks {
		k, ok1 := m[0].(string)
		v, ok2 := m[1].(float64)
		if !ok1 || !ok2 || v < p0 {
			continue
		}
		if old, seen := out[k]; seen {
			if later := v-p0 > old; later != (k == "engine downloaded") {
				continue // keep the first, or for the engine the last
			}
		}
		if out == nil {
			out = map[string]float64{}
		}
		out[k] = v - p0
	}
	return out
}

func (r *hfResult) ok() bool { return r.Status == "" && r.Check == "" }

func hfFirst(r *hfResult) (float64, bool) { return r.Ms, r.ok() }

// hfRow is the runs of one file, source, visit, viewer and build.
type hfRow struct {
	file   *hfFile
	source string
	visit  string // visitCold or visitWarm
	viewer string
	build  string // "" or "baseline"
	runs   []*hfResult
}

// hfOrigin starts a server of s on 127.0.0.1 and returns its origin and
// a function to stop it.
func hfOrigin(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

// runHF measures the files with every viewer of c.viewers from every
// source of c.sources, c.repeat times in turns (the opposite order every
// other round).
func runHF(c config, files []*hfFile) ([]*hfRow, error) {
	s := &hfServer{shape: &netshape.Link{Shape: c.net}, tl: map[string]*timeline{}}
	for _, k := range hfKinds {
		s.tl[k] = &timeline{}
	}
	origin, stop, err := hfOrigin(s.handler(c, c.dist, true))
	if err != nil {
		return nil, err
	}
	defer stop()
	origins := map[string]string{"": origin}
	logf("hf: serving %s and hyparquet at %s; network: %s (the data, the engines and the app alike)", c.dist, origin, c.net)
	if c.baseline != "" {
		bo, bstop, err := hfOrigin(s.handler(c, c.baseline, false))
		if err != nil {
			return nil, err
		}
		defer bstop()
		origins["baseline"] = bo
		logf("hf: serving the baseline %s at %s", c.baseline, bo)
	}
	var rows []*hfRow
	for _, f := range files {
		for _, src := range c.sources {
			for _, v := range hfVisits(src, c.visits) {
				if has(c.viewers, viewerHyparquet) && f.Format == "parquet" {
					rows = append(rows, &hfRow{file: f, source: src, visit: v, viewer: viewerHyparquet})
				}
				if has(c.viewers, viewerTensorview) {
					rows = append(rows, &hfRow{file: f, source: src, visit: v, viewer: viewerTensorview})
					if c.baseline != "" {
						rows = append(rows, &hfRow{file: f, source: src, visit: v, viewer: viewerTensorview, build: "baseline"})
					}
				}
			}
		}
	}
	inTurns(len(rows), c.repeat, func(k, j int) {
		row := rows[j]
		logf("hf: %s%s, %s by %s, %s (run %d of %d)", row.viewer, map[string]string{"baseline": " (baseline)"}[row.build], filepath.Base(row.file.Path), row.source, row.visit, k+1, c.repeat)
		var r *hfResult
		warm := row.visit == visitWarm
		if row.viewer == viewerHyparquet {
			r = measureHyparquet(c, s, origin, row.file, row.source, warm)
		} else {
			r = measureHFTensorview(c, s, origins[row.build], row.file, row.source, warm)
		}
		logf("  %+v", *r)
		row.runs = append(row.runs, r)
	})
	return rows, nil
}

// sentBefore is what each kind sent up to at (ms since the epoch).
func (s *hfServer) sentBefore(at float64) map[string]hfBytes {
	out := map[string]hfBytes{}
	for _, k := range hfKinds {
		b, n := s.tl[k].Before(epochTime(at))
		out[k] = hfBytes{b, n}
	}
	return out
}

// firstImage is what the pages report of the first image shown.
type firstImage struct {
	Ms, DomMs, At float64
	Origin        float64 // the page's performance.timeOrigin
	Timeout       bool
	Error         string
	// hyparquet's page: what the first row held.
	Rows          int
	Width, Height int
	ImageBytes    int
	Label         int64
	Caption       string
	ID            int64
	Pixels        []int
}

// measureHyparquet opens f in the hyparquet viewer: by URL, a link
// ?url=…, timed from the navigation's start (warm: after warmHyparquet in
// the same browser); dropped, the page loaded and hyparquet imported, then
// the file chosen, timed from the choice (fromChoice).
func measureHyparquet(c config, s *hfServer, origin string, f *hfFile, source string, warm bool) *hfResult {
	t, err := newTab(time.Minute)
	if err != nil {
		return &hfResult{Status: err.Error()}
	}
	defer t.cancel()
	r := &hfResult{}
	if warm && source == sourceURL {
		if err := warmHyparquet(t, s, origin); err != nil {
			return &hfResult{Status: "warm-up: " + status(err), PageError: t.lastError()}
		}
	}
	q := url.Values{}
	q.Set("rows", fmt.Sprint(hfViewRows))
	q.Set("image", f.Image)
	if f.Shape != nil {
		q.Set("shape", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(f.Shape)), ","), "[]"))
	}
	if source == sourceURL {
		q.Set("url", fileURL(origin, f.benchFile))
		s.reset()
	}
	var p0 float64
	if err == nil {
		err = t.run(time.Minute, chromedp.Navigate(origin+"/bench/hyparquet.html?"+q.Encode()))
	}
	if err == nil && source == sourceFile {
		err = hyparquetReady(t)
		s.quiet(300*time.Millisecond, 30*time.Second)
		s.reset()
		if err == nil {
			p0, err = t.pageNow()
		}
		if err == nil {
			err = t.run(time.Minute, chromedp.SetUploadFiles(`input[type=file]`, []string{f.Path}, chromedp.ByQuery))
		}
	}
	var res firstImage
	if err == nil {
		err = t.eval(c.timeout+10*time.Second, `(async () => { while (!window.__hp) await __bench.sleep(5); return await window.__hp; })()`, &res)
	}
	if source == sourceFile {
		res.fromChoice(p0)
	}
	r.finish(t, s, err, res, p0)
	if r.Status == "" {
		r.Check = checkFirstRow(f, res)
	}
	r.PageError = t.lastError()
	return r
}

// hyparquetReady waits until the hyparquet page has imported hyparquet.
func hyparquetReady(t *tab) error {
	var ready any
	err := t.eval(time.Minute, `window.__hpReady`, &ready)
	if err == nil && ready != true {
		err = fmt.Errorf("hyparquet did not load: %v", ready)
	}
	return err
}

// warmHyparquet is a warm visit's first load of the hyparquet page: the
// page without a file until hyparquet is imported (its modules, which the
// server sends as a CDN does with a year's Cache-Control, and the page's,
// with GitHub Pages' ten minutes, in the HTTP cache; not
// hyparquet-compressors, which the page imports only for a file that needs
// it), then the network quiet.
func warmHyparquet(t *tab, s *hfServer, origin string) error {
	err := t.run(time.Minute, chromedp.Navigate(origin+"/bench/hyparquet.html"))
	if err == nil {
		err = hyparquetReady(t)
	}
	s.quiet(300*time.Millisecond, 30*time.Second)
	return err
}

// swCachedJS waits until a service worker controls the page and a cache of
// it holds app.wasm (go-app's worker caches its resource list at install,
// then claims the page; as bench/boot's cachedJS), or says why not.
const swCachedJS = `(async () => {
  if (!('serviceWorker' in navigator)) return 'no service worker';
  await navigator.serviceWorker.ready;
  for (;;) {
    if (navigator.serviceWorker.controller) {
      for (const key of await caches.keys()) {
        const keys = await (await caches.open(key)).keys();
        if (keys.some((r) => new URL(r.url).pathname.endsWith('/app.wasm'))) return true;
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
})()`

// warmTensorview is a warm visit's first load of tensorview: the start
// page until the app has started (its warm-up over) and its service worker
// controls it with the build cached (swCachedJS), then the network quiet.
// The Parquet reader (web/parquet-worker.js, web/parquet/…) is not in the
// worker's list (app/site OnDemand: cached when first used), so it is not
// fetched then.
func warmTensorview(c config, t *tab, s *hfServer, origin string) error {
	err := t.openEmpty(origin+c.base, true)
	if err == nil {
		var ok any
		if err = t.eval(time.Minute, swCachedJS, &ok); err == nil && ok != true {
			err = fmt.Errorf("%v", ok)
		}
	}
	s.quiet(500*time.Millisecond, 60*time.Second)
	return err
}

// fromChoice makes a dropped file's times count from p0, the page's
// performance.now() just before the harness chose the file (DevTools'
// DOM.setFileInputFiles), for every viewer alike: the change event is no
// start to rely on (in tensorview, row 0 was seen drawn before the input's
// change event reached a listener on window, -28 ms).
func (res *firstImage) fromChoice(p0 float64) {
	if res.Timeout || res.Error != "" {
		return
	}
	shown := res.At - res.Origin
	res.Ms, res.DomMs = shown-p0, res.DomMs+(shown-p0-res.Ms)
	if res.Ms <= 0 {
		res.Error = fmt.Sprintf("the first image %.0f ms before the file was chosen", -res.Ms)
	}
}

// pageNow is the page's performance.now().
func (t *tab) pageNow() (float64, error) {
	var now float64
	err := t.eval(10*time.Second, `performance.now()`, &now)
	return now, err
}

// clockOffset is what to add to the page's clock (performance.timeOrigin +
// now(), ms since the epoch) to have the harness's: they differ (Chromium
// maps a monotonic clock to the epoch once), by up to tens of ms.
func (t *tab) clockOffset() (float64, error) {
	var page float64
	before := time.Now()
	err := t.eval(10*time.Second, `performance.timeOrigin + performance.now()`, &page)
	after := time.Now()
	mid := float64(before.UnixMicro()+after.UnixMicro()) / 2000
	return mid - page, err
}

// finish fills r from a page's report res (or err), with what the server
// sent until the frame that showed the image (res.At, on the page's clock)
// and the page's marks (from p0 on: the choice of a dropped file, 0 by
// URL).
func (r *hfResult) finish(t *tab, s *hfServer, err error, res firstImage, p0 float64) {
	if r.Status = phaseStatus(err, res.Timeout, res.Error); r.Status == "" {
		r.Ms, r.DomMs = res.Ms, res.DomMs
		var marks [][2]any
		if t.eval(10*time.Second, hfMarksJS, &marks) == nil {
			r.Marks = hfMarks(marks, p0)
		}
		off, err := t.clockOffset()
		if err != nil {
			r.Status = status(err)
			return
		}
		r.Sent = s.sentBefore(res.At + off)
	}
}

// checkFirstRow compares what the hyparquet page read of the first row
// with the generator's.
func checkFirstRow(f *hfFile, res firstImage) string {
	if res.Rows != min(hfViewRows, f.Rows) {
		return fmt.Sprintf("%d rows read, want %d", res.Rows, min(hfViewRows, f.Rows))
	}
	if f.Shape != nil {
		want := make([]uint8, tensorBytes)
		fillImages(want, 0, 1)
		w := []int{int(want[0]), int(want[1]), int(want[2]), int(want[tensorBytes-1])}
		if res.ID != 0 || fmt.Sprint(res.Pixels) != fmt.Sprint(w) {
			return fmt.Sprintf("row 0: id %d, pixels %v, want 0, %v", res.ID, res.Pixels, w)
		}
		return ""
	}
	pic, err := hfJPEG(0)
	if err != nil {
		return err.Error()
	}
	if res.Width != hfSide || res.Height != hfSide || res.ImageBytes != len(pic) || res.Label != 0 || res.Caption != hfCaption(0) {
		return fmt.Sprintf("row 0: %d×%d, %d bytes, label %d, %q; want %d×%d, %d bytes, label 0, %q",
			res.Width, res.Height, res.ImageBytes, res.Label, res.Caption, hfSide, hfSide, len(pic), hfCaption(0))
	}
	return ""
}

// measureHFTensorview opens f in tensorview: by URL, the link ?url=…
// timed from the navigation's start (page.js watchLink; warm: after
// warmTensorview in the same browser); dropped, the app
// started and its service worker done caching, then the file chosen
// through its file input, timed from the choice (fromChoice); until the
// frame that shows row 0's preview (the image column's thumbnail; page.js
// firstPreviews).
func measureHFTensorview(c config, s *hfServer, origin string, f *hfFile, source string, warm bool) *hfResult {
	t, err := newTab(time.Minute)
	if err != nil {
		return &hfResult{Status: err.Error()}
	}
	defer t.cancel()
	r := &hfResult{}
	var tr *tracer // BENCH_TRACE
	var res firstImage
	var p0 float64
	if source == sourceURL {
		if warm {
			if err := warmTensorview(c, t, s, origin); err != nil {
				return &hfResult{Status: "warm-up: " + status(err), PageError: t.lastError()}
			}
		}
		err = t.run(10*time.Second, chromedp.ActionFunc(func(ctx context.Context) error {
			_, err := page.AddScriptToEvaluateOnNewDocument(fmt.Sprintf(`__bench.watchLink(%d)`, ms(c.timeout))).Do(ctx)
			return err
		}))
		s.reset()
		if err == nil && c.traceDir != "" {
			tr, err = t.startTrace(profilerCategory)
		}
		if err == nil {
			err = t.run(time.Minute, chromedp.Navigate(origin+c.base+"?"+url.Values{"url": {fileURL(origin, f.benchFile)}}.Encode()))
		}
		if err == nil {
			err = t.eval(c.timeout+10*time.Second, `window.__benchLink`, &res)
		}
	} else {
		err = t.openEmpty(origin+c.base, true)
		if err == nil && c.press {
			// The page's sign that a file is about to be picked (web/boot.js
			// starts the Parquet reader's worker on it).
			err = t.eval(10*time.Second, `document.querySelector('label.button').dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}))`, nil)
		}
		s.quiet(500*time.Millisecond, 60*time.Second) // the service worker's caching, the worker's engine
		if err == nil {
			err = t.eval(10*time.Second, fmt.Sprintf(`window.__benchFirst = __bench.firstPreviews(%d).then((r) => ({...r, at: performance.timeOrigin + window.__benchFirstAt, origin: performance.timeOrigin})), true`, ms(c.timeout)), nil)
		}
		s.reset()
		if err == nil && c.traceDir != "" {
			tr, err = t.startTrace(profilerCategory)
		}
		if err == nil {
			p0, err = t.pageNow()
		}
		if err == nil {
			err = t.run(time.Minute, chromedp.SetUploadFiles(`input[type=file]`, []string{f.Path}, chromedp.ByQuery))
		}
		if err == nil {
			err = t.eval(c.timeout+10*time.Second, `window.__benchFirst`, &res)
		}
		res.fromChoice(p0)
	}
	if tr != nil {
		visit := map[bool]string{true: "warm", false: "cold"}[warm]
		out := filepath.Join(c.traceDir, fmt.Sprintf("hf.%s.%s.%s.trace.json", filepath.Base(f.Path), source, visit))
		t.saveTrace(tr, out)
	}
	r.finish(t, s, err, res, p0)
	r.PageError = t.lastError()
	return r
}
