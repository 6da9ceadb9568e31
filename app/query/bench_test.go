package query

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/query/internal/benchdata"
)

// The data of the package's benchmarks (internal/benchdata). Run the
// benchmarks one at a time:
//
//	go test -run XXX -bench '^BenchmarkSortFloat32$' -benchmem -count 5 ./app/query
const benchRows = benchdata.Rows

func benchData() []arrow.RecordBatch { return benchdata.Batches() }

// BenchmarkSortFloat32: the key vector of 10M float32 scores gathered
// from the batches, then sorted descending.
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
