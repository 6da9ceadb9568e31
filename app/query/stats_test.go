package query

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func statsOf(t *testing.T, b arrow.RecordBatch, x string, opt StatsOptions, ts Tensors) *Stats {
	t.Helper()
	o, err := ParseOperand(x)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewStats(o, ColumnsOf(b.Schema()), opt)
	if err != nil {
		t.Fatal(err)
	}
	// In two ranges, as the browser would.
	if err := s.AddRange(context.Background(), b, ts, 0, 50); err != nil {
		t.Fatal(err)
	}
	if err := s.AddRange(context.Background(), b, ts, 50, int(b.NumRows())); err != nil {
		t.Fatal(err)
	}
	return s
}

// expectTop is the test's own top values: counts of the keys, most first,
// ties by key.
func expectTop[K cmp.Ordered](vals []K, n int, text func(K) string) []ValueCount {
	counts := map[K]int64{}
	for _, v := range vals {
		counts[v]++
	}
	keys := make([]K, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b K) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	var out []ValueCount
	for _, k := range keys[:min(n, len(keys))] {
		out = append(out, ValueCount{text(k), counts[k]})
	}
	return out
}

func expectHist(vals []float64, bins int) (lo, hi float64, h []int64) {
	lo, hi = slices.Min(vals), slices.Max(vals)
	h = make([]int64, bins)
	for _, v := range vals {
		b := bins - 1
		if hi > lo {
			b = min(bins-1, int((v-lo)/(hi-lo)*float64(bins)))
		} else {
			b = 0
		}
		h[b]++
	}
	return lo, hi, h
}

func TestStatsInt(t *testing.T) {
	g, b := newData(t)
	s := statsOf(t, b, "i8", StatsOptions{Bins: 7, Top: 3}, nil)
	var vals []int8
	var fs []float64
	for i, v := range g.i8 {
		if g.valid["i8"][i] {
			vals = append(vals, v)
			fs = append(fs, float64(v))
		}
	}
	sum := 0.0
	for _, f := range fs {
		sum += f
	}
	lo, hi, h := expectHist(fs, 7)
	distinct := len(expectTop(vals, 1000, func(v int8) string { return "" }))
	want := Summary{Count: nRows, Nulls: int64(nRows - len(vals)), Distinct: int64(distinct), DistinctExact: true,
		Min: strconv.Itoa(int(slices.Min(vals))), Max: strconv.Itoa(int(slices.Max(vals))), MinValue: lo, MaxValue: hi,
		Mean: sum / float64(len(vals)), Hist: h, HistMin: lo, HistMax: hi, HistExact: true,
		Top: expectTop(vals, 3, func(v int8) string { return strconv.Itoa(int(v)) }), TopExact: true}
	checkSummary(t, "i8", s.Summary(), want)
}

func checkSummary(t *testing.T, name string, got, want Summary) {
	t.Helper()
	same := func(a, b float64) bool {
		return a == b || math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= 1e-12*math.Abs(b)
	}
	if got.Count != want.Count || got.Nulls != want.Nulls || got.NaN != want.NaN || got.Unevaluated != want.Unevaluated ||
		got.FirstError != want.FirstError || got.Distinct != want.Distinct || got.DistinctExact != want.DistinctExact ||
		got.Min != want.Min || got.Max != want.Max || !same(got.MinValue, want.MinValue) || !same(got.MaxValue, want.MaxValue) ||
		!same(got.Mean, want.Mean) || !slices.Equal(got.Hist, want.Hist) || got.HistMin != want.HistMin || got.HistMax != want.HistMax ||
		got.HistExact != want.HistExact || !slices.Equal(got.Top, want.Top) || got.TopExact != want.TopExact {
		t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
	}
}

