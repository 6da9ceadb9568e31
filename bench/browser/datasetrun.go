package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// dsResult is one run of a link to a dataset (or to its first shard).
type dsResult struct {
	Format string `json:"format"`
	Way    string `json:"way"`
	Build  string `json:"build,omitempty"` // "baseline" for BENCH_BASELINE's runs
	// FirstMs is the time from the navigation's start (the app's download
	// and start included) to the frame that showed row 0's preview; DomMs
	// to its canvas in the page.
	FirstMs float64 `json:"first_previews_ms"`
	DomMs   float64 `json:"first_in_page_ms"`
	Status  string  `json:"status,omitempty"` // timeout, crashed, or the page's error
	// FirstBytes and FirstRequests: what the dataset's servers (the shards,
	// the list of links, the emulated Hub's API and CDN) sent, and the
	// requests that reached them, up to the first previews.
	FirstBytes    int64 `json:"first_bytes"`
	FirstRequests int64 `json:"first_requests"`
	// AllOpenMs is when the row count became exact (every shard open),
	// from the navigation's start; Rows the count then, and the bytes and
	// requests up to then.
	AllOpenMs     float64 `json:"all_open_ms"`
	AllStatus     string  `json:"all_status,omitempty"`
	Rows          int64   `json:"rows"`
	Check         string  `json:"check,omitempty"` // how the row count differs from the generator's
	AllBytes      int64   `json:"all_bytes"`
	AllRequests   int64   `json:"all_requests"`
	WasmBytes     float64 `json:"wasm_bytes"` // the app's wasm memory once all open, -1 unknown
	JSHeapBytes   float64 `json:"js_heap_bytes"`
	RendererPeak  float64 `json:"renderer_peak_bytes"`
	PageError     string  `json:"page_error,omitempty"`
	HubViolations int     `json:"hub_violations,omitempty"`
	// Marks are page.js linkMarks' times (ms from the navigation's start),
	// read at the first previews.
	Marks map[string]float64 `json:"marks,omitempty"`
}

func (r *dsResult) ok() bool { return r.Status == "" }

func dsFirst(r *dsResult) (float64, bool) { return r.FirstMs, r.ok() }

// dsAfterWasm is the time from app.wasm downloaded to the first previews:
// without the download's spread, which every way shares.
func dsAfterWasm(r *dsResult) (float64, bool) {
	w, ok := r.Marks["res:app.wasm"]
	return r.FirstMs - w, r.ok() && ok
}
func dsAll(r *dsResult) (float64, bool) {
	return r.AllOpenMs, r.ok() && r.AllStatus == "" && r.Check == ""
}

// dsRow is the runs of one format, way and build: a row of the table.
type dsRow struct {
	set   *shardSet
	way   string
	build string // "" or "baseline"
	runs  []*dsResult
}

// runDatasets measures every way of c.ways on every set, c.repeat times,
// taking turns (the opposite order every other round), with BENCH_BASELINE's
// build beside when there is one (origins[1]).
func runDatasets(c config, ds *dsServer, origins []string) []*dsRow {
	builds := []string{""}
	if len(origins) > 1 {
		builds = append(builds, "baseline")
	}
	var rows []*dsRow
	for _, s := range ds.sets {
		for _, w := range c.ways {
			for _, b := range builds {
				rows = append(rows, &dsRow{set: s, way: w, build: b})
			}
		}
	}
	inTurns(len(rows), c.repeat, func(k, j int) {
		row := rows[j]
		origin := origins[0]
		if row.build != "" {
			origin = origins[1]
		}
		logf("dataset: %s shards by %s%s (run %d of %d)", row.set.Format, row.way, map[string]string{"": "", "baseline": " (baseline)"}[row.build], k+1, c.repeat)
		r := measureDataset(c, ds, origin, row.set, row.way, row.build)
		logf("  %+v", *r)
		row.runs = append(row.runs, r)
	})
	return rows
}

// measureDataset opens the link of way to s in a fresh browser, from a
// page of origin (the build build serves), and waits for its first
// previews, then for every shard open.
func measureDataset(c config, ds *dsServer, origin string, s *shardSet, way, build string) *dsResult {
	r := &dsResult{Format: s.Format, Way: way, Build: build, WasmBytes: -1, JSHeapBytes: -1, RendererPeak: -1}
	t, err := newTab(time.Minute)
	if err != nil {
		r.Status = err.Error()
		return r
	}
	defer t.cancel()
	err = t.run(10*time.Second, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(fmt.Sprintf(`__bench.watchLink(%d)`, ms(c.timeout))).Do(ctx)
		return err
	}))
	var tr *tracer
	if err == nil && c.traceDir != "" {
		tr, err = t.startTrace(profilerCategory)
	}
	violations := len(ds.hub.Violations())
	ds.tl.Reset()
	if err == nil {
		err = t.run(time.Minute, chromedp.Navigate(origin+c.base+"?"+ds.link(origin, s, way)))
	}
	var first struct {
		Ms, DomMs, At float64
		Timeout       bool
		Error         string
	}
	if err == nil {
		err = t.eval(c.timeout+10*time.Second, `window.__benchLink`, &first)
	}
	if tr != nil {
		out := filepath.Join(c.traceDir, fmt.Sprintf("dataset.%s.%s%s.trace.json", s.Format, way, map[string]string{"baseline": ".baseline"}[build]))
		t.saveTrace(tr, out)
	}
	if r.Status = phaseStatus(err, first.Timeout, first.Error); r.Status == "" {
		r.FirstMs, r.DomMs = first.Ms, first.DomMs
		r.FirstBytes, r.FirstRequests = ds.tl.Before(epochTime(first.At))
		_ = t.eval(10*time.Second, `__bench.linkMarks()`, &r.Marks)
		var all struct {
			Ms, At  float64
			Rows    int64
			Timeout bool
			Error   string
		}
		err = t.eval(c.timeout+10*time.Second, fmt.Sprintf(`__bench.allOpen(%d)`, ms(c.timeout)), &all)
		if r.AllStatus = phaseStatus(err, all.Timeout, all.Error); r.AllStatus == "" {
			r.AllOpenMs, r.Rows = all.Ms, all.Rows
			r.AllBytes, r.AllRequests = ds.tl.Before(epochTime(all.At))
			if want := wantRows(s, way); r.Rows != want {
				r.Check = fmt.Sprintf("%d rows, want %d", r.Rows, want)
			}
		}
	}
	var mem struct{ WasmBytes, JSHeapBytes float64 }
	if r.Status != "crashed" && r.AllStatus != "crashed" && t.eval(20*time.Second, `__bench.memory()`, &mem) == nil {
		r.WasmBytes, r.JSHeapBytes = mem.WasmBytes, mem.JSHeapBytes
	}
	r.RendererPeak = t.rendererPeakRSS()
	r.PageError = t.lastError()
	r.HubViolations = len(ds.hub.Violations()) - violations
	return r
}

// inTurns calls run(k, j) for each round k of repeat and each of n
// measurements j, in order in even rounds and in the opposite order in
// odd ones, so that a slower spell of the machine falls on all of them.
func inTurns(n, repeat int, run func(k, j int)) {
	for k := range repeat {
		for i := range n {
			j := i
			if k%2 == 1 {
				j = n - 1 - i
			}
			run(k, j)
		}
	}
}

// epochTime is a time given as ms since the Unix epoch (the page's
// performance.timeOrigin + now()).
func epochTime(ms float64) time.Time {
	return time.UnixMicro(int64(ms * 1000))
}
