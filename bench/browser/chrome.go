package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/tensorview/tensorview/internal/chromium"
)

//go:embed page.js
var pageJS string

// tab is a page in a headless Chromium of its own: every measurement starts
// a browser, so that one file's memory or a hung or crashed page does not
// affect the next.
type tab struct {
	ctx    context.Context
	cancel func()
	mu     sync.Mutex
	errs   []string // page exceptions and console errors, last few
	crash  chan struct{}
}

var errCrashed = errors.New("the page crashed (out of memory?)")

// newTab starts Debian's chromium as the tests do (internal/chromium), plus
// precise memory info, and opens an empty page with page.js installed.
func newTab(timeout time.Duration) (*tab, error) {
	br, err := chromium.Start(chromedp.Flag("enable-precise-memory-info", true))
	if err != nil {
		return nil, err
	}
	ctx := br.Ctx
	t := &tab{ctx: ctx, cancel: br.Close, crash: make(chan struct{})}
	var once sync.Once
	chromedp.ListenTarget(ctx, func(ev any) {
		switch e := ev.(type) {
		case *inspector.EventTargetCrashed:
			once.Do(func() { close(t.crash) })
		case *runtime.EventExceptionThrown:
			t.note("exception: " + e.ExceptionDetails.Error())
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError {
				var parts []string
				for _, a := range e.Args {
					if a.Value != nil {
						parts = append(parts, strings.Trim(string(a.Value), `"`))
					} else if a.Description != "" {
						parts = append(parts, a.Description)
					}
				}
				t.note("console.error: " + strings.Join(parts, " "))
			}
		}
	})
	// The first Run starts the browser and must not have a deadline of its
	// own: its context's end would close the browser.
	start := make(chan error, 1)
	go func() { start <- chromedp.Run(ctx) }()
	select {
	case err = <-start:
	case <-time.After(timeout):
		err = context.DeadlineExceeded
	}
	if err != nil {
		t.cancel()
		return nil, fmt.Errorf("starting chromium: %w", err)
	}
	err = t.run(timeout, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(pageJS).Do(ctx)
		return err
	}))
	if err != nil {
		t.cancel()
		return nil, fmt.Errorf("starting chromium: %w", err)
	}
	return t, nil
}

func (t *tab) note(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	t.errs = append(t.errs, s)
	if len(t.errs) > 8 {
		t.errs = t.errs[len(t.errs)-8:]
	}
}

// lastError is the last page exception or console error, if any.
func (t *tab) lastError() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.errs) == 0 {
		return ""
	}
	return t.errs[len(t.errs)-1]
}

// run runs actions with a timeout; a crash of the page ends it early with
// errCrashed, the timeout with context.DeadlineExceeded.
func (t *tab) run(timeout time.Duration, actions ...chromedp.Action) error {
	ctx, cancel := context.WithTimeoutCause(t.ctx, timeout, context.DeadlineExceeded)
	defer cancel()
	go func() {
		select {
		case <-t.crash:
			cancel()
		case <-ctx.Done():
		}
	}()
	err := chromedp.Run(ctx, actions...)
	select {
	case <-t.crash:
		return errCrashed
	default:
	}
	if err != nil && ctx.Err() != nil && t.ctx.Err() == nil {
		return context.DeadlineExceeded
	}
	return err
}

// eval evaluates JavaScript, awaiting a promise, into out.
func (t *tab) eval(timeout time.Duration, js string, out any) error {
	return t.run(timeout, chromedp.Evaluate(js, out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	}))
}

// heap returns the page's V8 heap in use and the bytes of its ArrayBuffer
// backing stores (the file's bytes, the wasm memory).
func (t *tab) heap(timeout time.Duration) (used, backing float64, err error) {
	err = t.run(timeout, chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		used, _, _, backing, err = runtime.GetHeapUsage().Do(ctx)
		return err
	}))
	return used, backing, err
}

// status names an error for the results table.
func status(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, errCrashed):
		return "crashed"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return err.Error()
}

// startProfile starts V8's sampling CPU profiler (100 µs samples).
func (t *tab) startProfile() error {
	return t.run(10*time.Second, chromedp.ActionFunc(func(ctx context.Context) error {
		if err := profiler.Enable().Do(ctx); err != nil {
			return err
		}
		if err := profiler.SetSamplingInterval(100).Do(ctx); err != nil {
			return err
		}
		return profiler.Start().Do(ctx)
	}))
}

// stopProfile stops the profiler and writes its profile as JSON to path.
func (t *tab) stopProfile(path string) error {
	return t.run(time.Minute, chromedp.ActionFunc(func(ctx context.Context) error {
		p, err := profiler.Stop().Do(ctx)
		if err != nil {
			return err
		}
		data, err := json.Marshal(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, data, 0o644)
	}))
}

// metrics returns Chromium's cumulative counters of the page's main thread
// (Performance.getMetrics): the seconds spent in layout (LayoutDuration),
// style recalculation (RecalcStyleDuration), scripts (ScriptDuration) and
// tasks (TaskDuration), and the number of layouts (LayoutCount), by name.
func (t *tab) metrics() (map[string]float64, error) {
	out := map[string]float64{}
	err := t.run(10*time.Second, chromedp.ActionFunc(func(ctx context.Context) error {
		if err := performance.Enable().Do(ctx); err != nil {
			return err
		}
		ms, err := performance.GetMetrics().Do(ctx)
		for _, m := range ms {
			out[m.Name] = m.Value
		}
		return err
	}))
	return out, err
}

// openEmpty navigates to tensorview's page at addr and waits for its empty
// page's drop zone, and when warmedUp for its warm-up to be over too
// (app/ui/warmup.go: data-warm-up set; a file chosen sooner skips it).
func (t *tab) openEmpty(addr string, warmedUp bool) error {
	sel := "[data-state=empty][data-ready=true] [data-role=dropzone]"
	if warmedUp {
		sel = `[data-state=empty][data-ready=true]:not([data-warm-up=""]) [data-role=dropzone]`
	}
	var ok struct{ Timeout bool }
	err := t.run(time.Minute, chromedp.Navigate(addr))
	if err == nil {
		err = t.eval(time.Minute, fmt.Sprintf(`__bench.waitFor(() => document.querySelector(%q), 55000)`, sel), &ok)
	}
	if err == nil && ok.Timeout {
		err = fmt.Errorf("the page did not start (no drop zone %s)", sel)
	}
	return err
}