func TestStatsKinds(t *testing.T) {
	g, b := newData(t)
	// Strings: top values and lexicographic min and max.
	var strs []string
	for i, v := range g.str {
		if g.valid["str"][i] {
			strs = append(strs, v)
		}
	}
	for _, col := range []string{"str", "lstr", "sv"} {
		r := statsOf(t, b, col, StatsOptions{Top: 4}, nil).Summary()
		want := Summary{Count: nRows, Nulls: int64(nRows - len(strs)), Distinct: int64(len(expectTop(strs, 100, func(s string) string { return s }))),
			DistinctExact: true, Min: slices.Min(strs), Max: slices.Max(strs), MinValue: math.NaN(), MaxValue: math.NaN(), Mean: math.NaN(),
			HistExact: true, Top: expectTop(strs, 4, func(s string) string { return s }), TopExact: true}
		checkSummary(t, col, r, want)
	}
	// A dictionary: values counted once per entry; a null entry is null.
	var labels []string
	for i, v := range g.label {
		if !g.labelNull[i] {
			labels = append(labels, v)
		}
	}
	checkSummary(t, "label", statsOf(t, b, "label", StatsOptions{}, nil).Summary(), Summary{Count: nRows, Nulls: int64(nRows - len(labels)),
		Distinct: 4, DistinctExact: true, Min: "Cat", Max: "dog", MinValue: math.NaN(), MaxValue: math.NaN(), Mean: math.NaN(), HistExact: true,
		Top: expectTop(labels, 10, func(s string) string { return s }), TopExact: true})
	// Booleans: top values; the mean is the fraction of true.
	var bools []string
	trues := 0
	for i, v := range g.b {
		if g.valid["b"][i] {
			bools = append(bools, strconv.FormatBool(v))
			trues += b2i(v)
		}
	}
	checkSummary(t, "b", statsOf(t, b, "b", StatsOptions{}, nil).Summary(), Summary{Count: nRows, Nulls: int64(nRows - len(bools)),
		Distinct: 2, DistinctExact: true, Min: "false", Max: "true", MinValue: 0, MaxValue: 1, Mean: float64(trues) / float64(len(bools)),
		HistExact: true, Top: expectTop(bools, 10, func(s string) string { return s }), TopExact: true})
	// Floats: NaN counted apart; ±Inf in min and max and the mean, not in
	// the histogram's bins.
	var fin []float64
	nan, all := 0, 0
	sum := 0.0
	for i, v := range g.f64 {
		if !g.valid["f64"][i] {
			continue
		}
		all++
		switch {
		case math.IsNaN(v):
			nan++
		case math.IsInf(v, 0):
			sum += v
		default:
			sum += v
			fin = append(fin, v)
		}
	}
	lo, hi, h := expectHist(fin, 20)
	r := statsOf(t, b, "f64", StatsOptions{}, nil).Summary()
	if r.NaN != int64(nan) || r.Min != "-Inf" || r.Max != "+Inf" || !math.IsNaN(r.Mean) && !math.IsNaN(sum) || r.HistMin != lo || r.HistMax != hi ||
		!slices.Equal(r.Hist, h) || r.Nulls != int64(nRows-all) || !r.HistExact {
		t.Errorf("f64: %+v\nwant NaN %d, hist %v over [%v, %v]", r, nan, h, lo, hi)
	}
	// Exact text of decimals, dates, times and timestamps, from the Go
	// values.
	minMax := func(col string, n int, less func(a, b int) bool, text func(i int) string) (string, string) {
		lo, hi := -1, -1
		for i := range n {
			if !g.valid[col][i] {
				continue
			}
			if lo < 0 || less(i, lo) {
				lo = i
			}
			if hi < 0 || less(hi, i) {
				hi = i
			}
		}
		return text(lo), text(hi)
	}
	clock := func(d time.Duration) string {
		return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Add(d).Format("15:04:05.999999999")
	}
	for _, c := range []struct {
		col  string
		less func(a, b int) bool
		text func(i int) string
	}{
		{"dec128", func(a, b int) bool { return g.dec128[a].Cmp(g.dec128[b]) < 0 }, func(i int) string { return g.dec128[i].FloatString(2) }},
		{"dec256", func(a, b int) bool { return g.dec256[a].Cmp(g.dec256[b]) < 0 }, func(i int) string { return g.dec256[i].FloatString(3) }},
		{"dec32", func(a, b int) bool { return g.dec32[a].Cmp(g.dec32[b]) < 0 }, func(i int) string { return g.dec32[i].FloatString(2) }},
		{"d32", func(a, b int) bool { return g.d32[a].Before(g.d32[b]) }, func(i int) string { return g.d32[i].Format("2006-01-02") }},
		{"d64", func(a, b int) bool { return g.d64[a].Before(g.d64[b]) }, func(i int) string { return g.d64[i].Format("2006-01-02") }},
		{"t32", func(a, b int) bool { return g.t32[a] < g.t32[b] }, func(i int) string { return clock(g.t32[i]) }},
		{"t64", func(a, b int) bool { return g.t64[a] < g.t64[b] }, func(i int) string { return clock(g.t64[i]) }},
		{"ts", func(a, b int) bool { return g.ts[a].Before(g.ts[b]) }, func(i int) string {
			return g.ts[i].In(g.paris).Format("2006-01-02T15:04:05.999999999Z07:00")
		}},
		{"tso", func(a, b int) bool { return g.tso[a].Before(g.tso[b]) }, func(i int) string {
			return g.tso[i].In(g.kolkata).Format("2006-01-02T15:04:05.999999999Z07:00")
		}},
		{"tsn", func(a, b int) bool { return g.tsn[a].Before(g.tsn[b]) }, func(i int) string { return g.tsn[i].UTC().Format("2006-01-02T15:04:05.999999999") }},
	} {
		r := statsOf(t, b, c.col, StatsOptions{}, nil).Summary()
		lo, hi := minMax(c.col, nRows, c.less, c.text)
		if r.Min != lo || r.Max != hi {
			t.Errorf("%s: min %q max %q, want %q %q", c.col, r.Min, r.Max, lo, hi)
		}
	}
}

