package query

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/zeebo/xxh3"

	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/tensorext"
)

// StatsOptions bound the work and memory of column statistics; zero
// fields take the defaults.
type StatsOptions struct {
	// DistinctLimit: values are counted exactly up to this many distinct
	// ones (10,000); past it, distinct is a HyperLogLog estimate and the
	// top values a Misra–Gries summary of as many counters.
	DistinctLimit int
	Bins          int // histogram bins (20)
	Top           int // top values reported (10)
	// Sample is the size of the reservoir sample a histogram is estimated
	// from once distinct values pass DistinctLimit (65,536).
	Sample int
	// Elements: the statistics of a tensor or image column are of its
	// elements, with the rows' shapes (Summary.Elements; elements.go),
	// instead of its rows' count and nulls only.
	Elements bool
}

func (o StatsOptions) withDefaults() StatsOptions {
	if o.DistinctLimit <= 0 {
		o.DistinctLimit = 10000
	}
	if o.Bins <= 0 {
		o.Bins = 20
	}
	if o.Top <= 0 {
		o.Top = 10
	}
	if o.Sample <= 0 {
		o.Sample = 1 << 16
	}
	return o
}

// Stats accumulates the statistics of a column, or of a tensor function
// of a tensor column (the distribution of mean(x) over the rows), batch
// after batch (Add, AddRange) or merged from parts (Merge).
type Stats struct {
	*statsSubject

	count, nulls, nan, unevaluated int64
	firstErr                       string

	sum      sum
	summed   int64
	has      bool
	minK     uint64
	maxK     uint64
	minS     string
	maxS     string
	finMin   float64
	finMax   float64
	finite   int64
	nums     *counter[uint64]
	strs     *counter[string]
	sample   reservoir
	lastDict arrow.Array // the last dictionary, whose values lastRead reads
	lastRead func(i int) rowValue
	counts   []int64  // of the last dictionary's entries in a range (zero between ranges)
	counted  []int    // the entries counted in a range
	buf32    []uint32 // the keys of a range
	buf64    []uint64
	elems    *inspect.ColumnStatsBuilder // element statistics (StatsOptions.Elements)
	pass     int                         // the pass over the rows (elements.go)
}

// statsSubject is what statistics are of and how they read it: the operand
// bound against its column, the values' type and kind, and the options.
// It is set by NewStats and not changed after.
type statsSubject struct {
	x       Operand
	op      operand
	col     Column
	dt      arrow.DataType // the values' type (float64 for a function)
	kind    vecKind
	other   bool // a type with no values to compare: count and nulls only
	numeric bool // mean and histogram apply
	opt     StatsOptions
}

// ParseOperand parses a column or tensor function, "score" or "mean(emb)".
func ParseOperand(s string) (Operand, error) {
	if t := strings.TrimLeft(s, " \t\r\n"); strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
		return Operand{}, errAt(Span{len(s) - len(t), 1}, "expected a column name or function, found '%c'", t[0])
	}
	k, err := ParseSort(s)
	return k.X, err
}

// NewStats starts the statistics of x (a column or a tensor function).
func NewStats(x Operand, cols []Column, opt StatsOptions) (*Stats, error) {
	x = cloneOperand(x)
	op, err := bindOperand(&x, cols)
	if err != nil {
		return nil, err
	}
	s := &Stats{statsSubject: &statsSubject{x: x, op: op, col: cols[op.col], opt: opt.withDefaults()}}
	switch {
	case op.fn != nil && op.fn.kind == fShape:
		return nil, errAt(x.At, "shape() has no statistics: take those of size() or dim()")
	case op.fn != nil:
		s.dt, s.kind, s.numeric = arrow.PrimitiveTypes.Float64, vec64, true
	case s.col.Tensor || s.col.Image:
		s.other = true
		if s.opt.Elements {
			s.elems = inspect.NewColumnStatsBuilder(s.opt.Bins)
		}
	default:
		s.dt = valueType(s.col.Type)
		if sk, err := BindSort(SortKey{X: x}, cols); err == nil {
			s.kind = sk.kind
			d := domainOf(s.dt)
			s.numeric = d != dString && d != dBool
		} else {
			s.other = true
		}
	}
	s.nums = newCounter(s.opt.DistinctLimit, mix64)
	s.strs = newCounter(s.opt.DistinctLimit, xxh3.HashString)
	s.sample = reservoir{size: s.opt.Sample, rng: rand.New(rand.NewPCG(1, 2))}
	s.finMin, s.finMax = math.Inf(1), math.Inf(-1)
	return s, nil
}

