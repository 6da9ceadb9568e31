package query

import (
	"cmp"
	"strings"
)

// Bounds are what is known of a column's values in a part of a file
// without reading them: bounds of its non-null values and how many are
// null, as a Parquet row group's column chunk statistics give them
// (Apache Parquet format, ColumnMetaData.statistics: min_value, max_value,
// null_count). A filter uses them to skip the parts where no row can match
// (Filter.MayMatch).
type Bounds struct {
	// Rows is the number of rows in the part.
	Rows int64
	// Nulls is the number of null values, -1 when unknown.
	Nulls int64
	// Min and Max bound the non-null values (Min ≤ every value ≤ Max; they
	// need not be values themselves), nil when unknown, as Go values of
	// the column's type (of its dictionary's values for a
	// dictionary-encoded column): int64 for signed integers, dates, times,
	// timestamps and durations (in the type's unit), uint64 for unsigned
	// integers, float64 for floating point (NaN values are not bounded),
	// string for strings, bool for booleans. Values of other types are
	// ignored.
	Min, Max any
}

// MayMatch reports whether some row of a part of the file may match f,
// given bounds(col) for the columns f names (col indexes the columns f was
// bound to; ok false: nothing is known of it). False means that no row of
// the part matches, so it need not be read; true, that some may.
// Conditions on tensor statistics, contains and starts with, decimals and
// search are not decided by bounds: they may match.
func (f *Filter) MayMatch(bounds func(col int) (Bounds, bool)) bool {
	return outcomes(f.root, bounds).t
}

// outcome is which truth values an expression may take on a part's rows:
// true, false, unknown (SQL's null).
type outcome struct{ t, f, u bool }

var anyOutcome = outcome{true, true, true}

func outcomes(n node, bounds func(col int) (Bounds, bool)) outcome {
	switch n := n.(type) {
	case *notNode:
		o := outcomes(n.x, bounds)
		return outcome{o.f, o.t, o.u}
	case *andNode:
		return conjOutcome(n.terms, bounds, false)
	case *orNode:
		return conjOutcome(n.terms, bounds, true)
	case *leaf:
		return leafOutcome(n, bounds)
	}
	return anyOutcome
}

// conjOutcome combines the outcomes of an and (or, by De Morgan, of an or
// with its sides swapped): a row is true when every term is, false when
// one is, unknown when none is false and one is unknown.
func conjOutcome(terms []node, bounds func(col int) (Bounds, bool), or bool) outcome {
	out := outcome{t: true, u: true}
	someU := false
	for _, n := range terms {
		o := outcomes(n, bounds)
		if or {
			o.t, o.f = o.f, o.t
		}
		out.t = out.t && o.t
		out.f = out.f || o.f
		out.u = out.u && (o.t || o.u)
		someU = someU || o.u
	}
	out.u = out.u && someU
	if or {
		out.t, out.f = out.f, out.t
	}
	return out
}

// leafOutcome is what a predicate may be on a part's rows, from its
// column's bounds.
func leafOutcome(l *leaf, bounds func(col int) (Bounds, bool)) outcome {
	if l.op.fn != nil {
		return anyOutcome
	}
	b, ok := bounds(l.op.col)
	if !ok {
		return anyOutcome
	}
	if b.Rows <= 0 {
		return outcome{}
	}
	someNull, allNull := b.Nulls != 0, b.Nulls == b.Rows
	var o outcome
	if l.isNull {
		o = outcome{t: someNull, f: !allNull}
	} else {
		o.u = someNull
		if !allNull {
			some, all, known := true, false, false
			if pt, ok := l.test.(boundsTest); ok && b.Min != nil && b.Max != nil {
				some, all, known = pt.pass(b.Min, b.Max)
			}
			if !known {
				some, all = true, false
			}
			o.t, o.f = some, !all
		}
		if l.nullFalse {
			o.f, o.u = o.f || o.u, false
		}
	}
	if l.neg {
		o.t, o.f = o.f, o.t
	}
	return o
}

// boundsTest is a valueTest that can tell, from bounds of the values,
// whether some or all of them pass (known false: it cannot tell).
type boundsTest interface {
	pass(lo, hi any) (some, all, known bool)
}

// widen is an ordered value as Bounds hold it: int64, uint64 or float64.
func widen[T cmp.Ordered](v T) any {
	switch x := any(v).(type) {
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	case uint8:
		return uint64(x)
	case uint16:
		return uint64(x)
	case uint32:
		return uint64(x)
	case uint64:
		return x
	case float32:
		return float64(x)
	case float64:
		return x
	}
	return nil
}

// compareAny compares a and b, two values of one of the types of Bounds;
// ok is false for values of different or other types.
func compareAny(a, b any) (c int, ok bool) {
	switch x := a.(type) {
	case int64:
		y, ok := b.(int64)
		return cmp.Compare(x, y), ok
	case uint64:
		y, ok := b.(uint64)
		return cmp.Compare(x, y), ok
	case float64:
		y, ok := b.(float64)
		return cmp.Compare(x, y), ok
	case string:
		y, ok := b.(string)
		return strings.Compare(x, y), ok
	}
	return 0, false
}

// pass: some values in [lo, hi] may pass when one of the ranges meets
// [lo, hi]; all do when one holds it (never for floating point, whose NaN
// values lie outside any bounds and pass no range).
func (t ordTest[T]) pass(lo, hi any) (some, all, known bool) {
	if c, ok := compareAny(lo, hi); !ok || c > 0 {
		return false, false, false
	}
	_, float := lo.(float64)
	for _, r := range t.r {
		rlo, rhi := widen(r.lo), widen(r.hi)
		a, ok1 := compareAny(rlo, hi)
		b, ok2 := compareAny(lo, rhi)
		if !ok1 || !ok2 {
			return false, false, false
		}
		if a <= 0 && b <= 0 {
			some = true
		}
		c, _ := compareAny(rlo, lo)
		d, _ := compareAny(hi, rhi)
		if c <= 0 && d <= 0 && !float {
			all = true
		}
	}
	return some, all, true
}

// pass: as ordTest's, for string ranges (Go's byte-wise order, Parquet's
// order of UTF-8 min_value and max_value).
func (t strTest) pass(lo, hi any) (some, all, known bool) {
	l, ok1 := lo.(string)
	h, ok2 := hi.(string)
	if !ok1 || !ok2 || l > h {
		return false, false, false
	}
	for _, r := range t.r {
		// r meets [l, h]: its start is at most h, and l is below its end.
		startOK := r.lo < h || !r.loOpen && r.lo == h
		endOK := r.noHi || l < r.hi || !r.hiOpen && l == r.hi
		if startOK && endOK {
			some = true
		}
		if r.has(l) && r.has(h) {
			all = true
		}
	}
	return some, all, true
}

// pass: the values in [lo, hi] are false, true or both.
func (t boolTest) pass(lo, hi any) (some, all, known bool) {
	l, ok1 := lo.(bool)
	h, ok2 := hi.(bool)
	if !ok1 || !ok2 || l && !h {
		return false, false, false
	}
	all = true
	for _, v := range []bool{l, h} {
		some = some || t[b2i(v)]
		all = all && t[b2i(v)]
	}
	return some, all, true
}
