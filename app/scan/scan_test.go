package scan

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/query"
)

// memSource is a file in memory: batches of id (int64) and score
// (float32: some null, some NaN); the batches in broken fail to read.
type memSource struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
	broken  map[int]bool
	asked   [][]int // the columns asked, per read
}

func (s *memSource) Schema() *arrow.Schema          { return s.schema }
func (s *memSource) NumBatches() int                { return len(s.batches) }
func (s *memSource) BatchRows(i int) (int64, error) { return s.batches[i].NumRows(), nil }

func (s *memSource) Rows() (n int64, exact bool) {
	for _, b := range s.batches {
		n += b.NumRows()
	}
	return n, true
}
func (s *memSource) release() { releaseAll(s.batches) }
func releaseAll(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}
func (s *memSource) ReadColumns(ctx context.Context, i int, cols []int) (arrow.RecordBatch, query.Tensors, error) {
	s.asked = append(s.asked, slices.Clone(cols))
	if s.broken[i] {
		return nil, nil, errors.New("a corrupt page")
	}
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for k, c := range cols {
		fields[k], arrs[k] = s.schema.Field(c), s.batches[i].Column(c)
	}
	b := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, s.batches[i].NumRows())
	return b, query.ArrayTensors{Batch: b}, nil
}

// score of file row r: null every 7th, NaN every 11th, else a value with
// ties (r mod 13, scaled).
func score(r int64) (v float32, null bool) {
	switch {
	case r%7 == 3:
		return 0, true
	case r%11 == 5:
		return float32(math.NaN()), false
	}
	return float32(r%13) / 10, false
}

func newSource(t *testing.T, sizes []int, broken ...int) *memSource {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "label", Type: arrow.BinaryTypes.String},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	}, nil)
	src := &memSource{schema: schema, broken: map[int]bool{}}
	for _, k := range broken {
		src.broken[k] = true
	}
	var row int64
	for _, n := range sizes {
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for range n {
			b.Field(0).(*array.Int64Builder).Append(row)
			b.Field(1).(*array.StringBuilder).Append([]string{"cat", "dog"}[row%2])
			if v, null := score(row); null {
				b.Field(2).AppendNull()
			} else {
				b.Field(2).(*array.Float32Builder).Append(v)
			}
			row++
		}
		src.batches = append(src.batches, b.NewRecordBatch())
		b.Release()
	}
	t.Cleanup(src.release)
	return src
}

