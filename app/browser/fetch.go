package browser

import (
	"context"
	"errors"
	"io"
	"strconv"
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/remote"
)

// Fetcher is remote.Fetcher over the browser's fetch: one GET with a
// Range header (CORS-safelisted for a single range, so no preflight), or
// with no header at all (remote.Request.Get), the body read as a stream;
// a range request bypasses the browser's HTTP cache (cache "no-store"):
// Chromium's cache, holding parts of a file, adds If-Range to the next
// range requests of its URL and, when several race, sends some of them
// twice (seen in e2e TestEarlyPages: 4 to 10 more than the 42 ranges of
// a file, in 3 of 20 runs on a loaded machine), and the
// app keeps what it read itself (app/decode's cache);
// the response's URL is where the redirects led (response.url). A
// rejected fetch is told apart as a CORS refusal
// (a second, no-cors fetch of the same URL gets an answer), the browser
// being offline, or a network error. A request that web/boot.js made
// while the app started (a dataset link's listing; a file link's probe
// and the read of its end) is taken from it instead of made again, when
// it is the same request (remote.Prefetch.Serves); one that turned out
// unusable (a range request not answered 206) is made again. Fetch blocks
// its goroutine: call it from ctx.Async, never from a JavaScript callback.
type Fetcher struct{}

type fetchResult struct {
	resp app.Value
	err  string
}

// Fetch implements remote.Fetcher.
func (Fetcher) Fetch(ctx context.Context, req remote.Request) (*remote.Response, error) {
	abort, fetched := bootPrefetched(req)
	var r fetchResult
	for {
		if fetched == nil {
			abort, fetched = fetchJS(req)
		}
		done := make(chan fetchResult, 1)
		Then(fetched, func(resp app.Value) {
			done <- fetchResult{resp: resp}
		}, func(reason string) {
			done <- fetchResult{err: reason}
		})
		select {
		case r = <-done:
		case <-ctx.Done():
			abort.Call("abort")
			return nil, ctx.Err()
		}
		if r.err != "" || r.resp.Truthy() {
			break
		}
		fetched = nil // a prefetch not usable: the request is made again
	}
	if r.err != "" {
		return nil, diagnose(ctx, req.URL, r.err)
	}
	h := r.resp.Get("headers")
	header := func(name string) string {
		if v := h.Call("get", name); v.Truthy() {
			return v.String()
		}
		return ""
	}
	length := int64(-1)
	if n, err := strconv.ParseInt(header("content-length"), 10, 64); err == nil && n >= 0 {
		length = n
	}
	body := &jsBody{abort: abort, ctx: ctx, reader: app.Undefined(), chunk: app.Undefined()}
	if b := r.resp.Get("body"); b.Truthy() {
		body.reader = b.Call("getReader")
	}
	return &remote.Response{
		Status:        r.resp.Get("status").Int(),
		Body:          body,
		ContentLength: length,
		ContentRange:  header("content-range"),
		ETag:          header("etag"),
		LastModified:  header("last-modified"),
		URL:           r.resp.Get("url").String(),
		Header:        header,
	}, nil
}

// fetchJS starts req with the browser's fetch: its AbortController and
// the promise of its Response.
func fetchJS(req remote.Request) (abort, fetched app.Value) {
	abort = app.Window().Get("AbortController").New()
	opts := map[string]any{"signal": abort.Get("signal")}
	if req.Head {
		opts["method"] = "HEAD"
	} else if h := req.Header(); h != "" {
		opts["headers"] = map[string]any{"Range": h}
		opts["cache"] = "no-store"
	}
	return abort, app.Window().Call("fetch", req.URL, opts)
}

// bootPrefetched takes what web/boot.js fetched for req while the app
// started: its AbortController and the promise of its Response (or of
// null: make the request again), or nils.
func bootPrefetched(req remote.Request) (abort, fetched app.Value) {
	if bootReleased.Load() {
		return nil, nil
	}
	boot := bootScript("prefetches", "takePrefetch")
	if boot == nil {
		return nil, nil
	}
	list := boot.Call("prefetches")
	held := make([]remote.Prefetch, list.Length())
	for i := range held {
		e := list.Index(i)
		held[i] = remote.Prefetch{ID: e.Get("id").Int(), URL: e.Get("url").String(), Final: e.Get("final").String(), Range: e.Get("range").String()}
	}
	p, ok := remote.Match(held, req)
	if !ok {
		return nil, nil
	}
	if pre := boot.Call("takePrefetch", p.ID); pre.Truthy() {
		return pre.Get("abort"), pre.Get("response")
	}
	return nil, nil
}

// bootScript is window.tensorviewBoot (web/boot.js) when it has the
// functions named, else nil.
func bootScript(funcs ...string) app.Value {
	boot := app.Window().Get("tensorviewBoot")
	if !boot.Truthy() {
		return nil
	}
	for _, f := range funcs {
		if boot.Get(f).Type() != app.TypeFunction {
			return nil
		}
	}
	return boot
}

