//go:build !wasm

package ui

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/tensorview/tensorview/app/query"
)

// matchesOf is a query.Matches of the rows given (ascending).
func matchesOf(rows ...int64) *query.Matches {
	var m query.Matches
	for _, r := range rows {
		m.Add(r, query.Selection{Rows: []int32{0}})
	}
	return &m
}

func TestRowOrder(t *testing.T) {
	if fileRow(nil, 7) != 7 || posOf(nil, 7) != 7 {
		t.Error("the file's own order is not the identity")
	}
	m := matchesOf(2, 5, 9)
	o := orderOf(m.Perm)
	if o.Len() != 3 || fileRow(o, 1) != 5 || posOf(o, 9) != 2 || posOf(o, 3) != -1 {
		t.Errorf("matches 2, 5, 9: %v, pos of 9 %d, of 3 %d", orderRows(o), posOf(o, 9), posOf(o, 3))
	}
	// A filter's partial result stays as it was while the scan appends.
	m.Add(12, query.Selection{Rows: []int32{0, 1}})
	if o.Len() != 3 || orderOf(m.Perm).Len() != 5 {
		t.Errorf("partial result: %d rows then %d now, want 3 and 5", o.Len(), orderOf(m.Perm).Len())
	}
}

func TestSortedMatches(t *testing.T) {
	perm := matchesOf(0, 1, 2, 3, 4, 5, 6, 7, 8, 9).Perm // the file's own order stands for a sort
	got, err := sortedMatches(context.Background(), perm, matchesOf(1, 4, 8).Perm, 10, nil)
	if err != nil || !slices.Equal(orderRows(got), []int64{1, 4, 8}) {
		t.Errorf("identity sort kept to 1, 4, 8: %v, %v", orderRows(got), err)
	}
	none, _ := sortedMatches(context.Background(), perm, query.Perm{}, 10, nil)
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
	if _, err := sortedMatches(context.Background(), all.Perm, all.Perm, int64(len(big)), func() error { return stop }); !errors.Is(err, stop) {
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
	o, err := sortedMatches(context.Background(), perm.Perm, m.Perm, total, func() error { calls++; return nil })
	if err != nil || o.Len() != total/2 {
		t.Fatal(o.Len(), err)
	}
	if walked := total/2 + total; calls < walked/paceEvery {
		t.Errorf("%d paces for %d rows walked: more than %d rows between two", calls, walked, paceEvery)
	}
}
