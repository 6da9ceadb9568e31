//go:build !wasm

package session

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/query"
)

func planCols() []query.Column {
	return []query.Column{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "Score", Type: arrow.PrimitiveTypes.Float32},
		{Name: "emb", Type: arrow.PrimitiveTypes.Float32, Tensor: true},
		{Name: "img", Type: arrow.BinaryTypes.Binary, Image: true},
	}
}

func TestPlanQuery(t *testing.T) {
	cols := planCols()
	p, err := PlanQuery(cols, " -SCORE ", "id  >  3 AND score<1")
	if err != nil {
		t.Fatal(err)
	}
	if p.Sort != "-Score" || p.Filter != "id > 3 and Score < 1" || p.SortCol != 1 || !p.SortDesc {
		t.Errorf("plan: %+v", p)
	}
	if p, _ := PlanQuery(cols, "", " "); !p.None() || p.Shown().Col != -1 {
		t.Errorf("blank texts: %+v", p)
	}
	for _, c := range []struct{ sort, filter, what, word, msg string }{
		{"", "id > 3 and scroe < 1", "filter", "scroe", "Score"},
		{"", "id >", "filter", "", "expected"},
		{"emb", "", "sort", "emb", "mean(emb)"},
		{"-nope", "", "sort", "nope", "nope"},
	} {
		_, e := PlanQuery(cols, c.sort, c.filter)
		if e == nil {
			t.Errorf("%q %q: no error", c.sort, c.filter)
			continue
		}
		_, word, _ := e.Parts()
		if e.What != c.what || word != c.word || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%q %q: %s error at %q: %s; want %s at %q saying %q", c.sort, c.filter, e.What, word, e.Msg, c.what, c.word, c.msg)
		}
	}
}

func TestErrParts(t *testing.T) {
	e := QueryError{Text: "a = 1 b", At: query.Span{Off: 6, Len: 1}}
	if b, w, a := e.Parts(); b != "a = 1 " || w != "b" || a != "" {
		t.Errorf("parts %q %q %q", b, w, a)
	}
	e.At = query.Span{Off: 99, Len: 3} // past the end: clamped
	if b, w, a := e.Parts(); b != "a = 1 b" || w != "" || a != "" {
		t.Errorf("past the end: %q %q %q", b, w, a)
	}
}

// TestNextSort: a header cycles ascending, descending, none; a tensor
// column by its statistic (mean unless another is chosen).
func TestNextSort(t *testing.T) {
	cols := planCols()
	plan := func(sort string) Plan {
		p, err := PlanQuery(cols, sort, "")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		cur  string
		col  int
		fn   string
		want string
	}{
		{"", 0, "", "id"}, {"id", 0, "", "-id"}, {"-id", 0, "", ""},
		{"-id", 1, "", "Score"},
		{"", 2, "", "mean(emb)"}, {"mean(emb)", 2, "", "-mean(emb)"}, {"-mean(emb)", 2, "", ""},
		{"max(emb)", 2, "", "-max(emb)"}, {"max(emb)", 2, "std", "std(emb)"},
		{"", 3, "width", "width(img)"},
	} {
		if got := NextSort(plan(c.cur), cols, c.col, c.fn); got != c.want {
			t.Errorf("after %q, column %d (%q): %q, want %q", c.cur, c.col, c.fn, got, c.want)
		}
	}
	s := plan("-mean(emb)").Shown()
	if s.Aria(2) != "descending" || s.Arrow(2) != "▼" || s.Aria(0) != "none" || s.Arrow(0) != "" {
		t.Errorf("shown %+v: %s %s", s, s.Aria(2), s.Aria(0))
	}
	if !sortable(cols[0]) || sortable(cols[2]) || len(SortStats(cols[3])) != 8 {
		t.Error("sortable or statistics wrong")
	}
}

func TestPacer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	yields := 0
	pace := NewPacer(ctx, func() { yields++ })
	if err := pace(); err != nil || yields != 0 {
		t.Errorf("right away: %v, %d yields", err, yields)
	}
	cancel()
	if err := pace(); err == nil {
		t.Error("cancelled: no error")
	}
}