// ReleaseBoot tells web/boot.js that the app has opened the file its
// address named (or failed to): the requests it made for the app that the
// app did not take are aborted, a Parquet reader's worker not adopted is
// terminated.
func ReleaseBoot() {
	bootReleased.Store(true)
	if boot := bootScript("release"); boot != nil {
		boot.Call("release")
	}
}

// bootReleased is set once ReleaseBoot ran: web/boot.js holds nothing
// more.
var bootReleased atomic.Bool

// bootWorker is the Parquet reader's worker web/boot.js holds, once, or
// nil: with "takeWorker" and a url, the one started for the file at url
// while the app started; with "takeSpare", the one started ahead of a file
// about to be picked or dropped.
func bootWorker(take string, args ...any) app.Value {
	boot := bootScript(take)
	if boot == nil {
		return nil
	}
	if w := boot.Call(take, args...); w.Truthy() {
		return w
	}
	return nil
}

// diagnose tells why a fetch was rejected (browsers give the page one
// TypeError for all of them): offline, CORS (the same URL answers an opaque
// no-cors request, so the server is there but does not allow this page),
// or the network.
func diagnose(ctx context.Context, url, reason string) error {
	if on := app.Window().Get("navigator").Get("onLine"); on.Type() == app.TypeBoolean && !on.Bool() {
		return &remote.NetworkError{URL: url, Offline: true, Reason: reason}
	}
	answered := make(chan bool, 1)
	abort := app.Window().Get("AbortController").New()
	Then(app.Window().Call("fetch", url, map[string]any{"mode": "no-cors", "signal": abort.Get("signal")}), func(resp app.Value) {
		abort.Call("abort") // only whether it answers matters
		answered <- true
	}, func(string) { answered <- false })
	select {
	case ok := <-answered:
		if ok {
			return &remote.CORSError{URL: url, Origin: app.Window().Get("location").Get("origin").String()}
		}
	case <-ctx.Done():
		abort.Call("abort")
		return ctx.Err()
	}
	return &remote.NetworkError{URL: url, Reason: reason}
}

// jsBody reads a fetch Response's body stream. Close aborts the transfer.
type jsBody struct {
	ctx    context.Context
	abort  app.Value
	reader app.Value // ReadableStreamDefaultReader, or undefined for no body
	chunk  app.Value // Uint8Array being consumed
	off    int
	done   bool
}

type chunkResult struct {
	value app.Value
	done  bool
	err   string
}

// next waits for the stream's next chunk.
func (b *jsBody) next() (app.Value, bool, error) {
	res := make(chan chunkResult, 1)
	Then(b.reader.Call("read"), func(r app.Value) {
		res <- chunkResult{value: r.Get("value"), done: r.Get("done").Bool()}
	}, func(reason string) { res <- chunkResult{err: reason} })
	select {
	case r := <-res:
		if r.err != "" {
			return app.Null(), false, &remote.NetworkError{URL: "the file", Reason: "the transfer broke off: " + r.err}
		}
		return r.value, r.done, nil
	case <-b.ctx.Done():
		b.abort.Call("abort")
		return app.Null(), false, b.ctx.Err()
	}
}

// Read implements io.Reader.
func (b *jsBody) Read(p []byte) (int, error) {
	if !b.reader.Truthy() || b.done {
		return 0, io.EOF
	}
	for !b.chunk.Truthy() || b.off >= b.chunk.Length() {
		v, done, err := b.next()
		if err != nil {
			return 0, err
		}
		if done {
			b.done = true
			return 0, io.EOF
		}
		b.chunk, b.off = v, 0
	}
	end := min(b.chunk.Length(), b.off+len(p))
	n := app.CopyBytesToGo(p, b.chunk.Call("subarray", b.off, end))
	b.off += n
	return n, nil
}

// Close implements io.Closer: it stops the transfer.
func (b *jsBody) Close() error {
	if !b.done {
		b.done = true
		b.abort.Call("abort")
	}
	return nil
}

// ErrTooBig is Download's error for a body longer than its limit.
var ErrTooBig = errors.New("too big to download whole")

// Download reads the rest of resp's body (a response of Fetcher) into a
// browser Blob without copying it into Go memory, calling progress with the
// bytes received after each chunk, and fails with ErrTooBig past limit
// bytes. It blocks its goroutine, as Fetch does.
func Download(resp *remote.Response, limit int64, progress func(done int64)) (app.Value, error) {
	body, ok := resp.Body.(*jsBody)
	if !ok {
		resp.Body.Close()
		return app.Null(), errors.New("the response is not one of the browser's fetch")
	}
	return body.download(limit, progress)
}

// download is Download of b.
func (b *jsBody) download(limit int64, progress func(done int64)) (app.Value, error) {
	chunks := app.Window().Get("Array").New()
	var got int64
	for b.reader.Truthy() {
		v, done, err := b.next()
		if err != nil {
			return app.Null(), err
		}
		if done {
			break
		}
		got += int64(v.Length())
		if got > limit {
			b.Close()
			return app.Null(), ErrTooBig
		}
		chunks.Call("push", v)
		progress(got)
	}
	b.done = true
	return app.Window().Get("Blob").New(chunks), nil
}
