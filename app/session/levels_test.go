//go:build !wasm

package session

import (
	"context"
	"slices"
	"testing"

	"github.com/tensorview/tensorview/app/decode/decodetest"
	"github.com/tensorview/tensorview/app/scan"
)

// TestLevelQueries: each level (the file, a nested record batch of
// testdata/turtle_nested.arrow) has its own query state, with the headers
// of its own columns; the level shown's is the one the page acts on;
// closing a level cancels its scan and forgets its state, the file's
// staying as it was. A nested batch is a scan's source as the file is.
func TestLevelQueries(t *testing.T) {
	f := decodetest.Open(t, "turtle_nested.arrow")
	m := NewModel("")
	m.Do(Opened{File: f})
	top := m.levels.At(0).Query
	top.Plan, top.Order = Plan{Sort: "-id", SortCol: 0, SortDesc: true}, RowList{U32: []uint32{5, 4, 3, 2, 1, 0}}
	if m.ShownQuery() != top || m.levels.Of(f).Query != top {
		t.Fatal("no nested level: the file's query is not the one shown")
	}

	// Row 0's batch ("sunny"): image (a tensor), exposure (float32), sub
	// (nested batches).
	inner, err := f.Nested(0, decodetest.Column(t, f, "runs"))
	if err != nil {
		t.Fatal(err)
	}
	m.Do(OpenNested{Col: decodetest.Column(t, f, "runs"), Row: 0})
	q := m.levels.Shown().Query
	inner = m.levels.Shown().File
	if m.Shown() != inner || m.ShownQuery() != q || m.levels.Of(inner).Query != q || m.levels.At(1).Query != q || m.levels.At(0).Query != top {
		t.Fatal("the nested level's query is not the one shown")
	}
	if got := q.Heads; len(got) != 3 || len(got[0].Stats) == 0 || !got[1].Plain || got[2].Plain || len(got[2].Stats) > 0 {
		t.Errorf("nested heads %+v, want image by a statistic, exposure by value, sub not at all", got)
	}
	if q.Plan.SortCol != -1 || q.Matches != -1 || q.Order != nil {
		t.Errorf("a new level's query is not empty: %+v", q)
	}

	// Its sort, by the nested batch's own column.
	plan, qerr := PlanQuery(q.Cols, "-exposure", "exposure < 1")
	if qerr != nil {
		t.Fatal(qerr.Msg)
	}
	if err := inner.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	perm, _, err := scan.Sort(context.Background(), FileSource{File: inner}, plan.SortExpr, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := OrderRows(OrderOf(perm)); !slices.Equal(got, []int64{1, 0}) {
		t.Errorf("nested batch by -exposure: rows %v, want [1 0] (1.25, 0.5)", got)
	}
	mt, _, err := scan.Filter(context.Background(), FileSource{File: inner}, plan.FilterExpr, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := OrderRows(OrderOf(mt.Perm)); !slices.Equal(got, []int64{0}) {
		t.Errorf("nested batch where exposure < 1: rows %v, want [0]", got)
	}

	// Closing the level cancels its scan; the file's query is as it was.
	id, qctx := m.jobs.Start()
	q.Job = id
	m.stats = Stats{Open: true, Col: 1}
	m.Do(Crumb{Level: 0})
	if qctx.Err() == nil || q.Job != 0 || m.jobs.Live(id) {
		t.Error("closing the nested level did not cancel its scan")
	}
	if m.stats.Open {
		t.Error("closing the nested level left its column statistics open")
	}
	if m.levels.Depth() != 0 || m.levels.Of(inner) != nil || m.ShownQuery() != top {
		t.Error("the closed level's query is still reachable")
	}
	if top.Plan.Sort != "-id" || top.Order == nil || !slices.Equal(OrderRows(top.Order), []int64{5, 4, 3, 2, 1, 0}) {
		t.Errorf("the file's query changed: %+v", top.Plan)
	}
	m.Do(Crumb{Level: 0}) // nothing below the file: nothing happens
}
