package decode

import (
	"context"
	"errors"
	"sync"
)

// chunkState is what the batch cache knows of a chunk: a record batch read
// whole, or a window of its rows.
type chunkState int

const (
	chunkUnread    chunkState = iota // neither cached nor being loaded: never asked for, or evicted
	chunkLoading                     // a load is under way; whoever asks waits for it
	chunkLoaded                      // in the cache
	chunkFailed                      // its load failed: asking again returns that error, reading nothing
	chunkCancelled                   // its last load was cancelled: asking again loads it again
)

// load is one load of a chunk, shared by every caller that asks for the
// chunk while it runs.
type load struct {
	state chunkState    // guarded by batchCache.mu; fixed once done is closed
	done  chan struct{} // closed when the load ends
	c     *chunk        // the chunk loaded, once done
	err   error         // why not, once done
}

// batchCache holds decoded chunks within a byte budget, least recently used
// first out (lru), and loads each chunk once whoever asks: callers that ask
// for a chunk being loaded wait for that load and share its outcome. A
// failed load is remembered; a cancelled one is not held against later
// callers, who load the chunk again. Safe for concurrent use.
type batchCache struct {
	mu     sync.Mutex
	lru    lru
	loads  map[cacheKey]*load // chunks not cached that were asked for: loading, failed or cancelled
	closed bool               // loads that end now keep nothing

	// waits, when set (by tests, before any use), is called as a caller
	// starts waiting for another caller's load of the chunk.
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

// get returns chunk key: from the cache, from the load under way (waiting
// for it), or by running read, which reads and decodes the chunk and
// returns it with the bytes it holds. read runs with ctx; ctx also stops a
// wait for another caller's load, with ErrCanceled. A chunk whose load
// failed returns the same error again.
func (c *batchCache) get(ctx context.Context, key cacheKey, read func(context.Context) (*chunk, int64, error)) (*chunk, error) {
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
		if ld.state != chunkCancelled {
			return ld.c, ld.err
		}
		// Cancelled by its caller, not by this one: load it here.
	}
}

// claim returns chunk key when it is cached; else the load to wait for
// (under way, or failed), or a new load that the caller must run (own).
func (c *batchCache) claim(key cacheKey) (ch *chunk, ld *load, own bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch, ok := c.lru.get(key); ok {
		return ch, nil, false
	}
	if ld := c.loads[key]; ld != nil && (ld.state == chunkLoading || ld.state == chunkFailed) {
		return nil, ld, false
	}
	ld = &load{state: chunkLoading, done: make(chan struct{})}
	c.loads[key] = ld
	return nil, ld, true
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

// run runs load ld of chunk key and records how it ended, a panic
// included, for the callers waiting.
func (c *batchCache) run(ctx context.Context, key cacheKey, ld *load, read func(context.Context) (*chunk, int64, error)) (ch *chunk, err error) {
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

// finish records the end of load ld of chunk key: the chunk cached (unless
// the cache is closed), or the load failed, or cancelled (its error wraps
// ErrCanceled, or its context is done).
func (c *batchCache) finish(ctx context.Context, key cacheKey, ld *load, ch *chunk, size int64, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ld.c, ld.err = ch, err
	switch {
	case err == nil:
		ld.state = chunkLoaded
		if c.loads[key] == ld {
			delete(c.loads, key)
		}
		if !c.closed {
			c.lru.put(key, ch, size)
		}
	case errors.Is(err, ErrCanceled) || ctx.Err() != nil:
		ld.state = chunkCancelled
	default:
		ld.state = chunkFailed
	}
	close(ld.done)
}

// state returns what the cache knows of chunk key.
func (c *batchCache) state(key cacheKey) chunkState {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru.has(key) {
		return chunkLoaded
	}
	if ld := c.loads[key]; ld != nil {
		return ld.state
	}
	return chunkUnread
}

// usage returns the bytes of the chunks cached and the budget.
func (c *batchCache) usage() (used, budget int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.used, c.lru.budget
}

// close drops every chunk and what is known of past loads; loads under
// way end for their callers but keep nothing.
func (c *batchCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	c.lru = newLRU(c.lru.budget)
	c.loads = map[cacheKey]*load{}
}