func TestStatsTensor(t *testing.T) {
	g, b := newData(t)
	s := statsOf(t, b, "mean(emb)", StatsOptions{Bins: 4}, brokenTensors{ArrayTensors{b}})
	var means []float64
	nulls, nans, broken := 0, 0, 0
	for i, row := range g.emb {
		switch {
		case row == nil:
			nulls++
		case i%10 == 1:
			broken++
		default:
			if _, _, m, _, _ := tensorStats(row); math.IsNaN(m) {
				nans++
			} else {
				means = append(means, m)
			}
		}
	}
	r := s.Summary()
	sum := 0.0
	for _, m := range means {
		sum += m
	}
	lo, hi, h := expectHist(means, 4)
	if r.Count != nRows || r.Nulls != int64(nulls) || r.NaN != int64(nans) || r.Unevaluated != int64(broken) || r.FirstError != "row 1: broken" ||
		math.Abs(r.Mean-sum/float64(len(means))) > 1e-12 || r.MinValue != lo || r.MaxValue != hi || !slices.Equal(r.Hist, h) {
		t.Errorf("mean(emb): %+v\nwant nulls %d NaN %d broken %d mean %v hist %v over [%v, %v]", r, nulls, nans, broken, sum/float64(len(means)), h, lo, hi)
	}
	if _, err := NewStats(Operand{Func: "shape", Column: "emb"}, ColumnsOf(b.Schema()), StatsOptions{}); err == nil {
		t.Error("stats of shape(): no error")
	}
}

// TestStatsMerge: statistics of two halves merged are those of the whole.
func TestStatsMerge(t *testing.T) {
	_, b := newData(t)
	for _, col := range []string{"i8", "str", "label", "f32", "dec256", "ts", "mean(emb)"} {
		o, _ := ParseOperand(col)
		whole, _ := NewStats(o, ColumnsOf(b.Schema()), StatsOptions{})
		whole.Add(context.Background(), b, nil)
		a, _ := NewStats(o, ColumnsOf(b.Schema()), StatsOptions{})
		c, _ := NewStats(o, ColumnsOf(b.Schema()), StatsOptions{})
		a.AddRange(context.Background(), b, nil, 0, 77)
		c.AddRange(context.Background(), b, nil, 77, nRows)
		a.Merge(c)
		checkSummary(t, col+" merged", a.Summary(), whole.Summary())
	}
}

