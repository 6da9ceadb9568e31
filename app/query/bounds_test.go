package query

import (
	"context"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// boundsOf computes a column's Bounds from its values, as a Parquet
// writer's statistics give them (NaN left out); ok is false for a type
// Bounds do not cover.
func boundsOf(arr arrow.Array) (Bounds, bool) {
	b := Bounds{Rows: int64(arr.Len()), Nulls: int64(arr.NullN())}
	vals := arr
	idx := func(i int) int { return i }
	if d, ok := arr.(*array.Dictionary); ok {
		vals = d.Dictionary()
		idx = d.GetValueIndex
	}
	var value func(i int) (any, bool)
	switch a := vals.(type) {
	case *array.Int8:
		value = func(i int) (any, bool) { return int64(a.Value(i)), true }
	case *array.Int16:
		value = func(i int) (any, bool) { return int64(a.Value(i)), true }
	case *array.Int32:
		value = func(i int) (any, bool) { return int64(a.Value(i)), true }
	case *array.Int64:
		value = func(i int) (any, bool) { return a.Value(i), true }
	case *array.Uint8:
		value = func(i int) (any, bool) { return uint64(a.Value(i)), true }
	case *array.Uint16:
		value = func(i int) (any, bool) { return uint64(a.Value(i)), true }
	case *array.Uint32:
		value = func(i int) (any, bool) { return uint64(a.Value(i)), true }
	case *array.Uint64:
		value = func(i int) (any, bool) { return a.Value(i), true }
	case *array.Date32:
		value = func(i int) (any, bool) { return int64(a.Value(i)), true }
	case *array.Date64:
		value = func(i int) (any, bool) { return int64(a.Value(i)), true }
	case *array.Time32:
		value = func(i int) (any, bool) { return int64(a.Value(i)), true }
	case *array.Time64:
		value = func(i int) (any, bool) { return int64(a.Value(i)), true }
	case *array.Timestamp:
		value = func(i int) (any, bool) { return int64(a.Value(i)), true }
	case *array.Float16:
		value = func(i int) (any, bool) { v := float64(a.Value(i).Float32()); return v, !math.IsNaN(v) }
	case *array.Float32:
		value = func(i int) (any, bool) { v := float64(a.Value(i)); return v, !math.IsNaN(v) }
	case *array.Float64:
		value = func(i int) (any, bool) { v := a.Value(i); return v, !math.IsNaN(v) }
	case *array.String:
		value = func(i int) (any, bool) { return a.Value(i), true }
	case *array.LargeString:
		value = func(i int) (any, bool) { return a.Value(i), true }
	case *array.StringView:
		value = func(i int) (any, bool) { return a.Value(i), true }
	case *array.Boolean:
		value = func(i int) (any, bool) { return a.Value(i), true }
	default:
		return b, false
	}
	less := func(x, y any) bool {
		if bx, ok := x.(bool); ok {
			return !bx && y.(bool)
		}
		c, _ := compareAny(x, y)
		return c < 0
	}
	for i := range arr.Len() {
		if arr.IsNull(i) || vals.IsNull(idx(i)) {
			continue
		}
		v, ok := value(idx(i))
		if !ok {
			continue
		}
		if b.Min == nil || less(v, b.Min) {
			b.Min = v
		}
		if b.Max == nil || less(b.Max, v) {
			b.Max = v
		}
	}
	// A dictionary's null values count as nulls too, which null_count
	// does not say: unknown.
	if _, ok := arr.(*array.Dictionary); ok && vals.NullN() > 0 {
		b.Nulls = -1
	}
	return b, true
}

// TestMayMatchSound: over every filter of the kernel tests and windows of
// 1 to 64 rows of the test batch, with each window's bounds computed from
// its values, MayMatch never says no for a window where a row matches;
// and it says no for some windows (it prunes), counted per filter kind.
func TestMayMatchSound(t *testing.T) {
	g, b := newData(t)
	cols := ColumnsOf(b.Schema())
	pruned, empty := 0, 0
	for _, c := range filterCases(g) {
		f, err := Compile(c.q, cols)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		for _, w := range []int{1, 3, 17, 64} {
			for start := 0; start+w <= nRows; start += w {
				win := b.NewSlice(int64(start), int64(start+w))
				sel, err := f.Eval(context.Background(), win, nil)
				if err != nil {
					t.Fatalf("%s: %v", c.q, err)
				}
				may := f.MayMatch(func(col int) (Bounds, bool) { return boundsOf(win.Column(col)) })
				win.Release()
				if len(sel.Rows) > 0 && !may {
					t.Fatalf("%s: rows %d–%d: MayMatch says no, yet rows %v match", c.q, start, start+w-1, sel.Rows)
				}
				if len(sel.Rows) == 0 {
					empty++
					if !may {
						pruned++
					}
				}
			}
		}
	}
	t.Logf("%d of %d windows with no match pruned", pruned, empty)
	if pruned < empty/3 {
		t.Errorf("only %d of %d windows with no match pruned", pruned, empty)
	}
}

// TestMayMatch: bounds decide exactly in these cases.
func TestMayMatch(t *testing.T) {
	g, b := newData(t)
	_ = g
	cols := ColumnsOf(b.Schema())
	i64 := func(lo, hi, nulls int64) Bounds { return Bounds{Rows: 100, Nulls: nulls, Min: lo, Max: hi} }
	f64 := func(lo, hi float64) Bounds { return Bounds{Rows: 100, Nulls: 0, Min: lo, Max: hi} }
	str := func(lo, hi string) Bounds { return Bounds{Rows: 100, Nulls: 0, Min: lo, Max: hi} }
	cases := []struct {
		q      string
		bounds map[string]Bounds
		want   bool
	}{
		{"i64 > 5", map[string]Bounds{"i64": i64(0, 5, 0)}, false},
		{"i64 > 5", map[string]Bounds{"i64": i64(0, 6, 0)}, true},
		{"i64 >= 5", map[string]Bounds{"i64": i64(0, 5, 0)}, true},
		{"i64 between 10 and 20", map[string]Bounds{"i64": i64(21, 30, 0)}, false},
		{"i64 in (1, 50)", map[string]Bounds{"i64": i64(2, 49, 0)}, false},
		{"i64 not in (1, 50)", map[string]Bounds{"i64": i64(1, 1, 0)}, false},
		{"i64 not in (1, 50)", map[string]Bounds{"i64": i64(1, 1, 3)}, false}, // a null is not true
		{"i64 != 7", map[string]Bounds{"i64": i64(7, 7, 0)}, false},
		{"i64 is null", map[string]Bounds{"i64": i64(0, 9, 0)}, false},
		{"i64 is null", map[string]Bounds{"i64": i64(0, 9, -1)}, true},
		{"i64 is not null", map[string]Bounds{"i64": {Rows: 100, Nulls: 100}}, false},
		{"not (i64 > 5)", map[string]Bounds{"i64": i64(6, 9, 0)}, false},
		{"i64 > 5 or i64 < 0", map[string]Bounds{"i64": i64(0, 5, 0)}, false},
		{"i64 > 5 or f64 > 0.5", map[string]Bounds{"i64": i64(0, 5, 0)}, true}, // f64 unknown
		{"i64 > 5 and f64 > 0.5", map[string]Bounds{"i64": i64(0, 5, 0)}, false},
		{"f64 > 0.9", map[string]Bounds{"f64": f64(0, 0.9)}, false},
		{"f64 != 0.5", map[string]Bounds{"f64": f64(0.5, 0.5)}, true}, // NaN values may hide
		{"str = 'dog'", map[string]Bounds{"str": str("a", "cat")}, false},
		{"str >= 'dog'", map[string]Bounds{"str": str("a", "dog")}, true},
		{"str contains 'dog'", map[string]Bounds{"str": str("a", "b")}, true}, // not decided
		{"label = 'cat'", map[string]Bounds{"label": str("dog", "owl")}, false},
		{"b = true", map[string]Bounds{"b": {Rows: 9, Nulls: 0, Min: false, Max: false}}, false},
		{"b = true", map[string]Bounds{"b": {Rows: 9, Nulls: 0, Min: false, Max: true}}, true},
		{"mean(emb) > 100", map[string]Bounds{"emb": i64(0, 1, 0)}, true},                      // tensor statistics: not decided
		{"i64 > 5", map[string]Bounds{"i64": {Rows: 100, Nulls: 0, Min: 1.5, Max: 2.5}}, true}, // another type: not decided
		{"i64 > 5", map[string]Bounds{"i64": {Rows: 0}}, false},                                // no rows
	}
	for _, c := range cases {
		f, err := Compile(c.q, cols)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		got := f.MayMatch(func(col int) (Bounds, bool) {
			bd, ok := c.bounds[cols[col].Name]
			return bd, ok
		})
		if got != c.want {
			t.Errorf("%s with %v: MayMatch %v, want %v", c.q, c.bounds, got, c.want)
		}
	}
}
