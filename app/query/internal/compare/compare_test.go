// Package compare measures arrow-go's compute package on the benchmarks
// of package query (the sort by score and the filter label = 'cat' and
// score > 0.9 over 10M rows in 64Ki-row batches), for the library
// comparison in app/query/doc.go. It holds tests only, so that query's own
// tests and the wasm do not link compute.
package compare

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/scalar"

	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/query/internal/benchdata"
)

const rows = benchdata.Rows

func data() []arrow.RecordBatch { return benchdata.Batches() }

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