// String names what the statistics are of: "score", "mean(emb)".
func (s *Stats) String() string { return s.x.String() }

// Needs lists the column the statistics read.
func (s *Stats) Needs() []string { return []string{s.col.Name} }

// rowValue is one value: its order-preserving key (uint64 types), or its
// key string (strings; decimal128/256 as big-endian bytes), and its value
// as a float64 (numbers).
type rowValue struct {
	key  uint64
	skey string
	f    float64
}

// Add adds every row of b.
func (s *Stats) Add(ctx context.Context, b arrow.RecordBatch, ts Tensors) error {
	return s.AddRange(ctx, b, ts, 0, int(b.NumRows()))
}

// AddRange adds the rows [start, end) of b, which must hold the column
// (Needs); ts reads tensors as for Filter.Batch.
func (s *Stats) AddRange(ctx context.Context, b arrow.RecordBatch, ts Tensors, start, end int) error {
	return s.visit(ctx, b, ts, start, end, s.add)
}

// visit calls fn with each non-null value of the rows [start, end) (a
// dictionary's values once each, with their number of rows), and counts
// rows, nulls and rows that could not be read.
func (s *Stats) visit(ctx context.Context, b arrow.RecordBatch, ts Tensors, start, end int, fn func(rowValue, int64)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	col, arr, err := column(b, s.col)
	if err != nil {
		return err
	}
	if start < 0 || end > arr.Len() || start > end {
		return fmt.Errorf("query: rows [%d, %d) outside a batch of %d", start, end, arr.Len())
	}
	if ts == nil {
		ts = ArrayTensors{b}
	}
	if s.elems != nil {
		if s.pass == 0 {
			s.count += int64(end - start)
			s.nulls += int64(nullsIn(arr, start, end))
		}
		return s.visitElements(ctx, ts, col, arr, start, end)
	}
	s.count += int64(end - start)
	if s.other {
		s.nulls += int64(nullsIn(arr, start, end))
		return nil
	}
	if s.op.fn != nil {
		return s.visitTensors(ctx, ts, col, arr, start, end, fn)
	}
	if d, ok := arr.(*array.Dictionary); ok {
		return s.visitDictionary(d, start, end, fn)
	}
	read, err := s.reader(arr, start, end)
	if err != nil {
		return err
	}
	for i := start; i < end; i++ {
		if arr.IsNull(i) {
			s.nulls++
			continue
		}
		fn(read(i), 1)
	}
	return nil
}

// visitTensors calls fn with the tensor function's value of each row of
// [start, end) whose tensor (column col, array arr) ts reads, and counts
// the null tensors and those that could not be read.
func (s *Stats) visitTensors(ctx context.Context, ts Tensors, col int, arr arrow.Array, start, end int, fn func(rowValue, int64)) error {
	sizes, _ := ts.(ImageSizes)
	if !s.col.Image {
		sizes = nil
	}
	for i := start; i < end; i++ {
		if (i-start)%chunkRows == chunkRows-1 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if arr.IsNull(i) {
			s.nulls++
			continue
		}
		x, err := tensorValue(s.op.fn, ts, sizes, col, i)
		switch {
		case errors.Is(err, tensorext.ErrNullTensor):
			s.nulls++
		case err != nil:
			s.unevaluated++
			if s.firstErr == "" {
				s.firstErr = err.Error()
			}
		default:
			fn(rowValue{key: floatKey64(x), f: x}, 1)
		}
	}
	return nil
}

