package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/internal/perfmark"
)

// parquetWorkerURL is the Parquet reader's worker script, relative to the
// page (web/parquet-worker.js; the site's base is the page's directory).
const parquetWorkerURL = "web/parquet-worker.js"

// parquetTimeout is how long the Parquet reader may take to open a file or
// answer a read before it is taken for hung (a wasm trap can leave its
// promise unsettled) and restarted.
const parquetTimeout = 60 * time.Second

// maxRangeRead bounds one byte range the worker asks the page for (a file
// by URL): arrow-rs asks for a footer or a column chunk, which readGuard
// has bounded by the cache budget already.
const maxRangeRead = 1 << 30

// errRestarted is the error of a request whose worker was restarted (by
// another request's trap or timeout) before it answered.
var errRestarted = errors.New("the Parquet reader was restarted")

// trapError is the error of a request during which the Parquet reader's
// wasm trapped (a RuntimeError such as "unreachable": arrow-rs panicked).
type trapError struct{ msg string }

func (e *trapError) Error() string {
	return "parquet-wasm crashed (" + e.msg + ": a corrupt page or an encoding it cannot read?) and was restarted"
}

// engineError is the error of a read that the worker's engine named
// (hyparquet, or parquet-wasm: web/parquet-worker.js) failed.
type engineError struct{ engine, msg string }

func (e *engineError) Error() string { return e.msg }

// errClosed is the error of a request after Close.
var errClosed = errors.New("the Parquet file is closed")

// parquetWorker runs web/parquet-worker.js, one file open in it, and
// restarts it (re-opening the file) after a request trapped or hung, or
// after its wasm memory grew past memLimit (it never shrinks; the worker
// reports 0 while it reads with hyparquet, whose memory the JavaScript
// garbage collector frees, and parquet-wasm's once that is loaded). Requests
// may come from several goroutines; none may come from a JavaScript
// callback (they block until the worker answers).
type parquetWorker struct {
	blob     app.Value   // a Blob to read, nil for reader
	reader   io.ReaderAt // the file's bytes when blob is nil (a file by URL)
	url      string      // the file's address when it is read by URL ("": none)
	size     int64
	memLimit int64
	// keepBytes bounds the file's bytes the worker keeps from one read to
	// the next (the column chunks the windows of a row group read again).
	keepBytes int64
	// turn lets one request at a time be sent: the worker answers them in
	// order, so a request's timeout counts its own work, not the queue's.
	turn chan struct{}

	mu      sync.Mutex
	w       app.Value     // the running worker (nil: none yet, or stopped)
	gen     int           // counts the workers started
	ready   chan struct{} // closed when the running worker answered open
	openErr error         // its answer's error
	opened  app.Value     // its answer: {meta, schema}
	funcs   []app.Func    // the running worker's event handlers
	nextID  int
	pending map[int]pendingCall
	closed  bool
	used    time.Time // when a request last ended (live workers)
}

// maxLiveWorkers is how many Parquet readers run at once. Each is a Web
// Worker with its own engine (hyparquet, a few MB of heap, or a
// parquet-wasm instance, tens of MB): the shards of a
// dataset (decode.OpenDataset) each have one, so starting another stops
// the one idle longest, which starts again (opening its file again) when
// its file is next read.
const maxLiveWorkers = 3

// live lists the workers running, for maxLiveWorkers.
var live struct {
	mu      sync.Mutex
	workers []*parquetWorker
}

// admit makes room for p's worker to start: it stops the idle workers
// that have waited longest while maxLiveWorkers run (a worker busy with a
// request is never stopped, so more may run for a while). No worker's mu
// is held.
func admit(p *parquetWorker) {
	live.mu.Lock()
	live.workers = append(slices.DeleteFunc(live.workers, func(o *parquetWorker) bool { return o == p }), p)
	live.mu.Unlock()
	trim(p)
}

