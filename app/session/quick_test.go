package session

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/query"
)

func TestQuickQuery(t *testing.T) {
	cols := []query.Column{
		{Name: "label", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "my col", Type: arrow.BinaryTypes.String},
		{Name: "emb", Type: arrow.PrimitiveTypes.Float32, Tensor: true},
	}
	label, score := query.Operand{Column: "label"}, query.Operand{Column: "score"}
	for _, c := range []struct {
		filter string
		ask    QuickAsk
		want   string
	}{
		{"", QuickAsk{X: label, Values: []string{"cat", "dog"}}, "label in ('cat', 'dog')"},
		{"score > 0.9", QuickAsk{X: label, Values: []string{"cat"}}, "score > 0.9 and label in ('cat')"},
		{"label in ('bird') and score > 0.9", QuickAsk{X: label, Values: []string{"cat", "dog"}}, "score > 0.9 and label in ('cat', 'dog')"},
		{"label in ('bird') and score > 0.9", QuickAsk{X: label}, "score > 0.9"},
		{"label = 'cat'", QuickAsk{X: score, Range: true, Lo: "0.25", Hi: " 0.75 "}, "label = 'cat' and score between 0.25 and 0.75"},
		{"score between 0 and 1", QuickAsk{X: score, Range: true, Lo: "-1e3"}, "score >= -1e3"},
		{"score between 0 and 1", QuickAsk{X: score, Range: true, Hi: "2"}, "score <= 2"},
		{"score between 0 and 1 and label = 'x'", QuickAsk{X: score, Range: true}, "label = 'x'"},
		{"", QuickAsk{X: query.Operand{Column: "ok"}, Values: []string{"true"}}, "ok in (true)"},
		{"", QuickAsk{X: query.Operand{Func: "mean", Column: "emb"}, Range: true, Lo: "0", Hi: "1.5"}, "mean(emb) between 0 and 1.5"},
		// Quotes in values and names, written so that they read back.
		{"", QuickAsk{X: query.Operand{Column: "my col"}, Values: []string{"it's", "''", `say "hi"`, "a,b)", ""}},
			`"my col" in ('it''s', '''''', 'say "hi"', 'a,b)', '')`},
	} {
		got, err := QuickQuery(c.filter, c.ask, cols)
		if err != nil || got != c.want {
			t.Errorf("quickQuery(%q, %+v) = %q, %v; want %q", c.filter, c.ask, got, err, c.want)
			continue
		}
		if got == "" {
			continue
		}
		f, err := query.Compile(got, cols)
		if err != nil || f.String() != got {
			t.Errorf("%q does not compile to itself: %v", got, err)
		}
	}
	for _, bad := range []QuickAsk{{X: score, Range: true, Lo: "abc"}, {X: score, Range: true, Hi: "'1'"}, {X: score, Range: true, Lo: "1", Hi: "2 3"}} {
		if q, err := QuickQuery("", bad, cols); err == nil {
			t.Errorf("quickQuery(%+v) = %q, want an error", bad, q)
		}
	}
}

// TestQuickQueryQuotes: any value, quotes and all, comes back from the
// query the quick filter writes as the same value.
func TestQuickQueryQuotes(t *testing.T) {
	cols := []query.Column{{Name: `we"ird 'name`, Type: arrow.BinaryTypes.String}}
	x := query.Operand{Column: cols[0].Name}
	values := []string{"'", "''", "'a'", "a'b'c", `"`, `\'`, "x' or 1=1 or '", "é'ü", "tab\tnew\nline", "))", "in ('a')"}
	for _, v := range values {
		q, err := QuickQuery("", QuickAsk{X: x, Values: []string{v}}, cols)
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		e, err := query.Parse(q)
		if err != nil {
			t.Fatalf("%q: %q does not parse: %v", v, q, err)
		}
		in, ok := e.(*query.In)
		if !ok || in.X.Column != cols[0].Name || len(in.Values) != 1 || in.Values[0].Text != v {
			t.Errorf("%q: %q reads back as %#v", v, q, e)
		}
	}
}
