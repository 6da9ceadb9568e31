// Package compare measures arrow-go's compute package on the benchmarks
// of package query (the sort by score and the filter label = 'cat' and
// score > 0.9 over 10M rows in 64Ki-row batches), for the library
// comparison in app/query/doc.go. It holds tests only, so that query's own
// tests and the wasm do not link compute.
package compare

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"

	"github.com/tensorview/tensorview/app/query"
)

// The same data as query's benchmarks (same generator and seed).
const (
	rows  = 10_000_000
	batch = 64 << 10
)

var (
	once    sync.Once
	batches []arrow.RecordBatch
)

func data() []arrow.RecordBatch {
	once.Do(func() {
		rng := rand.New(rand.NewPCG(1, 1))
		labels := []string{"cat", "dog", "bird", "fish", "horse", "cow", "sheep", "goat", "pig", "duck",
			"hen", "fox", "wolf", "bear", "deer", "frog", "toad", "bee", "ant", "owl"}
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		sb.AppendValues(labels, nil)
		dict := sb.NewArray()
		dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
		schema := arrow.NewSchema([]arrow.Field{{Name: "score", Type: arrow.PrimitiveTypes.Float32}, {Name: "label", Type: dt}}, nil)
		for start := 0; start < rows; start += batch {
			n := min(batch, rows-start)
			scores, idx := make([]float32, n), make([]int32, n)
			for i := range n {
				scores[i] = rng.Float32()
				idx[i] = int32(rng.IntN(len(labels)))
			}
			fb, ib := array.NewFloat32Builder(memory.DefaultAllocator), array.NewInt32Builder(memory.DefaultAllocator)
			fb.AppendValues(scores, nil)
			ib.AppendValues(idx, nil)
			cols := []arrow.Array{fb.NewArray(), array.NewDictionaryArray(dt, ib.NewArray(), dict)}
			batches = append(batches, array.NewRecordBatch(schema, cols, int64(n)))
		}
	})
	return batches
}

func scoreChunks(bs []arrow.RecordBatch) *arrow.Chunked {
	chunks := make([]arrow.Array, len(bs))
	for i, b := range bs {
		chunks[i] = b.Column(0)
	}
	return arrow.NewChunked(arrow.PrimitiveTypes.Float32, chunks)
}

var descending = compute.SortKey{Order: compute.SortOrderDescending, NullPlacement: compute.DefaultSortKey().NullPlacement}

// computeFilter is label = 'cat' and score > 0.9 with compute's kernels:
// the dictionary decoded to strings by a cast (equal takes no
// dictionaries), two comparisons, and_kleene, then the indices of the
// true rows.
func computeFilter(ctx context.Context, b arrow.RecordBatch) ([]int32, error) {
	labels, err := compute.CastToType(ctx, b.Column(1), arrow.BinaryTypes.String)
	if err != nil {
		return nil, err
	}
	defer labels.Release()
	eq, err := compute.CallFunction(ctx, "equal", nil, compute.NewDatum(labels), compute.NewDatum(scalar.NewStringScalar("cat")))
	if err != nil {
		return nil, err
	}
	defer eq.Release()
	gt, err := compute.CallFunction(ctx, "greater", nil, compute.NewDatum(b.Column(0)), compute.NewDatum(scalar.NewFloat32Scalar(0.9)))
	if err != nil {
		return nil, err
	}
	defer gt.Release()
	both, err := compute.CallFunction(ctx, "and_kleene", nil, eq, gt)
	if err != nil {
		return nil, err
	}
	defer both.Release()
	mask := both.(*compute.ArrayDatum).MakeArray().(*array.Boolean)
	defer mask.Release()
	var out []int32
	for i := 0; i < mask.Len(); i++ {
		if mask.IsValid(i) && mask.Value(i) {
			out = append(out, int32(i))
		}
	}
	return out, nil
}

// TestSameResults: compute and query agree on the first batches.
func TestSameResults(t *testing.T) {
	bs := data()[:8]
	ctx := context.Background()
	f, err := query.Compile("label = 'cat' and score > 0.9", query.ColumnsOf(bs[0].Schema()))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		want, err := computeFilter(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.Eval(ctx, b, nil)
		if err != nil || !slices.Equal(got.Rows, want) {
			t.Fatalf("query %v (%v), compute %v", got.Rows, err, want)
		}
	}
	idx, err := compute.SortIndicesChunked(ctx, scoreChunks(bs), descending)
	if err != nil {
		t.Fatal(err)
	}
	s, err := query.BindSort(query.SortKey{X: query.Operand{Column: "score"}, Desc: true}, query.ColumnsOf(bs[0].Schema()))
	if err != nil {
		t.Fatal(err)
	}
	keys := s.NewKeys(0)
	for _, b := range bs {
		keys.Add(ctx, b, nil)
	}
	perm, err := keys.Sort(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	ci := idx.(*array.Uint64).Uint64Values()
	for i := range ci {
		if int64(ci[i]) != perm.At(i) {
			t.Fatalf("position %d: compute row %d, query row %d", i, ci[i], perm.At(i))
		}
	}
}

func BenchmarkComputeSortIndices(b *testing.B) {
	ch := scoreChunks(data())
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		idx, err := compute.SortIndicesChunked(ctx, ch, descending)
		if err != nil || idx.Len() != rows {
			b.Fatal(err)
		}
		idx.Release()
	}
}

func BenchmarkComputeFilter(b *testing.B) {
	bs := data()
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		n := 0
		for _, rb := range bs {
			sel, err := computeFilter(ctx, rb)
			if err != nil {
				b.Fatal(err)
			}
			n += len(sel)
		}
	}
}