// trim stops the idle workers that have waited longest, but keep, while
// more than maxLiveWorkers run (a worker busy with a request is never
// stopped, so more may run for a while: trim runs again as each request
// ends). No worker's mu is held.
func trim(keep *parquetWorker) {
	live.mu.Lock()
	var idle []*parquetWorker
	if len(live.workers) > maxLiveWorkers {
		idle = slices.DeleteFunc(slices.Clone(live.workers), func(o *parquetWorker) bool { return o == keep })
	}
	live.mu.Unlock()
	slices.SortFunc(idle, func(a, b *parquetWorker) int { return a.lastUsed().Compare(b.lastUsed()) })
	for _, o := range idle {
		live.mu.Lock()
		n := len(live.workers)
		live.mu.Unlock()
		if n <= maxLiveWorkers {
			return
		}
		o.stopIdle()
	}
}

// lastUsed is when p's last request ended.
func (p *parquetWorker) lastUsed() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.used
}

// stopIdle stops p's worker when it runs no request, to free its memory
// for another's (admit).
func (p *parquetWorker) stopIdle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w == nil || len(p.pending) > 0 || len(p.turn) > 0 {
		return
	}
	select {
	case <-p.ready:
	default:
		return // still opening
	}
	p.stopLocked(errRestarted)
}

// gone takes p off the live list.
func gone(p *parquetWorker) {
	live.mu.Lock()
	defer live.mu.Unlock()
	live.workers = slices.DeleteFunc(live.workers, func(o *parquetWorker) bool { return o == p })
}

// pendingCall is a request waiting for its answer.
type pendingCall struct {
	gen int
	ch  chan workerAnswer
}

// workerAnswer is the worker's answer to a request: its message, or an
// error (trapped: the wasm instance trapped and must be restarted).
type workerAnswer struct {
	msg     app.Value
	err     error
	trapped bool
}

func newParquetWorker(blob app.Value, reader io.ReaderAt, url string, size, memLimit, keepBytes int64) *parquetWorker {
	return &parquetWorker{blob: blob, reader: reader, url: url, size: size, memLimit: memLimit, keepBytes: keepBytes, turn: make(chan struct{}, 1), pending: map[int]pendingCall{}}
}

// start runs a fresh worker and asks it to open the file; p.mu is held.
// The first one of a file by URL is the worker web/boot.js started for
// that address while the app started (the same script, its engine loaded
// or loading meanwhile), when there is one; else the first one of a file
// is the one web/boot.js started on a sign that a file was about to be
// picked or dropped, when there is one.
func (p *parquetWorker) start() {
	p.gen++
	gen := p.gen
	var w app.Value
	if gen == 1 && p.blob == nil && p.url != "" {
		w = bootWorker("takeWorker", p.url)
	}
	if w == nil && gen == 1 {
		w = bootWorker("takeSpare")
	}
	if w == nil {
		opts := app.Window().Get("Object").New()
		opts.Set("type", "module")
		w = app.Window().Get("Worker").New(parquetWorkerURL, opts)
	}
	onMessage := app.FuncOf(func(this app.Value, args []app.Value) any {
		p.onMessage(gen, w, args[0].Get("data"))
		return nil
	})
	onError := app.FuncOf(func(this app.Value, args []app.Value) any {
		// The worker's script or the module it imports failed to load or
		// threw outside a request: every request of it fails.
		msg := "its script failed to load"
		if m := args[0].Get("message"); m.Truthy() {
			msg = m.String()
		}
		p.stop(gen, fmt.Errorf("the Parquet reader stopped: %s", msg))
		return nil
	})
	w.Set("onmessage", onMessage)
	w.Set("onerror", onError)
	p.w, p.funcs = w, []app.Func{onMessage, onError}
	p.ready, p.openErr, p.opened = make(chan struct{}), nil, nil
	ready := p.ready

	open := app.Window().Get("Object").New()
	open.Set("op", "open")
	open.Set("keepBytes", float64(p.keepBytes))
	if p.blob != nil {
		open.Set("blob", p.blob)
	} else {
		open.Set("size", float64(p.size))
	}
	ch := p.postLocked(gen, open)
	go func() {
		var a workerAnswer
		select {
		case a = <-ch:
		case <-time.After(parquetTimeout):
			a.err = fmt.Errorf("the Parquet reader did not open the file within %v", parquetTimeout)
			p.stop(gen, a.err)
		}
		p.mu.Lock()
		if p.gen == gen {
			p.openErr, p.opened = a.err, a.msg
		}
		p.mu.Unlock()
		close(ready)
	}()
}