// visitDictionary calls fn with each dictionary value the rows [start,
// end) of d use, with its number of rows. The dictionary's values are
// read once per dictionary, and each range counts only the entries its
// rows use.
func (s *Stats) visitDictionary(d *array.Dictionary, start, end int, fn func(rowValue, int64)) error {
	dict := d.Dictionary()
	if dict != s.lastDict {
		read, err := s.reader(dict, 0, dict.Len())
		if err != nil {
			return err
		}
		s.lastDict, s.lastRead = dict, read
		s.counts = make([]int64, dict.Len())
	}
	counts, counted := s.counts, s.counted[:0]
	for i := start; i < end; i++ {
		if d.IsNull(i) {
			s.nulls++
			continue
		}
		if j := d.GetValueIndex(i); j >= 0 && j < len(counts) {
			if counts[j] == 0 {
				counted = append(counted, j)
			}
			counts[j]++
		}
	}
	slices.Sort(counted)
	for _, j := range counted {
		c := counts[j]
		counts[j] = 0
		if dict.IsNull(j) {
			s.nulls += c
		} else {
			fn(s.lastRead(j), c)
		}
	}
	s.counted = counted
	return nil
}

func nullsIn(arr arrow.Array, start, end int) int {
	if arr.NullN() == 0 {
		return 0
	}
	n := 0
	for i := start; i < end; i++ {
		if arr.IsNull(i) {
			n++
		}
	}
	return n
}

// reader returns a function reading the values of the rows [start, end)
// of arr (their keys computed for those rows only: a range's work is in
// proportion to its rows, however large the batch).
func (s *Stats) reader(arr arrow.Array, start, end int) (func(i int) rowValue, error) {
	var read func(i int) rowValue
	switch s.kind {
	case vec32:
		keys, err := keys32(s.buf32[:0], arr, start, end)
		if err != nil {
			return nil, err
		}
		s.buf32 = keys
		read = func(i int) rowValue { k := uint64(keys[i-start]); return rowValue{key: k, f: keyFloat(s.dt, k)} }
	case vec64:
		keys, err := keys64(s.buf64[:0], arr, start, end)
		if err != nil {
			return nil, err
		}
		s.buf64 = keys
		read = func(i int) rowValue { return rowValue{key: keys[i-start], f: keyFloat(s.dt, keys[i-start])} }
	default:
		var buf []byte
		read = func(i int) rowValue {
			buf = appendBytesKey(buf[:0], arr, i)
			v := rowValue{skey: string(buf)}
			if s.numeric {
				v.f = decimalFloat(s.dt, buf)
			}
			return v
		}
	}
	return read, nil
}

func (s *Stats) keyed() bool { return s.kind == vec32 || s.kind == vec64 }

// add takes w rows of the value v.
func (s *Stats) add(v rowValue, w int64) {
	if s.numeric && v.f != v.f {
		s.nan += w
		return
	}
	if s.keyed() {
		if !s.has || v.key < s.minK {
			s.minK = v.key
		}
		if !s.has || v.key > s.maxK {
			s.maxK = v.key
		}
		s.nums.add(v.key, w)
	} else {
		if !s.has || v.skey < s.minS {
			s.minS = v.skey
		}
		if !s.has || v.skey > s.maxS {
			s.maxS = v.skey
		}
		s.strs.add(v.skey, w)
	}
	s.has = true
	if !s.numeric && domainOf(s.dt) != dBool {
		return
	}
	s.sum.add(v.f * float64(w))
	s.summed += w
	if math.IsInf(v.f, 0) {
		return
	}
	s.finite += w
	s.finMin, s.finMax = math.Min(s.finMin, v.f), math.Max(s.finMax, v.f)
	if s.numeric {
		for range w {
			s.sample.add(v.f)
		}
	}
}