func compile(t *testing.T, src Source, q string) *query.Filter {
	t.Helper()
	f, err := query.Compile(q, query.ColumnsOf(src.Schema()))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFilter: the matches are the rows of the readable batches whose score
// passes, as file row numbers in order; the broken batch's rows are
// counted, with its error; only the score column is read; progress reaches
// every row with the matches so far.
func TestFilter(t *testing.T) {
	sizes := []int{100, 37, 250, 1}
	src := newSource(t, sizes, 1)
	var last Progress
	var seen []int
	m, u, err := Filter(context.Background(), src, compile(t, src, "score > 0.5"), Options{Slice: 64, Progress: func(p Progress) {
		last = p
		seen = append(seen, p.Matches.Len())
	}})
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for r := int64(0); r < 388; r++ {
		if r >= 100 && r < 137 {
			continue // batch 1 is broken
		}
		if v, null := score(r); !null && v > 0.5 {
			want = append(want, r)
		}
	}
	if got := m.Rows(); !slices.Equal(got, want) {
		t.Errorf("matches %v,\nwant %v", got, want)
	}
	if u.Rows != 37 || u.FirstError != "record batch 1: a corrupt page" {
		t.Errorf("unread %+v, want 37 rows of record batch 1", u)
	}
	for _, cols := range src.asked {
		if !slices.Equal(cols, []int{2}) {
			t.Errorf("read columns %v, want [2] (score)", cols)
		}
	}
	if last.Rows != 388 || last.Total != 388 || last.Matches.Len() != len(want) {
		t.Errorf("last progress %+v (%d matches), want 388 of 388 rows, %d matches", last, last.Matches.Len(), len(want))
	}
	if !slices.IsSorted(seen) || len(seen) < 6 {
		t.Errorf("matches reported as they grew: %v", seen)
	}
}

// TestSort: every row in order of score descending, stable (ties by row
// number), NaN after the numbers, then nulls and the rows of the broken
// batch, by row number.
func TestSort(t *testing.T) {
	src := newSource(t, []int{90, 45, 200}, 1)
	s, err := query.BindSort(must(query.ParseSort("-score")), query.ColumnsOf(src.Schema()))
	if err != nil {
		t.Fatal(err)
	}
	paced := 0
	perm, u, err := Sort(context.Background(), src, s, Options{Slice: 50, Pace: func() error { paced++; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]int64, 335)
	for r := range rows {
		rows[r] = int64(r)
	}
	rank := func(r int64) (int, float32) { // 0 numbers, 1 NaN, 2 nulls and unread
		v, null := score(r)
		switch {
		case null || r >= 90 && r < 135:
			return 2, 0
		case v != v:
			return 1, 0
		}
		return 0, v
	}
	slices.SortStableFunc(rows, func(a, b int64) int {
		ka, va := rank(a)
		kb, vb := rank(b)
		if ka != kb {
			return ka - kb
		}
		switch {
		case va > vb:
			return -1
		case va < vb:
			return 1
		}
		return 0
	})
	if got := perm.Rows(); !slices.Equal(got, rows) {
		t.Errorf("order %v,\nwant %v", got, rows)
	}
	if u.Rows != 45 || paced < 5 {
		t.Errorf("unread %+v, paced %d times", u, paced)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestStats: the statistics of the readable batches.
func TestStats(t *testing.T) {
	src := newSource(t, []int{30, 30, 30}, 2)
	st, err := query.NewStats(must(query.ParseOperand("score")), query.ColumnsOf(src.Schema()), query.StatsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sum, u, err := Stats(context.Background(), src, st, Options{Slice: 8})
	if err != nil {
		t.Fatal(err)
	}
	var count, nulls, nan int64
	lo, hi := math.Inf(1), math.Inf(-1)
	for r := int64(0); r < 60; r++ {
		count++
		v, null := score(r)
		switch {
		case null:
			nulls++
		case v != v:
			nan++
		default:
			lo, hi = min(lo, float64(v)), max(hi, float64(v))
		}
	}
	if sum.Count != count || sum.Nulls != nulls || sum.NaN != nan || sum.MinValue != lo || sum.MaxValue != hi || u.Rows != 30 {
		t.Errorf("summary %+v, unread %+v; want count %d, nulls %d, NaN %d, min %g, max %g, 30 unread", sum, u, count, nulls, nan, lo, hi)
	}
}

// TestCancel: a pace that fails stops the scan at once; Filter keeps what
// it found.
func TestCancel(t *testing.T) {
	src := newSource(t, []int{100, 100})
	ctx, cancel := context.WithCancel(context.Background())
	slices := 0
	m, _, err := Filter(ctx, src, compile(t, src, "id >= 0"), Options{Slice: 10, Pace: func() error {
		if slices++; slices == 3 {
			cancel()
		}
		return nil
	}})
	if !Canceled(err) || m.Len() != 30 {
		t.Errorf("err %v with %d matches, want canceled with 30", err, m.Len())
	}
}

// boundedSource is a memSource that knows each batch's bounds of id (its
// first and last row numbers), as a Parquet file's row-group statistics
// would give them.
type boundedSource struct{ *memSource }

func (s boundedSource) Bounds(i, col int) (query.Bounds, bool) {
	if s.schema.Field(col).Name != "id" {
		return query.Bounds{}, false
	}
	ids := s.batches[i].Column(col).(*array.Int64)
	return query.Bounds{Nulls: 0, Min: ids.Value(0), Max: ids.Value(ids.Len() - 1)}, true
}

// TestFilterSkipsByBounds: a filter over a source with bounds reads only
// the batches where rows may match, finds the same rows as without
// bounds, and counts the rows it skipped.
func TestFilterSkipsByBounds(t *testing.T) {
	sizes := []int{100, 100, 100, 100, 100}
	plain := newSource(t, sizes)
	defer plain.release()
	bounded := boundedSource{newSource(t, sizes)}
	defer bounded.release()
	cols := query.ColumnsOf(plain.schema)
	f, err := query.Compile("id between 150 and 260 and score > 0.5", cols)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := Filter(context.Background(), plain, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var last Progress
	got, _, err := Filter(context.Background(), bounded, f, Options{Progress: func(p Progress) { last = p }})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Rows(), want.Rows()) || len(want.Rows()) == 0 {
		t.Errorf("with bounds: %v, without: %v", got.Rows(), want.Rows())
	}
	if len(bounded.asked) != 2 || len(plain.asked) != 5 {
		t.Errorf("batches read: %d with bounds (want 2: rows 100–299), %d without", len(bounded.asked), len(plain.asked))
	}
	if last.Skipped != 300 || last.Rows != 500 {
		t.Errorf("progress: %d rows skipped of %d scanned, want 300 of 500", last.Skipped, last.Rows)
	}
}

// claimedSource is a source whose one record batch claims rows rows and
// cannot be read (a hostile header: arrow-go never validated its length).
type claimedSource struct {
	*memSource
	rows int64
}

func (s claimedSource) BatchRows(int) (int64, error) { return s.rows, nil }
func (s claimedSource) Rows() (int64, bool)          { return s.rows, true }

// TestSortTooManyRows: a file claiming more rows than MaxSortRows (a
// fuzzed header claimed 171,798,691,840) is refused with
// TooManyRowsError before anything is read or its keys allocated (they
// ran the page out of memory).
func TestSortTooManyRows(t *testing.T) {
	base := newSource(t, []int{10}, 1)
	s, err := query.BindSort(must(query.ParseSort("-score")), query.ColumnsOf(base.Schema()))
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range []int64{171_798_691_840, MaxSortRows + 1} {
		src := claimedSource{memSource: base, rows: rows}
		_, _, err := Sort(context.Background(), src, s, Options{})
		var tm *TooManyRowsError
		if !errors.As(err, &tm) || tm.Rows != rows || tm.Max != MaxSortRows {
			t.Errorf("%d rows: %v", rows, err)
		}
		if len(base.asked) != 0 {
			t.Errorf("%d rows: read %v first", rows, base.asked)
		}
	}
}
