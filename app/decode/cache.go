package decode

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// WindowState is what a File knows of a row window (File.Window): a
// record batch read whole, or a window of its rows.
type WindowState int

const (
	Unread    WindowState = iota // neither cached nor being loaded: never asked for, evicted, or forgotten (File.Forget)
	Loading                      // a load is under way; whoever asks waits for it
	Loaded                       // in the cache
	Failed                       // its load failed: asking again returns that error, reading nothing (until File.Forget)
	Cancelled                    // its last load was cancelled: asking again loads it again (a table asks File.Forget first)
)

// String names the state: "unread", "loading", "loaded", "failed" or
// "cancelled".
func (s WindowState) String() string {
	switch s {
	case Unread:
		return "unread"
	case Loading:
		return "loading"
	case Loaded:
		return "loaded"
	case Failed:
		return "failed"
	case Cancelled:
		return "cancelled"
	}
	return fmt.Sprintf("WindowState(%d)", int(s))
}

// load is one load of a row window, shared by every caller that asks for
// the window while it runs.
type load struct {
	state WindowState   // guarded by batchCache.mu; fixed once done is closed
	done  chan struct{} // closed when the load ends
	c     *decoded      // the window loaded, once done
	err   error         // why not, once done
}

// batchCache holds decoded row windows within a byte budget, least recently
// used first out (lru), and loads each window once whoever asks: callers
// that ask for a window being loaded wait for that load and share its
// outcome. A failed load is remembered; a cancelled one is not held against
// later callers, who load the window again. Safe for concurrent use.
type batchCache struct {
	mu     sync.Mutex
	lru    lru
	loads  map[cacheKey]*load // windows not cached that were asked for: loading, failed or cancelled
	closed bool               // loads that end now keep nothing

	// waits, when set (by tests, before any use), is called as a caller
	// starts waiting for another caller's load of the window.
	waits func(cacheKey)
}

func newBatchCache(budget int64) *batchCache {
	return &batchCache{lru: newLRU(budget), loads: map[cacheKey]*load{}}
}

// loadPanic is the error of a panic recovered in a load: each caller's
// guard says what it was reading when it got it.
type loadPanic struct{ err error }

func (p *loadPanic) Error() string { return p.err.Error() }
func (p *loadPanic) Unwrap() error { return p.err }

// get returns window key: from the cache, from the load under way (waiting
// for it), or by running read, which reads and decodes the window and
// returns it with the bytes it holds. read runs with ctx; ctx also stops a
// wait for another caller's load, with ErrCanceled. A window whose load
// failed returns the same error again.
func (c *batchCache) get(ctx context.Context, key cacheKey, read func(context.Context) (*decoded, int64, error)) (*decoded, error) {
	for {
		ch, ld, own := c.claim(key)
		switch {
		case ch != nil:
			return ch, nil
		case own:
			return c.run(ctx, key, ld, read)
		}
		if err := c.wait(ctx, key, ld); err != nil {
			return nil, err
		}
		if ld.state != Cancelled {
			return ld.c, ld.err
		}
		// Cancelled by its caller, not by this one: load it here.
	}
}

// claim returns window key when it is cached; else the load to wait for
// (under way, or failed), or a new load that the caller must run (own).
func (c *batchCache) claim(key cacheKey) (ch *decoded, ld *load, own bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch, ok := c.lru.get(key); ok {
		return ch, nil, false
	}
	if ld := c.loads[key]; ld != nil && (ld.state == Loading || ld.state == Failed) {
		return nil, ld, false
	}
	ld = &load{state: Loading, done: make(chan struct{})}
	c.loads[key] = ld
	return nil, ld, true
}

// await waits for the load of key under way, if any, to end, or for ctx
// to be done (ErrCanceled); it never starts a load.
func (c *batchCache) await(ctx context.Context, key cacheKey) error {
	c.mu.Lock()
	ld := c.loads[key]
	loading := ld != nil && ld.state == Loading
	c.mu.Unlock()
	if !loading {
		return nil
	}
	return c.wait(ctx, key, ld)
}

// wait waits for ld to end, or for ctx to be done (ErrCanceled).
func (c *batchCache) wait(ctx context.Context, key cacheKey, ld *load) error {
	select {
	case <-ld.done:
		return nil
	default:
	}
	if c.waits != nil {
		c.waits(key)
	}
	select {
	case <-ld.done:
		return nil
	case <-ctx.Done():
		select {
		case <-ld.done: // ended meanwhile: its outcome is worth more
			return nil
		default:
			return ErrCanceled
		}
	}
}

// run runs load ld of window key and records how it ended, a panic
// included, for the callers waiting.
func (c *batchCache) run(ctx context.Context, key cacheKey, ld *load, read func(context.Context) (*decoded, int64, error)) (ch *decoded, err error) {
	var size int64
	defer func() {
		r := recover()
		if r != nil {
			ch, err = nil, &loadPanic{recovered(r)}
		}
		c.finish(ctx, key, ld, ch, size, err)
		if r != nil && repanic {
			panic(r)
		}
	}()
	ch, size, err = read(ctx)
	return ch, err
}

// finish records the end of load ld of window key: the window cached (unless
// the cache is closed), or the load failed, or cancelled (its error wraps
// ErrCanceled, or its context is done).
func (c *batchCache) finish(ctx context.Context, key cacheKey, ld *load, ch *decoded, size int64, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ld.c, ld.err = ch, err
	switch {
	case err == nil:
		ld.state = Loaded
		if c.loads[key] == ld {
			delete(c.loads, key)
		}
		if !c.closed {
			c.lru.put(key, ch, size)
		}
	case errors.Is(err, ErrCanceled) || ctx.Err() != nil:
		ld.state = Cancelled
	default:
		ld.state = Failed
	}
	close(ld.done)
}

// cached returns window key when it is in the cache, without loading it.
func (c *batchCache) cached(key cacheKey) (*decoded, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.get(key)
}

// state returns what the cache knows of window key.
func (c *batchCache) state(key cacheKey) WindowState {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru.has(key) {
		return Loaded
	}
	if ld := c.loads[key]; ld != nil {
		return ld.state
	}
	return Unread
}

// forget drops what is known of the windows whose last load ended in
// state s (Failed or Cancelled): they are Unread again. It returns how many
// it dropped.
func (c *batchCache) forget(s WindowState) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for key, ld := range c.loads {
		if ld.state == s {
			delete(c.loads, key)
			n++
		}
	}
	return n
}

// usage returns the bytes of the windows cached and the budget.
func (c *batchCache) usage() (used, budget int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.used, c.lru.budget
}

// close drops every window and what is known of past loads; loads under
// way end for their callers but keep nothing.
func (c *batchCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	c.lru = newLRU(c.lru.budget)
	c.loads = map[cacheKey]*load{}
}
