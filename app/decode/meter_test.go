package decode

import (
	"context"
	"errors"
	"io"
	"sync/atomic"
	"testing"
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

// TestBigReadProgressAndCancel reads a 10 MiB record batch that must be read
// whole (it has a dictionary column): the read goes in 4 MiB pieces, Reading
// reports them, CancelReads stops it between pieces with ErrCanceled and
// caches nothing, and the batch reads correctly afterwards.
func TestBigReadProgressAndCancel(t *testing.T) {
	for _, stream := range []bool{false, true} {
		data := multiBatch(t, stream, 1, 150_000)
		g := &gatedReader{r: &countingReader{data: data}, min: 1 << 20, calls: make(chan int), release: make(chan struct{})}
		f, err := OpenReader("big", g, int64(len(data)), Options{SmallFile: -1})
		if err != nil {
			t.Fatal(err)
		}
		if d, total := f.Reading(); d != 0 || total != 0 {
			t.Fatalf("stream %v: Reading() = %d, %d before any read", stream, d, total)
		}
		g.gated.Store(true)
		done := make(chan error, 1)
		go func() { done <- f.Load(0) }()

		if n := <-g.calls; n != BigRead {
			t.Fatalf("stream %v: first piece of %d bytes, want %d", stream, n, BigRead)
		}
		d, total := f.Reading()
		if d != 0 || total < 10<<20 || total > int64(len(data)) {
			t.Fatalf("stream %v: Reading() = %d, %d at the first piece; want 0 of the batch (>10 MiB, <= %d)", stream, d, total, len(data))
		}
		g.release <- struct{}{}
		<-g.calls
		if d2, total2 := f.Reading(); d2 != BigRead || total2 != total {
			t.Fatalf("stream %v: Reading() = %d, %d at the second piece; want %d, %d", stream, d2, total2, BigRead, total)
		}
		f.CancelReads()
		g.release <- struct{}{}
		err = <-done
		if !errors.Is(err, ErrCanceled) || !errors.Is(err, context.Canceled) {
			t.Fatalf("stream %v: Load after CancelReads = %v, want ErrCanceled", stream, err)
		}
		if d, total := f.Reading(); d != 0 || total != 0 || f.Loaded(0) {
			t.Fatalf("stream %v: after the cancel Reading() = %d, %d, loaded %v; want nothing", stream, d, total, f.Loaded(0))
		}

		g.gated.Store(false)
		if err := f.Load(0); err != nil {
			t.Fatalf("stream %v: Load after a cancel: %v", stream, err)
		}
		checkRow(t, f, 0)
		checkRow(t, f, 149_999)
	}
}
