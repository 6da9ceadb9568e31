//go:build !wasm

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	cdpio "github.com/chromedp/cdproto/io"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"

	"github.com/tensorview/tensorview/internal/chromium"
)

// load is one page load's figures, in milliseconds from the navigation's
// start (performance.now() in the page); 0 when the page did not report it.
type load struct {
	Build string `json:"build"`
	Round int    `json:"round"`
	Kind  string `json:"kind"` // "cold", "warm1", "warm2", …
	// Empty is when the viewer's root first had data-state="empty" in the
	// DOM: the server-rendered page when it is the empty page, else the
	// wasm's first render of it.
	Empty float64 `json:"empty_ms"`
	// Painted is the first frame with data-state="empty" (the first
	// requestAnimationFrame after Empty, which runs once the page's
	// render-blocking styles and scripts are in): the first usable paint.
	Painted float64 `json:"empty_painted_ms"`
	// Ready is when the wasm's app had mounted: the viewer's root first had
	// data-ready="true", or, for a build without that attribute (before
	// web/boot.js), data-state="empty".
	Ready float64 `json:"ready_ms"`
	// FCP is the first contentful paint (of the server-rendered page).
	FCP float64 `json:"fcp_ms"`
	// WasmEnd is the responseEnd of the app.wasm fetch (resource timing).
	WasmEnd float64 `json:"wasm_fetched_ms"`
	// WasmBytes is the app.wasm fetch's transferSize (0 from a cache).
	WasmBytes float64 `json:"wasm_transfer_bytes"`
	// Instantiated is when WebAssembly.instantiateStreaming (or
	// instantiate) resolved: the module compiled and instantiated, before
	// the Go program runs.
	Instantiated float64 `json:"instantiated_ms"`
}

// bootJS runs before the page's scripts on every load: it notes the first
// time the viewer's root has data-state="empty" (a MutationObserver, so the
// time is that of the DOM change, before the frame is painted), the frame
// after it, the first time the app is ready (data-ready="true", or
// data-state="empty" on a root without data-ready) and when WebAssembly's
// instantiation resolves.
const bootJS = `(() => {
  const m = window.__boot = {};
  for (const name of ["instantiateStreaming", "instantiate"]) {
    const f = WebAssembly[name];
    if (!f) continue;
    WebAssembly[name] = function (...args) {
      return f.apply(this, args).then((r) => {
        if (m.instantiated === undefined) m.instantiated = performance.now();
        return r;
      });
    };
  }
  const check = () => {
    if (m.empty === undefined && document.querySelector('[data-state="empty"]')) {
      m.empty = performance.now();
      requestAnimationFrame(() => { m.painted = performance.now(); });
    }
    if (m.ready === undefined && document.querySelector('[data-ready="true"], [data-state="empty"]:not([data-ready])')) {
      m.ready = performance.now();
    }
    if (m.empty !== undefined && m.ready !== undefined) obs.disconnect();
  };
  const obs = new MutationObserver(check);
  obs.observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ["data-state", "data-ready"]});
})();`

// resultJS waits until the app is ready and its empty page painted, and
// returns the load's figures.
const resultJS = `new Promise((resolve) => {
  const done = () => {
    const m = window.__boot || {};
    const fcp = performance.getEntriesByName("first-contentful-paint")[0];
    const wasm = performance.getEntriesByType("resource").find((e) => e.name.endsWith("/app.wasm"));
    resolve({
      empty_ms: m.empty || 0,
      empty_painted_ms: m.painted || 0,
      ready_ms: m.ready || 0,
      fcp_ms: fcp ? fcp.startTime : 0,
      wasm_fetched_ms: wasm ? wasm.responseEnd : 0,
      wasm_transfer_bytes: wasm ? wasm.transferSize : 0,
      instantiated_ms: m.instantiated || 0,
    });
  };
  const poll = () => {
    const m = window.__boot;
    (m && m.painted !== undefined && m.ready !== undefined) ? done() : setTimeout(poll, 20);
  };
  poll();
})`

// cachedJS waits until the service worker is active and its cache holds
// the wasm (go-app's worker adds all its resources at once on install).
const cachedJS = `(async () => {
  if (!("serviceWorker" in navigator)) return false;
  await navigator.serviceWorker.ready;
  for (;;) {
    for (const key of await caches.keys()) {
      const cache = await caches.open(key);
      const keys = await cache.keys();
      if (keys.some((r) => r.url.endsWith("/app.wasm"))) return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
})()`

