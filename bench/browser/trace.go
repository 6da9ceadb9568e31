package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// traceCategories are the Chromium trace categories BENCH_TRACE records:
// what DevTools' Performance panel shows (tasks, style, layout, paint,
// scripts, timers, frames); BENCH_TRACE_CATEGORIES (comma-separated)
// replaces them.
var traceCategories = []string{
	"devtools.timeline", "disabled-by-default-devtools.timeline", "disabled-by-default-devtools.timeline.frame",
	"blink.user_timing", "loading", "latencyInfo", "v8.execute", "toplevel",
}

// tracer collects a Chromium trace of the tab's page.
type tracer struct {
	mu     sync.Mutex
	events []json.RawMessage
	done   chan struct{}
}

// startTrace starts recording a trace of the page (BENCH_TRACE), with
// the categories extra besides traceCategories (or BENCH_TRACE_CATEGORIES).
func (t *tab) startTrace(extra ...string) (*tracer, error) {
	tr := &tracer{done: make(chan struct{})}
	var once sync.Once
	chromedp.ListenTarget(t.ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			tr.mu.Lock()
			for _, m := range e.Value {
				tr.events = append(tr.events, json.RawMessage(m))
			}
			tr.mu.Unlock()
		case *tracing.EventTracingComplete:
			once.Do(func() { close(tr.done) })
		}
	})
	cats := traceCategories
	if v := os.Getenv("BENCH_TRACE_CATEGORIES"); v != "" {
		cats = strings.Split(v, ",")
	}
	cats = append(slices.Clip(cats), extra...)
	err := t.run(10*time.Second, chromedp.ActionFunc(func(ctx context.Context) error {
		return tracing.Start().WithTransferMode(tracing.TransferModeReportEvents).
			WithTraceConfig(&tracing.TraceConfig{IncludedCategories: cats}).Do(ctx)
	}))
	return tr, err
}

// stopTrace ends the trace and writes it to path in the Trace Event
// Format (for DevTools' Performance panel or ui.perfetto.dev).
func (t *tab) stopTrace(tr *tracer, path string) error {
	if err := t.run(10*time.Second, tracing.End()); err != nil {
		return err
	}
	select {
	case <-tr.done:
	case <-time.After(30 * time.Second):
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	data, err := json.Marshal(map[string]any{"traceEvents": tr.events})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// saveTrace ends the trace, writes it to path (stopTrace) and logs where,
// with its long tasks (logLongTasks); a failure is logged.
func (t *tab) saveTrace(tr *tracer, path string) {
	if err := t.stopTrace(tr, path); err != nil {
		logf("  trace: %v", err)
		return
	}
	logf("  trace in %s", path)
	logLongTasks(path)
}
