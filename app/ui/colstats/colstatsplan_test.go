package colstats

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/scan"
	"github.com/tensorview/tensorview/app/session"
)

func figureText(fs []statFigure) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Key + "=" + f.Value)
		if f.Title != "" {
			b.WriteString(" (" + f.Title + ")")
		}
		b.WriteString("; ")
	}
	return b.String()
}

func TestStatFigures(t *testing.T) {
	for _, c := range []struct {
		name  string
		s     query.Summary
		u     scan.Unread
		class query.ValueClass
		want  string
	}{
		{"floats", query.Summary{Count: 1234567, Nulls: 1200, NaN: 3, Distinct: 1000001, Min: "-0.5", Max: "1e+06", Mean: 12345.678912},
			scan.Unread{}, query.ClassFloat,
			"count=1,234,567; nulls=1,200; nan=3; distinct=≈ 1,000,001 (estimated (HyperLogLog, ±0.81 %)); min=-0.5; max=1e+06; mean=12,345.7; "},
		{"ints", query.Summary{Count: 10, Distinct: 10, DistinctExact: true, Min: "-1000", Max: "2000000", Mean: 4.5},
			scan.Unread{}, query.ClassNumber,
			"count=10; nulls=0; distinct=10; min=-1,000; max=2,000,000; mean=4.5; "},
		{"strings, one unreadable batch", query.Summary{Count: 5, Nulls: 1, Distinct: 2, DistinctExact: true, Min: "it's", Max: "<b>", Mean: math.NaN()},
			scan.Unread{Rows: 1000, FirstError: "record batch 3: bad"}, query.ClassText,
			"count=5; nulls=1; distinct=2; min=it's; max=<b>; unevaluated=1,000 (record batch 3: bad); "},
		{"booleans", query.Summary{Count: 4, Distinct: 2, DistinctExact: true, Min: "false", Max: "true", Mean: 0.25},
			scan.Unread{}, query.ClassBool,
			"count=4; nulls=0; distinct=2; min=false; max=true; mean=0.25; "},
		{"no values", query.Summary{Count: 3, Nulls: 3, DistinctExact: true, Mean: math.NaN()}, scan.Unread{}, query.ClassFloat,
			"count=3; nulls=3; nan=0; distinct=0; min=—; max=—; mean=—; "},
		{"a tensor function, unreadable tensors", query.Summary{Count: 7, Unevaluated: 2, FirstError: "row 4: short", Distinct: 5, DistinctExact: true, Min: "0.25", Max: "3", Mean: 1},
			scan.Unread{}, query.ClassFloat,
			"count=7; nulls=0; nan=0; distinct=5; min=0.25; max=3; mean=1; unevaluated=2 (row 4: short); "},
		{"other", query.Summary{Count: 2, Nulls: 1}, scan.Unread{}, query.ClassOther, "count=2; nulls=1; "},
	} {
		if got := figureText(statFigures(c.s, c.u, c.class)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestNumberText(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {0.5, "0.5"}, {1, "1"}, {-2.25, "-2.25"}, {1234.5678, "1,234.57"}, {999999.5, "1,000,000"},
		{0.000123456789, "0.000123457"}, {0.00001234, "1.234e-05"}, {123456789.123, "123,456,789"},
		{-0.0000001, "-1e-07"}, {-0.0001, "-0.0001"}, {1e16, "1e+16"}, {math.NaN(), "—"}, {math.Inf(-1), "−Inf"},
		{0.49999999, "0.5"}, {-1234567.8, "-1,234,568"},
	} {
		if got := numberText(c.f); got != c.want {
			t.Errorf("numberText(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestHistBars(t *testing.T) {
	s := query.Summary{Hist: []int64{3, 0, 1, 1}, HistMin: 0, HistMax: 2}
	got := histBars(s, "row")
	want := []histBar{
		{0, 0.5, 3, "0 – 0.5: 3 rows"},
		{0.5, 1, 0, "0.5 – 1: 0 rows"},
		{1, 1.5, 1, "1 – 1.5: 1 row"},
		{1.5, 2, 1, "1.5 – 2: 1 row"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d bars", len(got))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("bar %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestQuickState: the statistics panel's quick filter shows the filter
// applied: the values a quick filter of the column kept are checked again
// (quotes and all), its range's bounds typed again; terms a quick filter
// does not write (not in, <), other columns' terms and text that does not
// parse leave the inputs blank.
func TestQuickState(t *testing.T) {
	cols := []query.Column{
		{Name: "label", Type: arrow.BinaryTypes.String},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
	}
	label, score, ok := query.Operand{Column: "label"}, query.Operand{Column: "score"}, query.Operand{Column: "ok"}
	for _, c := range []struct {
		filter  string
		x       query.Operand
		checked []string
		lo, hi  string
	}{
		{"", label, nil, "", ""},
		{"label in ('cat', 'it''s', '') and score > 0.9", label, []string{"cat", "it's", ""}, "", ""},
		{"label = 'cat'", label, []string{"cat"}, "", ""},
		{"label not in ('cat')", label, nil, "", ""},
		{"score between -1e3 and 2", score, nil, "-1e3", "2"},
		{"label = 'x' and score >= 0.5", score, nil, "0.5", ""},
		{"score <= 0.5", score, nil, "", "0.5"},
		{"score < 0.5", score, nil, "", ""},
		{"score between 0 and", score, nil, "", ""},
		{"ok in (true)", ok, []string{"true"}, "", ""},
		{"label in ('cat')", score, nil, "", ""},
	} {
		checked, lo, hi := quickState(c.filter, c.x)
		var got []string
		for v, on := range checked {
			if on {
				got = append(got, v)
			}
		}
		slices.Sort(got)
		want := slices.Clone(c.checked)
		slices.Sort(want)
		if !slices.Equal(got, want) || lo != c.lo || hi != c.hi {
			t.Errorf("quickState(%q, %s) = %q, %q, %q; want %q, %q, %q", c.filter, c.x, got, lo, hi, want, c.lo, c.hi)
		}
	}
	// What a quick filter writes reads back as what was chosen.
	values := []string{"it's", "''", `say "hi"`, "a,b)", ""}
	q, err := session.QuickQuery("score > 1", session.QuickAsk{X: label, Values: values}, cols)
	if err != nil {
		t.Fatal(err)
	}
	checked, _, _ := quickState(q, label)
	for _, v := range values {
		if !checked[v] {
			t.Errorf("%q from %q: not checked again", v, q)
		}
	}
}

// TestElementFigures: a tensor column's element statistics as the inline
// panel shows them, infinities only when there are some, and the rows
// that could not be read with the first error.
func TestElementFigures(t *testing.T) {
	c := &inspect.ColumnStats{Rows: 2560, NullRows: 1, BadRows: 2, OtherShapes: 0}
	c.Count, c.Nulls, c.NaN, c.PosInf, c.Finite = 31_457_280, 0, 3, 1, 31_457_276
	c.Min, c.Max, c.Mean, c.Std = 0, 250, 124.987654321, 72.5
	s := query.Summary{Elements: c, Unevaluated: 2, FirstError: "row 7: bad PNG"}
	got := figureText(elementFigures(s, scan.Unread{}))
	want := "count=2,560; nulls=1; values=31,457,280; value-nulls=0; nan=3; inf=1 / 0; min=0; max=250; mean=124.988; " +
		"std=72.5 (population standard deviation (numpy.std, ddof=0)); unevaluated=2 (row 7: bad PNG); "
	if got != want {
		t.Errorf("figures\n got %s\nwant %s", got, want)
	}
	c.PosInf, c.BadRows, s.Unevaluated = 0, 0, 0
	if got := figureText(elementFigures(s, scan.Unread{})); strings.Contains(got, "inf=") || strings.Contains(got, "unevaluated") {
		t.Errorf("no infinities, nothing unread: %s", got)
	}
	h := elementHistogram(query.Summary{Elements: &inspect.ColumnStats{Stats: inspect.Stats{Hist: []int{3, 0, 5}, HistMin: 0, HistMax: 3}}})
	bars := histBars(h, "value")
	if len(bars) != 3 || bars[2].Count != 5 || bars[2].Hi != 3 || bars[0].Title != "0 – 1: 3 values" || !h.HistExact {
		t.Errorf("element histogram bars %+v", bars)
	}
}