// Merge adds the statistics o gathered (of the same operand, over other
// rows) into s; element statistics, in two passes, do not merge.
func (s *Stats) Merge(o *Stats) {
	s.count += o.count
	s.nulls += o.nulls
	s.nan += o.nan
	s.unevaluated += o.unevaluated
	if s.firstErr == "" {
		s.firstErr = o.firstErr
	}
	if o.has {
		if !s.has || o.minK < s.minK {
			s.minK = o.minK
		}
		if !s.has || o.maxK > s.maxK {
			s.maxK = o.maxK
		}
		if !s.has || o.minS < s.minS {
			s.minS = o.minS
		}
		if !s.has || o.maxS > s.maxS {
			s.maxS = o.maxS
		}
		s.has = true
	}
	s.sum.add(o.sum.s)
	s.sum.add(o.sum.c)
	s.summed += o.summed
	s.finite += o.finite
	s.finMin, s.finMax = math.Min(s.finMin, o.finMin), math.Max(s.finMax, o.finMax)
	s.nums.merge(o.nums)
	s.strs.merge(o.strs)
	s.sample.merge(&o.sample)
}

// Summary is the statistics' result.
type Summary struct {
	Count       int64 // rows
	Nulls       int64 // null rows (and null tensors)
	NaN         int64 // NaN values (floats and tensor functions)
	Unevaluated int64 // rows whose tensor could not be read
	FirstError  string
	// Distinct counts the distinct values (neither null nor NaN): exact
	// when DistinctExact, else a HyperLogLog estimate (±0.81 % standard
	// error).
	Distinct      int64
	DistinctExact bool
	// Min and Max are the least and greatest values as text (numbers,
	// dates and times as the query language writes them; "" when there
	// are none); MinValue and MaxValue the same as numbers (NaN for
	// strings).
	Min, Max           string
	MinValue, MaxValue float64
	// Mean is the mean of the numbers (NaN when none), in the column's
	// units (days for date32, the unit for times and timestamps, the
	// fraction of true for booleans).
	Mean float64
	// Hist counts the finite numbers in Bins equal bins over [HistMin,
	// HistMax] (the last bin includes HistMax): exactly when HistExact,
	// else estimated from a uniform sample of Sample values and scaled to
	// the count of finite values. Histogram's second pass makes it exact.
	Hist             []int64
	HistMin, HistMax float64
	HistExact        bool
	// Top holds the most frequent values, most frequent first (ties in
	// value order), with their counts: exact when TopExact, else lower
	// bounds short of at most (rows with values)/(DistinctLimit+1).
	Top      []ValueCount
	TopExact bool
	// Elements are the element statistics (StatsOptions.Elements; nil
	// otherwise), complete once every pass is done.
	Elements *inspect.ColumnStats
}

// ValueCount is a value (as text) and its number of rows.
type ValueCount struct {
	Value string
	Count int64
}