// postLocked sends msg (an object without its id) to the running worker of
// generation gen and returns where its answer will come; p.mu is held.
func (p *parquetWorker) postLocked(gen int, msg app.Value, transfer ...any) chan workerAnswer {
	id := p.nextID
	p.nextID++
	msg.Set("id", id)
	ch := make(chan workerAnswer, 1)
	p.pending[id] = pendingCall{gen: gen, ch: ch}
	if len(transfer) > 0 {
		p.w.Call("postMessage", msg, transfer)
	} else {
		p.w.Call("postMessage", msg)
	}
	return ch
}

// onMessage handles a message of worker w (generation gen). It runs in a
// JavaScript callback: it never blocks.
func (p *parquetWorker) onMessage(gen int, w app.Value, data app.Value) {
	switch op := data.Get("op"); {
	case op.Type() != app.TypeString:
	case op.String() == "range":
		go p.serveRange(gen, w, data.Get("rid").Int(), int64(data.Get("start").Float()), int64(data.Get("end").Float()))
		return
	default:
		return // {op: "early"}: the early reading's end, for web/boot.js
	}
	if perfmark.On {
		switch {
		case data.Get("meta").Truthy():
			perfmark.Mark("parquet-opened") // the worker's answer to open, before the page reads it
		case data.Get("ipc").Truthy():
			perfmark.Mark("parquet-read") // and to a read
		}
	}
	id := data.Get("id").Int()
	p.mu.Lock()
	c, ok := p.pending[id]
	delete(p.pending, id)
	p.mu.Unlock()
	if !ok || c.gen != gen {
		return // a request that gave up (cancelled, timed out)
	}
	a := workerAnswer{msg: data}
	if e := data.Get("error"); e.Truthy() {
		var err error = errors.New(e.String())
		if engine := data.Get("engine"); engine.Truthy() {
			err = &engineError{engine: engine.String(), msg: e.String()}
		}
		a = workerAnswer{err: err, trapped: data.Get("trapped").Truthy()}
	}
	c.ch <- a
}

// serveRange answers the worker's request for bytes [start, end) of a file
// by URL from p.reader (in its own goroutine: the reader blocks).
func (p *parquetWorker) serveRange(gen int, w app.Value, rid int, start, end int64) {
	reply := app.Window().Get("Object").New()
	reply.Set("op", "range")
	reply.Set("rid", rid)
	var u8 app.Value
	switch {
	case start < 0 || end < start || end > p.size:
		reply.Set("error", fmt.Sprintf("bytes %d to %d are outside the file (%d bytes)", start, end, p.size))
	case end-start > maxRangeRead:
		reply.Set("error", fmt.Sprintf("a read of %d bytes at once is more than %d", end-start, maxRangeRead))
	default:
		buf := make([]byte, end-start)
		n, err := p.reader.ReadAt(buf, start)
		if n == len(buf) {
			err = nil
		}
		if err != nil {
			reply.Set("error", err.Error())
			break
		}
		u8 = app.Window().Get("Uint8Array").New(len(buf))
		app.CopyBytesToJS(u8, buf)
		reply.Set("bytes", u8.Get("buffer"))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gen != gen || p.closed {
		return // that worker is gone
	}
	if u8 != nil {
		w.Call("postMessage", reply, []any{u8.Get("buffer")})
	} else {
		w.Call("postMessage", reply)
	}
}

// stop terminates the worker of generation gen (if it still runs) and fails
// its requests with err; the next request starts a fresh one.
func (p *parquetWorker) stop(gen int, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gen != gen || p.w == nil {
		return
	}
	p.stopLocked(err)
}

func (p *parquetWorker) stopLocked(err error) {
	gone(p) // a worker's mu, then live.mu: never the other way round
	// No handler runs after it is released: unset them first.
	p.w.Set("onmessage", nil)
	p.w.Set("onerror", nil)
	p.w.Call("terminate")
	for _, f := range p.funcs {
		f.Release()
	}
	p.w, p.funcs = nil, nil
	for id, c := range p.pending {
		if c.gen == p.gen {
			delete(p.pending, id)
			c.ch <- workerAnswer{err: err}
		}
	}
}

// running returns the worker to send requests to once it has opened the
// file, starting one when none runs.
func (p *parquetWorker) running(ctx context.Context) (gen int, err error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return 0, errClosed
	}
	if p.w == nil {
		p.mu.Unlock()
		admit(p)
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return 0, errClosed
		}
		if p.w == nil {
			p.start()
		}
	}
	gen, ready := p.gen, p.ready
	p.mu.Unlock()
	select {
	case <-ready:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gen != gen {
		return 0, errRestarted
	}
	return gen, p.openErr
}

