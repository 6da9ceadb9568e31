// Package benchdata makes the data of the query benchmarks in memory, for
// package query's benchmarks and internal/compare's: 10M rows in 64Ki-row
// record batches of a float32 score (uniform in [0, 1)) and a label of 20
// values, dictionary-encoded with int32 indices; the same on every call.
package benchdata

import (
	"math/rand/v2"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

const (
	Rows  = 10_000_000
	Batch = 64 << 10
)

// Labels are the label column's values; about one row in 20 is "cat".
var Labels = []string{"cat", "dog", "bird", "fish", "horse", "cow", "sheep", "goat", "pig", "duck",
	"hen", "fox", "wolf", "bear", "deer", "frog", "toad", "bee", "ant", "owl"}

var (
	once    sync.Once
	batches []arrow.RecordBatch
)

// Batches returns the record batches (made once, then shared: treat them
// as read-only).
func Batches() []arrow.RecordBatch {
	once.Do(func() {
		rng := rand.New(rand.NewPCG(1, 1))
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		sb.AppendValues(Labels, nil)
		dict := sb.NewArray()
		dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
		schema := arrow.NewSchema([]arrow.Field{{Name: "score", Type: arrow.PrimitiveTypes.Float32}, {Name: "label", Type: dt}}, nil)
		for start := 0; start < Rows; start += Batch {
			n := min(Batch, Rows-start)
			scores, idx := make([]float32, n), make([]int32, n)
			for i := range n {
				scores[i] = rng.Float32()
				idx[i] = int32(rng.IntN(len(Labels)))
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
