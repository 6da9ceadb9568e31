package ui

import (
	"runtime"
	"testing"
	"time"
)

func TestGCPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, floor int64
		want        int
	}{
		{4 * mib, 128 * mib, 3100},  // the first collection at 4 MiB × 32 = 128 MiB
		{10 * mib, 128 * mib, 1180}, // 10 MiB × 12.8 = 128 MiB
		{32 * mib, 128 * mib, 400},  // 32 MiB × 5 = 160 MiB: five times live
		{100 * mib, 128 * mib, 400}, // over the floor
		{0, 128 * mib, 400},         // unknown
		{1, 1 << 40, 1 << 20},       // bounded
	} {
		if got := gcPercent(c.live, c.floor); got != c.want {
			t.Errorf("gcPercent(%d, %d) = %d, want %d", c.live, c.floor, got, c.want)
		}
	}
	if got := gcFloor(256 * mib); got != 128*mib {
		t.Errorf("gcFloor(256 MiB) = %d", got)
	}
}

// TestAfterEachGC: f runs after each collection, not only the first: each
// collection here starts once f has run for the one before (which failed
// under load when the cleanup made the next sentinel after calling f).
func TestAfterEachGC(t *testing.T) {
	// The chain runs for the rest of the process: a send that would block
	// (after this test, or a -count run before) must not stall the
	// cleanup goroutine, which runs every cleanup in turn.
	calls := make(chan struct{}, 1)
	afterEachGC(func() {
		select {
		case calls <- struct{}{}:
		default:
		}
	})
	for i := range 3 {
		runtime.GC()
		select {
		case <-calls:
		case <-time.After(10 * time.Second):
			t.Fatalf("no call after collection %d", i+1)
		}
	}
}
