package session

import (
	"context"
	"slices"
	"testing"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/decode/decodetest"
)

// nestedRuns is the nested record batch of row 0's runs in
// testdata/turtle_nested.arrow ("sunny": exposure 0.5, 1.25).
func nestedRuns(t *testing.T) *decode.File {
	t.Helper()
	f := decodetest.Open(t, "turtle_nested.arrow")
	inner, err := f.Nested(0, f.Schema.FieldIndices("runs")[0])
	if err != nil {
		t.Fatal(err)
	}
	return inner
}

// TestRunScan: a query's scan reports its reads, a filter's matches and
// its end, and Query.Apply shows them: the rows in the query's order, a
// filter's match count; a cancelled scan reports nothing.
func TestRunScan(t *testing.T) {
	f := nestedRuns(t)
	for _, c := range []struct {
		sort, filter string
		rows         []int64
		matches      int64
		kinds        []string
	}{
		{"-exposure", "", []int64{1, 0}, -1, []string{"reading", "done"}},
		{"", "exposure < 1", []int64{0}, 1, []string{"reading", "filtered", "done"}},
		{"exposure", "exposure > 0", []int64{0, 1}, 2, []string{"reading", "filtered", "reading", "done"}},
	} {
		q := NewQuery(f)
		plan, qerr := PlanQuery(q.Cols, c.sort, c.filter)
		if qerr != nil {
			t.Fatal(qerr.Msg)
		}
		q.Plan, q.Status = plan, StatusRunning
		var kinds []string
		ended := 0
		RunScan(context.Background(), f, plan, func() {}, func(e ScanEvent) {
			switch e.(type) {
			case ScanReading:
				kinds = append(kinds, "reading")
			case ScanFiltered:
				kinds = append(kinds, "filtered")
			case ScanDone:
				kinds = append(kinds, "done")
			case ScanFailed:
				kinds = append(kinds, "failed")
			case ScanRows, ScanIndexing:
				return
			}
			if q.Apply(e) {
				ended++
			}
		})
		if !slices.Equal(kinds, c.kinds) || ended != 1 {
			t.Errorf("%q %q: events %v (%d ends), want %v", c.sort, c.filter, kinds, ended, c.kinds)
		}
		if got := OrderRows(q.Order); !slices.Equal(got, c.rows) || q.Matches != c.matches || q.Status != StatusDone || q.Progress != nil {
			t.Errorf("%q %q: rows %v matches %d status %q, want %v %d done", c.sort, c.filter, got, q.Matches, q.Status, c.rows, c.matches)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	plan, _ := PlanQuery(NewQuery(f).Cols, "-exposure", "")
	RunScan(ctx, f, plan, func() {}, func(e ScanEvent) {
		if _, ok := e.(ScanReading); !ok {
			t.Errorf("a cancelled scan reported %T", e)
		}
	})
}
