package browser

import (
	"context"
	"errors"
	"io"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/remote"
)

// Fetcher is remote.Fetcher over the browser's fetch: one GET with a
// Range header (CORS-safelisted for a single range, so no preflight), or
// with no header at all (remote.Request.Get), the body read as a stream;
// the response's URL is where the redirects led (response.url). A
// rejected fetch is told apart as a CORS refusal
// (a second, no-cors fetch of the same URL gets an answer), the browser
// being offline, or a network error. A plain GET that web/boot.js made
// while the app started (a dataset link's listing) is taken from it
// instead of made again. Fetch blocks its goroutine: call it from
// ctx.Async, never from a JavaScript callback.
type Fetcher struct{}

type fetchResult struct {
	resp app.Value
	err  string
}

// Fetch implements remote.Fetcher.
func (Fetcher) Fetch(ctx context.Context, req remote.Request) (*remote.Response, error) {
	abort := app.Window().Get("AbortController").New()
	var fetched app.Value
	if pre := bootPrefetched(req); pre.Truthy() {
		abort, fetched = pre.Get("abort"), pre.Get("response")
	} else {
		opts := map[string]any{"signal": abort.Get("signal")}
		if req.Head {
			opts["method"] = "HEAD"
		} else if h := req.Header(); h != "" {
			opts["headers"] = map[string]any{"Range": h}
		}
		fetched = app.Window().Call("fetch", req.URL, opts)
	}
	done := make(chan fetchResult, 1)
	Then(fetched, func(resp app.Value) {
		done <- fetchResult{resp: resp}
	}, func(reason string) {
		done <- fetchResult{err: reason}
	})
	var r fetchResult
	select {
	case r = <-done:
	case <-ctx.Done():
		abort.Call("abort")
		return nil, ctx.Err()
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

// bootPrefetched is what web/boot.js fetched for req while the app
// started ({response, abort}: a dataset link's listing), or undefined:
// only a plain GET can be one.
func bootPrefetched(req remote.Request) app.Value {
	boot := app.Window().Get("tensorviewBoot")
	if !req.Get || req.Head || !boot.Truthy() || boot.Get("prefetched").Type() != app.TypeFunction {
		return app.Undefined()
	}
	return boot.Call("prefetched", req.URL)
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
