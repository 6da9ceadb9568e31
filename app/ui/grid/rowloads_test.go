//go:build !wasm

package grid

import (
	"slices"
	"testing"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/session"
)

// fakeWindows is a file of row windows of 4 rows each (batch 0), in the
// states and of the sizes given, indexed up to row indexed.
type fakeWindows struct {
	states  []decode.WindowState
	bytes   []int64
	indexed int64
}

func (f fakeWindows) Window(row int64) (batch, window int, ok bool) {
	return 0, int(row / 4), row < f.indexed && int(row/4) < len(f.states)
}

func (f fakeWindows) WindowState(row int64) decode.WindowState { return f.states[row/4] }

func (f fakeWindows) WindowBytes(row int64) int64 { return f.bytes[row/4] }

// TestToLoad: the table loads each row window of the rows drawn once, and
// leaves those loaded, failed, cancelled or not indexed yet.
func TestToLoad(t *testing.T) {
	f := fakeWindows{
		states:  []decode.WindowState{decode.Loaded, decode.Unread, decode.Loading, decode.Failed, decode.Unread, decode.Cancelled},
		indexed: 18, // window 4 in part
	}
	asked := map[[2]int]bool{}
	if got := toLoad(f, nil, 0, 24, asked); !slices.Equal(got, []int64{4, 8, 16}) {
		t.Errorf("rows 0–23: %v, want [4 8 16] (windows 1, 2 and 4)", got)
	}
	if len(asked) != 3 || !asked[[2]int{0, 1}] || !asked[[2]int{0, 2}] || !asked[[2]int{0, 4}] {
		t.Errorf("asked %v", asked)
	}
	if got := toLoad(f, nil, 0, 24, asked); len(got) != 0 {
		t.Errorf("asked again: %v, want none", got)
	}
	if got := toLoad(f, nil, 6, 12, map[[2]int]bool{}); !slices.Equal(got, []int64{6, 8}) {
		t.Errorf("rows 6–11: %v, want [6 8]", got)
	}
	// A sort's or filter's result: positions 0–2 show rows 17, 2 and 9,
	// whose windows are 4, 0 and 2 (window 0 is loaded).
	sorted := session.MatchesOf(17, 2, 9).Perm
	if got := toLoad(f, session.OrderOf(sorted), 0, 3, map[[2]int]bool{}); !slices.Equal(got, []int64{17, 9}) {
		t.Errorf("positions 0–2 of rows 17, 2, 9: %v, want [17 9]", got)
	}
}

// TestToPrefetch: reading ahead takes the unread row windows of up to
// prefetchMax bytes past the rows drawn, in the direction of the last
// scroll, and not those asked for already.
func TestToPrefetch(t *testing.T) {
	small, big := int64(1<<20), int64(prefetchMax+1)
	f := fakeWindows{
		states: []decode.WindowState{decode.Unread, decode.Loaded, decode.Unread, decode.Loading, decode.Unread,
			decode.Unread, decode.Failed, decode.Unread, decode.Unread, decode.Unread},
		bytes:   []int64{small, small, small, small, small, big, small, small, small, small},
		indexed: 40,
	}
	for _, c := range []struct {
		from, to int
		up       bool
		asked    [][2]int
		want     []int64
	}{
		{0, 8, false, nil, []int64{8, 16}},           // rows 8–23: windows 2 and 4 (3 loading, 5 too big)
		{0, 8, false, [][2]int{{0, 2}}, []int64{16}}, // window 2 asked for by fetch
		{24, 32, true, nil, []int64{8, 16}},          // up: rows 8–23
		{4, 12, true, nil, []int64{0}},               // up from row 4: rows 0–3
		{28, 36, false, nil, []int64{36}},            // down to the last row
		{0, 40, false, nil, nil},                     // nothing past the end
		{0, 0, true, nil, nil},                       // nothing above the top
	} {
		asked := map[[2]int]bool{}
		for _, k := range c.asked {
			asked[k] = true
		}
		if got := toPrefetch(f, nil, c.from, c.to, 40, c.up, asked); !slices.Equal(got, c.want) {
			t.Errorf("past [%d, %d), up %v: %v, want %v", c.from, c.to, c.up, got, c.want)
		}
	}
}

// TestLoadsWatched: the progress bar shows the big reads while loads are
// under way, and goes when none is left; a watcher that saw none while
// loads have started since has another one start.
func TestLoadsWatched(t *testing.T) {
	l := rowLoads{watching: true}
	if l.watched(10, 100, false, 1) || l.reading == nil || l.reading.Done != 10 || l.reading.Total != 100 || !l.watching {
		t.Errorf("a big read under way: %+v", l)
	}
	if l.watched(0, 0, false, 1) || l.reading != nil || !l.watching {
		t.Errorf("no big read: %+v", l)
	}
	if l.watched(100, 100, true, 0) || l.reading != nil || l.watching {
		t.Errorf("idle: %+v", l)
	}
	l.watching = true
	if !l.watched(0, 0, true, 2) || !l.watching {
		t.Errorf("idle, then 2 loads: %+v, want another watcher", l)
	}
}

// TestLoadsCancel: the loads share one context until cancelled; another
// file starts over.
func TestLoadsCancel(t *testing.T) {
	var l rowLoads
	ctx, count := l.begin()
	if again, sameCount := l.begin(); again != ctx || sameCount != count {
		t.Fatal("a second begin made a new context or count")
	}
	count.Add(1)
	l.cancel()
	if ctx.Err() == nil {
		t.Error("cancel left the loads' context")
	}
	next, sameCount := l.begin()
	if next == ctx || next.Err() != nil || sameCount != count || count.Load() != 1 {
		t.Error("after cancel: want a new context and the same count")
	}
	l.reading, l.watching = &session.Progress{}, true
	l.reset()
	if next.Err() == nil || l.count != nil || l.ctx != nil || l.stop != nil || l.reading != nil || l.watching {
		t.Errorf("reset: %+v, context %v", l, next.Err())
	}
}

// fakeBatches is fakeWindows whose windows of 4 rows make record batches
// of 8 rows (two windows each), batch 1 read whole (window -1).
type fakeBatches struct{ fakeWindows }

func (f fakeBatches) Window(row int64) (batch, window int, ok bool) {
	_, w, ok := f.fakeWindows.Window(row)
	if row/8 == 1 {
		return 1, -1, ok
	}
	return int(row / 8), w, ok
}

// TestToReadWhole: once the rows drawn are in, the table reads the rest
// of their record batches, one row for each batch read by windows, in the
// file's own order only, and not for rows not loaded.
func TestToReadWhole(t *testing.T) {
	L, U := decode.Loaded, decode.Unread
	f := fakeBatches{fakeWindows{states: []decode.WindowState{U, L, L, L, decode.Loading, decode.Failed, L, L}, indexed: 30}}
	for _, c := range []struct {
		from, to int
		want     []int64
	}{
		{0, 8, []int64{4}},      // batch 0: window 0 unread, window 1 (rows 4–7) in
		{0, 32, []int64{4, 24}}, // batch 1 read whole, batch 2 loading and failed, batch 3 in up to row 29
		{8, 16, nil},            // batch 1 is read whole anyway
		{20, 24, nil},           // rows 20–23 failed
	} {
		if got := toReadWhole(f, nil, c.from, c.to); !slices.Equal(got, c.want) {
			t.Errorf("rows %d–%d: %v, want %v", c.from, c.to-1, got, c.want)
		}
	}
	if got := toReadWhole(f, session.OrderOf(session.MatchesOf(4, 5).Perm), 0, 2); got != nil {
		t.Errorf("a sort's rows: %v, want none", got)
	}
}