// Summary computes the result so far.
func (s *Stats) Summary() Summary {
	r := Summary{Count: s.count, Nulls: s.nulls, NaN: s.nan, Unevaluated: s.unevaluated, FirstError: s.firstErr,
		Mean: math.NaN(), MinValue: math.NaN(), MaxValue: math.NaN(), DistinctExact: true, TopExact: true, HistExact: true,
		Elements: s.elementSummary()}
	if s.other || !s.has {
		return r
	}
	if s.summed > 0 {
		r.Mean = s.sum.value() / float64(s.summed)
	}
	if s.keyed() {
		r.Min, r.Max = keyText(s.dt, s.col.Type, s.minK), keyText(s.dt, s.col.Type, s.maxK)
		r.MinValue, r.MaxValue = keyFloat(s.dt, s.minK), keyFloat(s.dt, s.maxK)
		r.Distinct, r.DistinctExact = s.nums.distinct()
		r.Top, r.TopExact = topValues(s.nums, s.opt.Top, func(k uint64) string { return keyText(s.dt, s.col.Type, k) })
	} else {
		text := func(k string) string { return k }
		if s.numeric {
			text = func(k string) string { return decimalText(s.dt, []byte(k)) }
			r.MinValue, r.MaxValue = decimalFloat(s.dt, []byte(s.minS)), decimalFloat(s.dt, []byte(s.maxS))
		}
		r.Min, r.Max = text(s.minS), text(s.maxS)
		r.Distinct, r.DistinctExact = s.strs.distinct()
		r.Top, r.TopExact = topValues(s.strs, s.opt.Top, text)
	}
	if !s.numeric || s.finite == 0 {
		return r
	}
	r.HistMin, r.HistMax = s.finMin, s.finMax
	r.Hist = make([]int64, s.opt.Bins)
	switch {
	case s.keyed() && !s.nums.over:
		for k, c := range s.nums.m {
			if b, ok := bin(keyFloat(s.dt, k), r.HistMin, r.HistMax, len(r.Hist)); ok {
				r.Hist[b] += c
			}
		}
	case !s.keyed() && !s.strs.over:
		for k, c := range s.strs.m {
			if b, ok := bin(decimalFloat(s.dt, []byte(k)), r.HistMin, r.HistMax, len(r.Hist)); ok {
				r.Hist[b] += c
			}
		}
	default:
		r.HistExact = false
		for _, f := range s.sample.vals {
			if b, ok := bin(f, r.HistMin, r.HistMax, len(r.Hist)); ok {
				r.Hist[b]++
			}
		}
		scale := float64(s.finite) / float64(len(s.sample.vals))
		for i, c := range r.Hist {
			r.Hist[i] = int64(math.Round(float64(c) * scale))
		}
	}
	return r
}

// bin returns the bin of f among n over [lo, hi]; ok is false outside.
func bin(f, lo, hi float64, n int) (int, bool) {
	if !(f >= lo && f <= hi) || math.IsInf(f, 0) {
		return 0, false
	}
	if hi == lo {
		return 0, true
	}
	b := int((f - lo) / (hi - lo) * float64(n))
	return min(b, n-1), true
}

// Histogram counts values exactly in the bins of a first pass's Summary:
// the second pass over the rows, for a histogram that Summary could only
// estimate.
type Histogram struct {
	s      *Stats
	lo, hi float64
	counts []int64
}

// Histogram starts the second pass over the bins of the Summary so far.
func (s *Stats) Histogram() *Histogram {
	r := s.Summary()
	fresh, _ := NewStats(s.x, []Column{s.col}, s.opt)
	return &Histogram{s: fresh, lo: r.HistMin, hi: r.HistMax, counts: make([]int64, len(r.Hist))}
}

// AddRange counts the rows [start, end) of b.
func (h *Histogram) AddRange(ctx context.Context, b arrow.RecordBatch, ts Tensors, start, end int) error {
	if len(h.counts) == 0 {
		return nil
	}
	return h.s.visit(ctx, b, ts, start, end, func(v rowValue, w int64) {
		if bi, ok := bin(v.f, h.lo, h.hi, len(h.counts)); ok {
			h.counts[bi] += w
		}
	})
}

// Counts returns the bins' counts (over Summary's HistMin, HistMax).
func (h *Histogram) Counts() []int64 { return h.counts }

// counter counts values exactly up to limit distinct ones; past that it
// estimates the distinct values with a HyperLogLog sketch and keeps the
// frequent ones in a Misra–Gries summary of limit counters.
type counter[K cmp.Ordered] struct {
	limit int
	m     map[K]int64
	over  bool
	sk    *hll
	hash  func(K) uint64
}

func newCounter[K cmp.Ordered](limit int, hash func(K) uint64) *counter[K] {
	return &counter[K]{limit: limit, m: map[K]int64{}, hash: hash}
}

func (c *counter[K]) add(k K, w int64) {
	if c.over {
		c.sk.add(c.hash(k))
	}
	if _, ok := c.m[k]; ok || len(c.m) < c.limit {
		c.m[k] += w
		return
	}
	if !c.over {
		c.over, c.sk = true, &hll{}
		for k := range c.m {
			c.sk.add(c.hash(k))
		}
		c.sk.add(c.hash(k))
	}
	// Misra–Gries: take the least count (or w) off every counter and w.
	d := w
	for _, n := range c.m {
		d = min(d, n)
	}
	for key, n := range c.m {
		if n == d {
			delete(c.m, key)
		} else {
			c.m[key] = n - d
		}
	}
	if w > d {
		c.m[k] = w - d
	}
}

