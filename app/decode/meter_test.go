package decode

import (
	"context"
	"errors"
	"io"
	"sync/atomic"
	"testing"
	"time"
)

// gatedReader holds every read of at least min bytes, once gated, until the
// test releases it, announcing its length on calls first.
type gatedReader struct {
	r       io.ReaderAt
	min     int
	gated   atomic.Bool
	calls   chan int
	release chan struct{}
}

func (g *gatedReader) ReadAt(p []byte, off int64) (int, error) {
	if g.gated.Load() && len(p) >= g.min {
		g.calls <- len(p)
		<-g.release
	}
	return g.r.ReadAt(p, off)
}

// openGated opens data read through a gatedReader that holds reads of at
// least min bytes once the test gates it.
func openGated(t *testing.T, data []byte, min int, opt Options) (*File, *gatedReader) {
	t.Helper()
	g := &gatedReader{r: &countingReader{data: data}, min: min, calls: make(chan int), release: make(chan struct{})}
	f, err := OpenReader("big", g, int64(len(data)), opt)
	if err != nil {
		t.Fatal(err)
	}
	return f, g
}

// within fails the test when ch gives nothing within 10 s (a read that
// never reached the gate, or a Load that never returned).
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s within 10 s", what)
		panic("unreachable")
	}
}

func release(t *testing.T, g *gatedReader) {
	t.Helper()
	select {
	case g.release <- struct{}{}:
	case <-time.After(10 * time.Second):
		t.Fatal("the gated read was not waiting")
	}
}

// TestLoadContextProgressAndCancel reads a 10 MiB record batch that must be
// read whole (it has a dictionary column): the read goes in BigRead pieces,
// Reading reports them, cancelling the context stops it between pieces with
// ErrCanceled and records nothing, and the batch reads correctly afterwards.
func TestLoadContextProgressAndCancel(t *testing.T) {
	for _, stream := range []bool{false, true} {
		data := multiBatch(t, stream, 1, 150_000)
		f, g := openGated(t, data, 1<<20, Options{SmallFile: -1})
		if d, total := f.Reading(); d != 0 || total != 0 {
			t.Fatalf("stream %v: Reading() = %d, %d before any read", stream, d, total)
		}
		g.gated.Store(true)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- f.LoadContext(ctx, 0) }()

		// The first piece, but what the file's cached head holds of it.
		if n := within(t, g.calls, "first piece"); n > BigRead || n < BigRead-endsChunk {
			t.Fatalf("stream %v: first piece of %d bytes, want %d less up to %d", stream, n, BigRead, endsChunk)
		}
		d, total := f.Reading()
		if d != 0 || total < 10<<20 || total > int64(len(data)) {
			t.Fatalf("stream %v: Reading() = %d, %d at the first piece; want 0 of the batch (>10 MiB, <= %d)", stream, d, total, len(data))
		}
		release(t, g)
		within(t, g.calls, "second piece")
		if d2, total2 := f.Reading(); d2 != BigRead || total2 != total {
			t.Fatalf("stream %v: Reading() = %d, %d at the second piece; want %d, %d", stream, d2, total2, BigRead, total)
		}
		cancel()
		release(t, g)
		err := within(t, done, "return from LoadContext")
		if !errors.Is(err, ErrCanceled) || !errors.Is(err, context.Canceled) {
			t.Fatalf("stream %v: LoadContext after cancel = %v, want ErrCanceled", stream, err)
		}
		if d, total := f.Reading(); d != 0 || total != 0 || f.WindowState(0) != Cancelled || len(f.Warnings()) != 0 {
			t.Fatalf("stream %v: after the cancel Reading() = %d, %d, window %s, warnings %q; want nothing read, cancelled", stream, d, total, f.WindowState(0), f.Warnings())
		}
		for _, fld := range f.Fields() {
			if fld.Err != "" {
				t.Fatalf("stream %v: after the cancel column %s has error %q", stream, fld.Name, fld.Err)
			}
		}

		// Reads without a context that can be cancelled (Load, Index,
		// Cell) go whole and are not reported.
		g.gated.Store(false)
		if err := f.Load(0); err != nil {
			t.Fatalf("stream %v: Load after a cancel: %v", stream, err)
		}
		checkRow(t, f, 0)
		checkRow(t, f, 149_999)
	}
}

// Close stops a big read under way.
func TestCloseStopsBigRead(t *testing.T) {
	data := multiBatch(t, false, 1, 150_000)
	f, g := openGated(t, data, 1<<20, Options{SmallFile: -1})
	g.gated.Store(true)
	done := make(chan error, 1)
	go func() { done <- f.Load(0) }()
	within(t, g.calls, "first piece")
	f.Close()
	release(t, g)
	if err := within(t, done, "return from Load"); !errors.Is(err, errClosed) {
		t.Fatalf("Load of a closed file = %v, want %v", err, errClosed)
	}
}

// TestAwait: Await returns at once for a window no one loads (and starts
// no load), waits for a load under way whoever started it, and when that
// load is cancelled returns as it ends, without reading the window again
// (the rows table's wait after Cancel: a load started for a waiter would
// read the whole batch with nothing to stop it).
func TestAwait(t *testing.T) {
	data := multiBatch(t, false, 1, 150_000)
	f, g := openGated(t, data, 1<<20, Options{SmallFile: -1})
	if err := f.Await(context.Background(), 0); err != nil || f.WindowState(0) != Unread {
		t.Fatalf("Await of an unread window = %v, state %s; want nil, Unread", err, f.WindowState(0))
	}
	g.gated.Store(true)
	ctx, cancel := context.WithCancel(context.Background())
	loaded := make(chan error, 1)
	go func() { loaded <- f.LoadContext(ctx, 0) }()
	within(t, g.calls, "first piece")
	awaited := make(chan error, 1)
	go func() { awaited <- f.Await(context.Background(), 0) }()
	cancel()
	release(t, g)
	within(t, loaded, "return from LoadContext")
	if err := within(t, awaited, "return from Await"); err != nil {
		t.Fatalf("Await = %v, want nil", err)
	}
	if s := f.WindowState(0); s != Cancelled {
		t.Fatalf("after Await the window is %s, want Cancelled (not read again)", s)
	}
	select {
	case n := <-g.calls:
		t.Fatalf("a read of %d bytes after the cancelled load", n)
	default:
	}
}
