package decode

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// watchWaits makes f's cache announce on the channel returned each caller
// that starts waiting for another caller's load.
func watchWaits(f *File) <-chan cacheKey {
	waiting := make(chan cacheKey)
	f.cache.waits = func(k cacheKey) { waiting <- k }
	return waiting
}

// TestConcurrentLoadsShareOneRead asks for one record batch through every
// entry point at once while its read is held: the callers wait for the one
// load (one read of its body, one decoded batch) and each gets its part.
func TestConcurrentLoadsShareOneRead(t *testing.T) {
	for _, stream := range []bool{false, true} {
		// Batch 4 of 8 (about 146 KB) lies outside the cached ends of the
		// file: reading its body is one read of more than 64 KiB.
		data := multiBatch(t, stream, 8, 2000)
		f, g := openGated(t, data, 64<<10, Options{SmallFile: -1})
		if err := f.Index(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		const row = 4*2000 + 17
		if b, w, ok := f.Window(row); b != 4 || w != -1 || !ok {
			t.Fatalf("stream %v: row %d in window %d, %d (%v), want batch 4 whole", stream, row, b, w, ok)
		}
		waiting := watchWaits(f)
		g.gated.Store(true)
		var first arrow.RecordBatch
		loaded := make(chan error, 1)
		go func() {
			var err error
			first, err = f.Batch(4)
			loaded <- err
		}()
		within(t, g.calls, "the batch's read")
		if got := f.WindowState(row); got != Loading {
			t.Fatalf("stream %v: window state %s during the read, want loading (%s)", stream, got, Loading)
		}
		var second arrow.RecordBatch
		callers := []func() string{
			func() string { return fmt.Sprint(f.Load(row)) },
			func() string { return fmt.Sprint(f.LoadContext(context.Background(), row)) },
			func() string { return valueText(f, row, 0) },
			func() string { return valueText(f, row, 1) },
			func() string {
				tn, err := f.Tensor(row, 2)
				if err != nil {
					return err.Error()
				}
				pos, _ := tn.Pos(3, 3)
				return tn.ValueStr(pos)
			},
			func() string {
				var err error
				second, err = f.Batch(4)
				return fmt.Sprint(err)
			},
		}
		want := []string{"<nil>", "<nil>", "8017", "dog", "801715", "<nil>"}
		got := make([]chan string, len(callers))
		for k, call := range callers {
			got[k] = make(chan string, 1)
			go func() { got[k] <- call() }()
			if key := within(t, waiting, "a caller waiting"); key != (cacheKey{4, -1, 0}) {
				t.Fatalf("stream %v: a caller waits for window %v, want batch 4 whole", stream, key)
			}
		}
		release(t, g)
		// A second read of the body would wait at the gate for ever: every
		// caller returning says there was none.
		if err := within(t, loaded, "the first caller's batch"); err != nil {
			t.Fatal(err)
		}
		for k := range callers {
			if s := within(t, got[k], "a caller's result"); s != want[k] {
				t.Errorf("stream %v: caller %d got %q, want %q", stream, k, s, want[k])
			}
		}
		g.gated.Store(false)
		again, err := f.Batch(4)
		if second != first || again != first || err != nil {
			t.Errorf("stream %v: Batch(4) gave %p to the first caller, %p to the one waiting, %p (%v) after", stream, first, second, again, err)
		}
		if got := f.WindowState(row); got != Loaded {
			t.Errorf("stream %v: window state %s after the load, want loaded (%s)", stream, got, Loaded)
		}
	}
}

// TestCancelledLoadDoesNotPoison cancels the load of a 10 MiB record batch
// (read in BigRead pieces), first alone (the window is then cancelled until
// Forget(Cancelled) makes it unread), then with another caller waiting for
// it: that caller reads the batch itself and gets it.
func TestCancelledLoadDoesNotPoison(t *testing.T) {
	for _, stream := range []bool{false, true} {
		data := multiBatch(t, stream, 1, 150_000)
		f, g := openGated(t, data, 1<<20, Options{SmallFile: -1})
		waiting := watchWaits(f)
		g.gated.Store(true)

		ctx, cancel := context.WithCancel(context.Background())
		alone := make(chan error, 1)
		go func() { alone <- f.LoadContext(ctx, 0) }()
		within(t, g.calls, "first piece")
		cancel()
		release(t, g)
		if err := within(t, alone, "the cancelled load"); !errors.Is(err, ErrCanceled) {
			t.Fatalf("stream %v: cancelled load: %v, want ErrCanceled", stream, err)
		}
		if got := f.WindowState(0); got != Cancelled {
			t.Fatalf("stream %v: after the cancel window state %s, want cancelled", stream, got)
		}
		if n, m := f.Forget(Failed), f.Forget(Loading); n != 0 || m != 0 || f.WindowState(0) != Cancelled {
			t.Fatalf("stream %v: Forget(Failed) %d, Forget(Loading) %d, window state %s; want 0, 0, cancelled", stream, n, m, f.WindowState(0))
		}
		if n := f.Forget(Cancelled); n != 1 || f.WindowState(0) != Unread {
			t.Fatalf("stream %v: Forget(Cancelled) forgot %d, window state %s; want 1, unread", stream, n, f.WindowState(0))
		}

		ctx, cancel = context.WithCancel(context.Background())
		loader, waiter := make(chan error, 1), make(chan error, 1)
		go func() { loader <- f.LoadContext(ctx, 0) }()
		within(t, g.calls, "first piece again")
		go func() { waiter <- f.Load(149_999) }()
		if key := within(t, waiting, "the second caller waiting"); key != (cacheKey{0, -1, 0}) {
			t.Fatalf("stream %v: the second caller waits for window %v", stream, key)
		}
		cancel()
		g.gated.Store(false) // the second caller's own read goes through
		release(t, g)
		if err := within(t, loader, "the cancelled load"); !errors.Is(err, ErrCanceled) {
			t.Fatalf("stream %v: cancelled load: %v, want ErrCanceled", stream, err)
		}
		if err := within(t, waiter, "the waiting caller"); err != nil {
			t.Fatalf("stream %v: the caller that waited for a cancelled load: %v, want the batch", stream, err)
		}
		if got := f.WindowState(0); got != Loaded {
			t.Fatalf("stream %v: window state %s, want loaded (%s)", stream, got, Loaded)
		}
		checkRow(t, f, 0)
		checkRow(t, f, 149_999)
	}
}

// TestWaitStopsWithItsContext: a caller waiting for another's load stops
// when its own context is done, with ErrCanceled; the load goes on and
// ends for its caller.
func TestWaitStopsWithItsContext(t *testing.T) {
	data := multiBatch(t, false, 1, 150_000)
	f, g := openGated(t, data, 1<<20, Options{SmallFile: -1})
	waiting := watchWaits(f)
	g.gated.Store(true)
	loader := make(chan error, 1)
	go func() { loader <- f.Load(0) }()
	within(t, g.calls, "first piece")
	ctx, cancel := context.WithCancel(context.Background())
	waiter := make(chan error, 1)
	go func() { waiter <- f.LoadContext(ctx, 5) }()
	within(t, waiting, "the second caller waiting")
	cancel()
	if err := within(t, waiter, "the waiter's return"); err != ErrCanceled {
		t.Fatalf("waiter: %v, want ErrCanceled", err)
	}
	if got := f.WindowState(0); got != Loading {
		t.Fatalf("window state %s after the waiter left, want loading (%s)", got, Loading)
	}
	g.gated.Store(false)
	release(t, g)
	if err := within(t, loader, "the load"); err != nil {
		t.Fatal(err)
	}
	checkRow(t, f, 5)
}

// TestFailedLoadIsRemembered: a record batch refused by the budget fails
// once: whoever asks, at once or later, gets that same error, and its
// values too, until Forget(Failed) has it read again.
func TestFailedLoadIsRemembered(t *testing.T) {
	data := multiBatch(t, true, 2, 1000)
	f, err := OpenReader("big.arrows", &countingReader{data: data}, int64(len(data)), Options{Budget: 1024})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, workers)
	for range workers {
		go func() { errs <- f.Load(1500) }()
	}
	first := within(t, errs, "a Load")
	const want = "record batch 1 needs more memory than the cache budget (1.0 KiB) allows"
	if !errors.Is(first, ErrTooLarge) || len(first.Error()) < len(want) || first.Error()[:len(want)] != want {
		t.Fatalf("Load: %v, want the refusal of record batch 1", first)
	}
	for range workers - 1 {
		if err := within(t, errs, "a Load"); err != first {
			t.Fatalf("Load: %v (%p), want the first caller's error (%p)", err, err, first)
		}
	}
	if err := f.Load(1999); err != first {
		t.Fatalf("a later Load: %v, want the first error", err)
	}
	if got := f.WindowState(1500); got != Failed {
		t.Fatalf("window state %s, want failed (%s)", got, Failed)
	}
	if _, err := f.Value(1500, 0); err != first {
		t.Fatalf("Value: %v, want the first error", err)
	}
	// Two failed: the batch, and the window of it first asked for, which
	// its dictionary column keeps from being read by windows.
	if n := f.Forget(Failed); n != 2 || f.WindowState(1500) != Unread {
		t.Fatalf("Forget(Failed) forgot %d, window state %s; want 2, unread", n, f.WindowState(1500))
	}
	again := f.Load(1999)
	if again == first || again.Error() != first.Error() || f.WindowState(1500) != Failed {
		t.Fatalf("Load after Forget: %v (the first error again: %v), window state %s; want the same refusal anew, failed", again, again == first, f.WindowState(1500))
	}
}

// TestLoadPanicSaysWhatWasRead: a panic in a load is an error for every
// caller, each saying what it was reading, and the load is not run again.
func TestLoadPanicSaysWhatWasRead(t *testing.T) {
	c := newBatchCache(1 << 20)
	reads := 0
	read := func(context.Context) (*decoded, int64, error) {
		reads++
		panic("boom")
	}
	get := func(what string) (err error) {
		defer guard(&err, "%s", what)
		_, err = c.get(context.Background(), cacheKey{3, -1, 0}, read)
		return err
	}
	for _, what := range []string{"reading row 7", "reading record batch 3"} {
		err := get(what)
		if want := what + ": internal error while decoding: boom"; err == nil || err.Error() != want || !errors.Is(err, ErrPanic) {
			t.Fatalf("%s: %v, want %q", what, err, want)
		}
	}
	if reads != 1 {
		t.Fatalf("the load ran %d times, want once", reads)
	}
}