func (c *counter[K]) merge(o *counter[K]) {
	if o.over {
		if !c.over {
			c.over, c.sk = true, &hll{}
			for k := range c.m {
				c.sk.add(c.hash(k))
			}
		}
		c.sk.merge(o.sk)
	}
	for k, n := range o.m {
		c.add(k, n)
	}
}

func (c *counter[K]) distinct() (int64, bool) {
	if !c.over {
		return int64(len(c.m)), true
	}
	return int64(math.Round(c.sk.estimate())), false
}

func topValues[K cmp.Ordered](c *counter[K], n int, text func(K) string) ([]ValueCount, bool) {
	keys := make([]K, 0, len(c.m))
	for k := range c.m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b K) int {
		if x := cmp.Compare(c.m[b], c.m[a]); x != 0 {
			return x
		}
		return cmp.Compare(a, b)
	})
	out := make([]ValueCount, 0, min(n, len(keys)))
	for _, k := range keys[:min(n, len(keys))] {
		out = append(out, ValueCount{Value: text(k), Count: c.m[k]})
	}
	return out, !c.over
}

// reservoir keeps a uniform sample of the values added (Vitter's
// algorithm R) with a fixed seed, so that results repeat.
type reservoir struct {
	size int
	seen int64
	vals []float64
	rng  *rand.Rand
}

func (r *reservoir) add(f float64) {
	r.seen++
	if len(r.vals) < r.size {
		r.vals = append(r.vals, f)
		return
	}
	if j := r.rng.Int64N(r.seen); j < int64(r.size) {
		r.vals[j] = f
	}
}

// merge keeps a sample of both: each slot from o with the probability of
// o's share of the values seen.
func (r *reservoir) merge(o *reservoir) {
	total := r.seen + o.seen
	if total == 0 {
		return
	}
	if len(r.vals)+len(o.vals) <= r.size {
		r.vals = append(r.vals, o.vals...)
		r.seen = total
		return
	}
	out := make([]float64, 0, r.size)
	a, b := slices.Clone(r.vals), slices.Clone(o.vals)
	for len(out) < r.size && (len(a) > 0 || len(b) > 0) {
		if len(b) == 0 || len(a) > 0 && r.rng.Int64N(total) < r.seen {
			out, a = append(out, a[len(a)-1]), a[:len(a)-1]
		} else {
			out, b = append(out, b[len(b)-1]), b[:len(b)-1]
		}
	}
	r.vals, r.seen = out, total
}

// keyFloat is the number an order-preserving key stands for (in the
// type's units; a decimal's scaled value).
func keyFloat(dt arrow.DataType, k uint64) float64 {
	switch dt.ID() {
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64, arrow.BOOL:
		return float64(k)
	case arrow.FLOAT16, arrow.FLOAT32:
		return float64(unkey32(uint32(k)))
	case arrow.FLOAT64:
		return unkey64(k)
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.DATE32, arrow.TIME32:
		return float64(int32(uint32(k) ^ 1<<31))
	case arrow.DECIMAL32:
		return decimal.Decimal32(int32(uint32(k) ^ 1<<31)).ToFloat64(dt.(arrow.DecimalType).GetScale())
	case arrow.DECIMAL64:
		return decimal.Decimal64(int64(k ^ 1<<63)).ToFloat64(dt.(arrow.DecimalType).GetScale())
	}
	return float64(int64(k ^ 1<<63))
}

func unkey32(k uint32) float32 {
	if k&(1<<31) != 0 {
		return math.Float32frombits(k &^ (1 << 31))
	}
	return math.Float32frombits(^k)
}