// TestStatsBeyondLimit: past the distinct limit, distinct is estimated,
// the frequent values still come out on top, the histogram is estimated
// from the sample, and Histogram's second pass counts it exactly.
func TestStatsBeyondLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 20000
	vals := make([]int64, n)
	for i := range vals {
		vals[i] = rng.Int64N(5000)
		if i%4 == 0 {
			vals[i] = 7 // a heavy hitter: a quarter of the rows
		}
		if i%10 == 1 {
			vals[i] = -3
		}
	}
	bld := array.NewInt64Builder(memory.DefaultAllocator)
	bld.AppendValues(vals, nil)
	b := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{bld.NewArray()}, n)
	s := statsOf(t, b, "v", StatsOptions{DistinctLimit: 100, Bins: 10, Sample: 4096}, nil)
	r := s.Summary()
	fs := make([]float64, n)
	for i, v := range vals {
		fs[i] = float64(v)
	}
	lo, hi, exact := expectHist(fs, 10)
	distinct := len(expectTop(vals, n, func(int64) string { return "" }))
	if r.DistinctExact || r.TopExact || r.HistExact {
		t.Errorf("exact flags: %+v", r)
	}
	if math.Abs(float64(r.Distinct-int64(distinct))) > 0.03*float64(distinct) {
		t.Errorf("distinct %d, want about %d", r.Distinct, distinct)
	}
	if len(r.Top) < 2 || r.Top[0].Value != "7" || r.Top[1].Value != "-3" || r.Top[0].Count > n/4 || r.Top[0].Count < n/4-n/101 {
		t.Errorf("top %v", r.Top)
	}
	var total int64
	for i, c := range r.Hist {
		total += c
		if math.Abs(float64(c-exact[i])) > 0.05*n {
			t.Errorf("estimated bin %d: %d, exactly %d", i, c, exact[i])
		}
	}
	if r.HistMin != lo || r.HistMax != hi || math.Abs(float64(total-n)) > 10 {
		t.Errorf("histogram over [%v, %v] of %d, want [%v, %v] of %d", r.HistMin, r.HistMax, total, lo, hi, n)
	}
	h := s.Histogram()
	for _, rg := range [][2]int{{0, 5000}, {5000, n}} {
		if err := h.AddRange(context.Background(), b, nil, rg[0], rg[1]); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(h.Counts(), exact) {
		t.Errorf("second pass %v, want %v", h.Counts(), exact)
	}
}

// TestHyperLogLog: a million distinct values are estimated within 2.5 %
// (three standard errors of 0.81 %); the estimate is deterministic.
func TestHyperLogLog(t *testing.T) {
	for _, n := range []int{10, 1000, 100_000, 1_000_000} {
		var h hll
		for i := range n {
			h.add(mix64(uint64(i)))
			h.add(mix64(uint64(i))) // repeats do not count
		}
		e := h.estimate()
		if rel := math.Abs(e-float64(n)) / float64(n); rel > 0.025 {
			t.Errorf("%d distinct: estimate %.0f (%.2f %%)", n, e, 100*rel)
		} else {
			t.Logf("%d distinct: estimate %.0f (%.3f %%)", n, e, 100*rel)
		}
	}
}

func TestParseOperand(t *testing.T) {
	if o, err := ParseOperand(" MEAN(emb)"); err != nil || o.String() != "mean(emb)" {
		t.Errorf("%v %v", o, err)
	}
	if _, err := ParseOperand(" -x"); err == nil || err.Error() != "expected a column name or function, found '-' at 1" {
		t.Errorf("%v", err)
	}
}