// measure starts a fresh browser, loads url cold and then warm times, and
// returns the figures of each load. With tracePrefix, the cold load and the
// last warm one are recorded as Chrome traces to tracePrefix+".cold.json"
// and tracePrefix+".warmN.json".
func measure(url string, warm int, timeout time.Duration, tracePrefix string) ([]load, error) {
	br, err := chromium.Start()
	if err != nil {
		return nil, err
	}
	defer br.Close()
	ctx := br.Ctx
	// The first Run starts the browser and must not have a deadline.
	if err := chromedp.Run(ctx); err != nil {
		return nil, fmt.Errorf("starting chromium: %w", err)
	}
	var pageErr error
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok && pageErr == nil {
			pageErr = errors.New(e.ExceptionDetails.Error())
		}
	})
	if err := runFor(ctx, timeout, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(bootJS).Do(ctx)
		return err
	})); err != nil {
		return nil, err
	}
	var loads []load
	for i := 0; i <= warm; i++ {
		kind := "cold"
		if i > 0 {
			kind = fmt.Sprintf("warm%d", i)
			var cached bool
			if err := runFor(ctx, timeout, evalAwait(cachedJS, &cached)); err != nil {
				return loads, fmt.Errorf("waiting for the service worker's cache: %w", err)
			}
			if !cached {
				return loads, errors.New("the page has no service worker")
			}
		}
		var trace *tracer
		tracePath := tracePrefix + "." + kind + ".json"
		if tracePrefix != "" && (i == 0 || i == warm) {
			if trace, err = startTrace(ctx); err != nil {
				return loads, err
			}
		}
		var l load
		err := runFor(ctx, timeout, chromedp.Navigate(url), evalAwait(resultJS, &l))
		if trace != nil {
			if terr := trace.stop(ctx, tracePath); err == nil {
				err = terr
			}
		}
		if err != nil {
			if pageErr != nil {
				err = fmt.Errorf("%w (page: %v)", err, pageErr)
			}
			return loads, fmt.Errorf("%s load: %w", kind, err)
		}
		l.Kind = kind
		loads = append(loads, l)
	}
	return loads, nil
}

func runFor(ctx context.Context, timeout time.Duration, actions ...chromedp.Action) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return chromedp.Run(ctx, actions...)
}

func evalAwait(js string, out any) chromedp.Action {
	return chromedp.Evaluate(js, out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	})
}

// tracer records a Chrome trace (the categories DevTools' Performance panel
// records, plus V8's wasm compilation).
type tracer struct{ done chan cdpio.StreamHandle }

func startTrace(ctx context.Context) (*tracer, error) {
	t := &tracer{done: make(chan cdpio.StreamHandle, 1)}
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*tracing.EventTracingComplete); ok {
			t.done <- e.Stream
		}
	})
	cats := []string{
		"devtools.timeline", "disabled-by-default-devtools.timeline", "disabled-by-default-devtools.timeline.frame",
		"blink.user_timing", "loading", "navigation", "v8", "v8.execute", "v8.wasm", "disabled-by-default-v8.wasm.detailed",
		"disabled-by-default-v8.compile", "toplevel", "netlog",
	}
	err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		return tracing.Start().
			WithTransferMode(tracing.TransferModeReturnAsStream).
			WithTraceConfig(&tracing.TraceConfig{IncludedCategories: cats}).Do(ctx)
	}))
	return t, err
}

func (t *tracer) stop(ctx context.Context, path string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		return tracing.End().Do(ctx)
	})); err != nil {
		return err
	}
	var stream cdpio.StreamHandle
	select {
	case stream = <-t.done:
	case <-ctx.Done():
		return fmt.Errorf("waiting for the trace: %w", ctx.Err())
	}
	var buf bytes.Buffer
	err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		for {
			data, eof, err := cdpio.Read(stream).Do(ctx)
			if err != nil {
				return err
			}
			buf.WriteString(data)
			if eof {
				return cdpio.Close(stream).Do(ctx)
			}
		}
	}))
	if err != nil {
		return err
	}
	// The stream is JSON text (the default stream format, uncompressed).
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
