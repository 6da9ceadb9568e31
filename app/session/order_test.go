//go:build !wasm

package session

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/tensorview/tensorview/app/query"
)

func TestRowOrder(t *testing.T) {
	if FileRow(nil, 7) != 7 || PosOf(nil, 7) != 7 {
		t.Error("the file's own order is not the identity")
	}
	m := MatchesOf(2, 5, 9)
	o := OrderOf(m.Perm)
	if o.Len() != 3 || FileRow(o, 1) != 5 || PosOf(o, 9) != 2 || PosOf(o, 3) != -1 {
		t.Errorf("matches 2, 5, 9: %v, pos of 9 %d, of 3 %d", OrderRows(o), PosOf(o, 9), PosOf(o, 3))
	}
	// A filter's partial result stays as it was while the scan appends.
	m.Add(12, query.Selection{Rows: []int32{0, 1}})
	if o.Len() != 3 || OrderOf(m.Perm).Len() != 5 {
		t.Errorf("partial result: %d rows then %d now, want 3 and 5", o.Len(), OrderOf(m.Perm).Len())
	}
}

func TestSortedMatches(t *testing.T) {
	perm := MatchesOf(0, 1, 2, 3, 4, 5, 6, 7, 8, 9).Perm // the file's own order stands for a sort
	got, err := SortedMatches(context.Background(), perm, MatchesOf(1, 4, 8).Perm, 10, nil)
	if err != nil || !slices.Equal(OrderRows(got), []int64{1, 4, 8}) {
		t.Errorf("identity sort kept to 1, 4, 8: %v, %v", OrderRows(got), err)
	}
	none, _ := SortedMatches(context.Background(), perm, query.Perm{}, 10, nil)
	if none.Len() != 0 {
		t.Errorf("no match: %d rows", none.Len())
	}
	// The pacer is called on a long order, and its error stops it.
	big := make([]int32, paceEvery+1)
	for i := range big {
		big[i] = int32(i)
	}
	var all query.Matches
	all.Add(0, query.Selection{Rows: big})
	stop := errors.New("stop")
	if _, err := SortedMatches(context.Background(), all.Perm, all.Perm, int64(len(big)), func() error { return stop }); !errors.Is(err, stop) {
		t.Errorf("pacer's error: got %v", err)
	}
}

// TestSortedMatchesPaced: sortedMatches walks at most paceEvery rows
// (of the matches, then of the order) between two calls of its pacer.
func TestSortedMatchesPaced(t *testing.T) {
	const total = 10*paceEvery + 123
	var perm, m query.Matches
	rows := make([]int32, total)
	for i := range rows {
		rows[i] = int32(i)
	}
	perm.Add(0, query.Selection{Rows: rows})
	m.Add(0, query.Selection{Rows: rows[:total/2]})
	calls := 0
	o, err := SortedMatches(context.Background(), perm.Perm, m.Perm, total, func() error { calls++; return nil })
	if err != nil || o.Len() != total/2 {
		t.Fatal(o.Len(), err)
	}
	if walked := total/2 + total; calls < walked/paceEvery {
		t.Errorf("%d paces for %d rows walked: more than %d rows between two", calls, walked, paceEvery)
	}
}
