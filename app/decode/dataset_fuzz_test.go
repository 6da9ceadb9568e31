package decode

import (
	"context"
	"testing"

	"github.com/tensorview/tensorview/internal/testkit"
)

// FuzzDataset opens two files as one dataset: a valid first file and a
// fuzzed second one (its schema, batches and bytes anything), then indexes
// it and reads every value and every batch by ReadColumns and Batch. Each
// ends in a value or an error, never a panic (ErrPanic's text), and the
// first file's rows keep their values.
func FuzzDataset(f *testing.F) {
	fx := testShards(f)
	for _, s := range fx {
		f.Add(s.data)
	}
	first := fx[0]
	f.Fuzz(func(t *testing.T, data []byte) {
		second := &shardFixture{name: "fuzzed.arrow", data: data}
		ds, err := OpenDataset(context.Background(), "fuzz", []Shard{first.shard(t, true), second.shard(t, false)}, Options{Budget: 1 << 20})
		if err != nil {
			t.Fatal(err) // the first file opens
		}
		defer ds.Close()
		_ = ds.Index(context.Background(), nil)
		rows, _ := ds.Rows()
		for r := int64(0); r < min(rows, 64); r++ {
			for c := range ds.Fields() {
				if got := describeValue(ds, r, c); testkit.Internal(got) {
					t.Errorf("row %d column %d: %s", r, c, got)
				}
			}
		}
		for r := range int64(first.rows) {
			if v, err := ds.Value(r, 0); err != nil || valueStr(v.Array, v.Index) != first.ref["id"][r] {
				t.Errorf("row %d of the first file: %v, %v", r, v.Array, err)
			}
		}
		for i := range min(ds.NumBatches(), 16) {
			if _, err := ds.ReadColumns(context.Background(), i, []int{0, 1, 3}); err != nil && testkit.Internal(err.Error()) {
				t.Errorf("ReadColumns(%d): %v", i, err)
			}
			if _, err := ds.Batch(i); err != nil && testkit.Internal(err.Error()) {
				t.Errorf("Batch(%d): %v", i, err)
			}
		}
	})
}