// open starts the worker and returns its answer to open: the footer (JSON
// text) and the Arrow schema (a schema-only IPC stream).
func (p *parquetWorker) open(ctx context.Context) (metaJSON string, schema []byte, err error) {
	if _, err := p.running(ctx); err != nil {
		return "", nil, err
	}
	go trim(p) // others opened meanwhile may be idle now
	p.mu.Lock()
	opened := p.opened
	p.mu.Unlock()
	if opened == nil {
		return "", nil, errRestarted
	}
	return app.Window().Get("JSON").Call("stringify", opened.Get("meta")).String(), bytesOf(opened.Get("schema")), nil
}

// request sends msg (built by build, without its id) once the requests
// before it have been answered, and waits for its answer for up to
// parquetTimeout: a trap or a timeout restarts the worker. It retries once
// on a fresh worker when the one it was sent to was restarted meanwhile.
func (p *parquetWorker) request(ctx context.Context, build func() app.Value) (app.Value, error) {
	select {
	case p.turn <- struct{}{}:
		defer func() {
			p.mu.Lock()
			p.used = time.Now()
			p.mu.Unlock()
			<-p.turn
			go trim(p) // more may have started while others were busy
		}()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	for attempt := 0; ; attempt++ {
		gen, err := p.running(ctx)
		if errors.Is(err, errRestarted) && attempt == 0 {
			continue
		}
		if err != nil {
			return nil, err
		}
		p.mu.Lock()
		if p.gen != gen || p.w == nil {
			p.mu.Unlock()
			if attempt == 0 {
				continue
			}
			return nil, errRestarted
		}
		ch := p.postLocked(gen, build())
		p.mu.Unlock()
		timer := time.NewTimer(parquetTimeout)
		select {
		case a := <-ch:
			timer.Stop()
			if errors.Is(a.err, errRestarted) && attempt == 0 {
				continue
			}
			if a.trapped {
				// Its instance is unusable: the other requests sent to it
				// go again to a fresh one.
				p.stop(gen, errRestarted)
				return nil, &trapError{msg: a.err.Error()}
			}
			if a.err != nil {
				return nil, a.err
			}
			if mem := int64(a.msg.Get("memory").Float()); mem > p.memLimit {
				// Its memory never shrinks: the next request gets a fresh one.
				p.stop(gen, errRestarted)
			}
			return a.msg, nil
		case <-timer.C:
			p.stop(gen, errRestarted)
			return nil, fmt.Errorf("no answer within %v (the reader was restarted)", parquetTimeout)
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		}
	}
}

// Close terminates the worker; later requests fail.
func (p *parquetWorker) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.closed = true
	if p.w != nil {
		p.stopLocked(errClosed)
	}
}

// bytesOf copies a Uint8Array into Go.
func bytesOf(u8 app.Value) []byte {
	b := make([]byte, u8.Get("length").Int())
	app.CopyBytesToGo(b, u8)
	return b
}