func unkey64(k uint64) float64 {
	if k&(1<<63) != 0 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// keyText writes the value a key stands for as the query language would:
// numbers as Go formats them, dates 2006-01-02, times 15:04:05.fraction,
// timestamps in their zone with its offset (none for a naive timestamp).
// full is the column's type, for a dictionary's.
func keyText(dt, full arrow.DataType, k uint64) string {
	switch t := dt.(type) {
	case *arrow.BooleanType:
		return strconv.FormatBool(k != 0)
	case *arrow.Float16Type:
		return strconv.FormatFloat(float64(unkey32(uint32(k))), 'g', -1, 32)
	case *arrow.Float32Type:
		return strconv.FormatFloat(float64(unkey32(uint32(k))), 'g', -1, 32)
	case *arrow.Float64Type:
		return strconv.FormatFloat(unkey64(k), 'g', -1, 64)
	case *arrow.Decimal32Type:
		return decimal.Decimal32(int32(uint32(k) ^ 1<<31)).ToString(t.Scale)
	case *arrow.Decimal64Type:
		return decimal.Decimal64(int64(k ^ 1<<63)).ToString(t.Scale)
	case *arrow.Date32Type:
		return time.Unix(int64(int32(uint32(k)^1<<31))*86400, 0).UTC().Format("2006-01-02")
	case *arrow.Date64Type:
		return time.UnixMilli(int64(k ^ 1<<63)).UTC().Format("2006-01-02")
	case *arrow.Time32Type:
		return clockText(int64(int32(uint32(k)^1<<31)) * (1e9 / unitsPerSecond(t.Unit)))
	case *arrow.Time64Type:
		return clockText(int64(k^1<<63) * (1e9 / unitsPerSecond(t.Unit)))
	case *arrow.TimestampType:
		v := int64(k ^ 1<<63)
		per := unitsPerSecond(t.Unit)
		sec, frac := v/per, v%per
		if frac < 0 {
			sec, frac = sec-1, frac+per
		}
		tm := time.Unix(sec, frac*(1e9/per))
		if t.TimeZone == "" {
			return tm.UTC().Format("2006-01-02T15:04:05.999999999")
		}
		loc, err := zone(t.TimeZone)
		if err != nil {
			loc = time.UTC
		}
		return tm.In(loc).Format("2006-01-02T15:04:05.999999999Z07:00")
	}
	switch dt.ID() {
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return strconv.FormatUint(k, 10)
	case arrow.INT8, arrow.INT16, arrow.INT32:
		return strconv.FormatInt(int64(int32(uint32(k)^1<<31)), 10)
	}
	return strconv.FormatInt(int64(k^1<<63), 10)
}

func clockText(ns int64) string {
	return time.Unix(0, ns).UTC().Format("15:04:05.999999999")
}

// decimalNum decodes a decimal128/256 key (big-endian, sign bit flipped).
func decimalNum(b []byte) (decimal128.Num, decimal256.Num, bool) {
	if len(b) == 16 {
		return decimal128.New(int64(binary.BigEndian.Uint64(b)^1<<63), binary.BigEndian.Uint64(b[8:])), decimal256.Num{}, true
	}
	if len(b) != 32 {
		return decimal128.Num{}, decimal256.Num{}, false
	}
	return decimal128.Num{}, decimal256.New(binary.BigEndian.Uint64(b)^1<<63, binary.BigEndian.Uint64(b[8:]), binary.BigEndian.Uint64(b[16:]), binary.BigEndian.Uint64(b[24:])), false
}

func decimalFloat(dt arrow.DataType, b []byte) float64 {
	d, ok := dt.(arrow.DecimalType)
	if !ok {
		return math.NaN()
	}
	n128, n256, is128 := decimalNum(b)
	if is128 {
		return n128.ToFloat64(d.GetScale())
	}
	return n256.ToFloat64(d.GetScale())
}

func decimalText(dt arrow.DataType, b []byte) string {
	d, ok := dt.(arrow.DecimalType)
	if !ok {
		return string(b)
	}
	n128, n256, is128 := decimalNum(b)
	if is128 {
		return n128.ToString(d.GetScale())
	}
	return n256.ToString(d.GetScale())
}
