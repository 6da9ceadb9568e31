//go:build !wasm

package ui

import (
	"context"
	"slices"
	"testing"

	"github.com/tensorview/tensorview/app/session"

	"github.com/tensorview/tensorview/app/scan"
)

// TestLevelQueries: each level (the file, a nested record batch of
// testdata/turtle_nested.arrow) has its own query state, with the headers
// of its own columns; the level shown's is the one the page acts on;
// closing a level cancels its scan and forgets its state, the file's
// staying as it was. A nested batch is a scan's source as the file is.
func TestLevelQueries(t *testing.T) {
	f := openTestdata(t, "turtle_nested.arrow")
	v := &Viewer{}
	v.resetQuery(f)
	top := v.levels.At(0).Query
	top.Plan, top.Order = session.Plan{Sort: "-id", SortCol: 0, SortDesc: true}, session.RowList{U32: []uint32{5, 4, 3, 2, 1, 0}}
	if v.shownQuery() != top || queryOf(&v.levels, f) != top {
		t.Fatal("no nested level: the file's query is not the one shown")
	}

	// Row 0's batch ("sunny"): image (a tensor), exposure (float32), sub
	// (nested batches).
	inner, err := f.Nested(0, column(t, f, "runs"))
	if err != nil {
		t.Fatal(err)
	}
	q := v.levels.Push(inner, "runs", 0).Query
	if v.shown() != inner || v.shownQuery() != q || queryOf(&v.levels, inner) != q || v.levels.At(1).Query != q || v.levels.At(0).Query != top {
		t.Fatal("the nested level's query is not the one shown")
	}
	if got := q.Heads; len(got) != 3 || len(got[0].Stats) == 0 || !got[1].Plain || got[2].Plain || len(got[2].Stats) > 0 {
		t.Errorf("nested heads %+v, want image by a statistic, exposure by value, sub not at all", got)
	}
	if q.Plan.SortCol != -1 || q.Matches != -1 || q.Order != nil {
		t.Errorf("a new level's query is not empty: %+v", q)
	}

	// Its sort, by the nested batch's own column.
	plan, qerr := session.PlanQuery(q.Cols, "-exposure", "exposure < 1")
	if qerr != nil {
		t.Fatal(qerr.Msg)
	}
	if err := inner.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	perm, _, err := scan.Sort(context.Background(), session.FileSource{File: inner}, plan.SortExpr, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := session.OrderRows(session.OrderOf(perm)); !slices.Equal(got, []int64{1, 0}) {
		t.Errorf("nested batch by -exposure: rows %v, want [1 0] (1.25, 0.5)", got)
	}
	m, _, err := scan.Filter(context.Background(), session.FileSource{File: inner}, plan.FilterExpr, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := session.OrderRows(session.OrderOf(m.Perm)); !slices.Equal(got, []int64{0}) {
		t.Errorf("nested batch where exposure < 1: rows %v, want [0]", got)
	}

	// Closing the level cancels its scan; the file's query is as it was.
	id, qctx := v.jobs.Start()
	q.Job = id
	v.colStats = colStats{open: true, col: 1}
	v.closeNested(0)
	if qctx.Err() == nil || q.Job != 0 || v.jobs.Live(id) {
		t.Error("closing the nested level did not cancel its scan")
	}
	if v.colStats.open {
		t.Error("closing the nested level left its column statistics open")
	}
	if v.levels.Depth() != 0 || queryOf(&v.levels, inner) != nil || v.shownQuery() != top {
		t.Error("the closed level's query is still reachable")
	}
	if top.Plan.Sort != "-id" || top.Order == nil || !slices.Equal(session.OrderRows(top.Order), []int64{5, 4, 3, 2, 1, 0}) {
		t.Errorf("the file's query changed: %+v", top.Plan)
	}
	v.closeNested(0) // nothing below the file: nothing happens
}

// TestRowCount: the row count's text, a filter's matches once done.
func TestRowCount(t *testing.T) {
	for _, c := range []struct {
		in   rowCount
		want string
		done bool
	}{
		{rowCount{Rows: 64, Exact: true, Matches: -1}, "64", false},
		{rowCount{Rows: 64, Matches: -1}, "≈64", false},
		{rowCount{Rows: 3000000, Exact: true, Filter: true, Found: 1204, Matches: -1}, "1,204… of 3,000,000", false},
		{rowCount{Rows: 3000000, Exact: true, Filter: true, Found: 1204, Matches: 1204}, "1,204 of 3,000,000", true},
		{rowCount{Rows: 2, Exact: true, Filter: true, Matches: 0}, "0 of 2", true},
		{rowCount{Rows: 2, Exact: true, Matches: 2}, "2", false}, // matches without a filter: none
	} {
		if got := c.in.text(); got != c.want || c.in.done() != c.done {
			t.Errorf("%+v: %q done %v, want %q done %v", c.in, got, c.in.done(), c.want, c.done)
		}
	}
}
