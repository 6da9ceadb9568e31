package query

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The benchmark file of issue 27, in memory: 10M rows in 64Ki-row batches
// of a float32 score (uniform in [0, 1)) and a label of 20 values
// dictionary-encoded with int32 indices. Run the benchmarks one at a time:
//
//	go test -run XXX -bench 'SortFloat32|FilterLabelScore' -benchmem -count 5 ./app/query
const (
	benchRows  = 10_000_000
	benchBatch = 64 << 10
)

var (
	benchOnce    sync.Once
	benchBatches []arrow.RecordBatch
)

func benchData() []arrow.RecordBatch {
	benchOnce.Do(func() {
		rng := rand.New(rand.NewPCG(1, 1))
		labels := []string{"cat", "dog", "bird", "fish", "horse", "cow", "sheep", "goat", "pig", "duck",
			"hen", "fox", "wolf", "bear", "deer", "frog", "toad", "bee", "ant", "owl"}
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		sb.AppendValues(labels, nil)
		dict := sb.NewArray()
		dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
		schema := arrow.NewSchema([]arrow.Field{{Name: "score", Type: arrow.PrimitiveTypes.Float32}, {Name: "label", Type: dt}}, nil)
		for start := 0; start < benchRows; start += benchBatch {
			n := min(benchBatch, benchRows-start)
			scores, idx := make([]float32, n), make([]int32, n)
			for i := range n {
				scores[i] = rng.Float32()
				idx[i] = int32(rng.IntN(len(labels)))
			}
			fb, ib := array.NewFloat32Builder(memory.DefaultAllocator), array.NewInt32Builder(memory.DefaultAllocator)
			fb.AppendValues(scores, nil)
			ib.AppendValues(idx, nil)
			cols := []arrow.Array{fb.NewArray(), array.NewDictionaryArray(dt, ib.NewArray(), dict)}
			benchBatches = append(benchBatches, array.NewRecordBatch(schema, cols, int64(n)))
		}
	})
	return benchBatches
}

// BenchmarkSortFloat32: the key vector of 10M float32 scores gathered
// from the batches, then sorted descending (the sort by score of the
// issue).
func BenchmarkSortFloat32(b *testing.B) {
	batches := benchData()
	s, err := BindSort(SortKey{X: Operand{Column: "score"}, Desc: true}, ColumnsOf(batches[0].Schema()))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		keys := s.NewKeys(benchRows)
		for _, rb := range batches {
			if err := keys.Add(ctx, rb, nil); err != nil {
				b.Fatal(err)
			}
		}
		perm, err := keys.Sort(ctx, nil)
		if err != nil || perm.Len() != benchRows {
			b.Fatal(err, perm.Len())
		}
	}
}

// BenchmarkFilterLabelScore: label = 'cat' and score > 0.9 over the 10M
// rows, batch by batch.
func BenchmarkFilterLabelScore(b *testing.B) {
	batches := benchData()
	f, err := Compile("label = 'cat' and score > 0.9", ColumnsOf(batches[0].Schema()))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		matches := 0
		for _, rb := range batches {
			sel, err := f.Eval(ctx, rb, nil)
			if err != nil {
				b.Fatal(err)
			}
			matches += len(sel.Rows)
		}
		if matches < benchRows/250 || matches > benchRows/150 {
			b.Fatal(matches)
		}
	}
}

// BenchmarkStatsScore: the statistics of the 10M scores (past the distinct
// limit: HyperLogLog, Misra–Gries, reservoir).
func BenchmarkStatsScore(b *testing.B) {
	batches := benchData()
	cols := ColumnsOf(batches[0].Schema())
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		s, err := NewStats(Operand{Column: "score"}, cols, StatsOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for _, rb := range batches {
			if err := s.Add(ctx, rb, nil); err != nil {
				b.Fatal(err)
			}
		}
		if s.Summary().Count != benchRows {
			b.Fatal("count")
		}
	}
}
