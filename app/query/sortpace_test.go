package query

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// paceBatch is n rows of the query benchmark's kinds of columns: score
// (float32, distinct), label (a dictionary of 20 words: big runs of equal
// keys), caption (strings with long shared prefixes), flag (a boolean,
// mostly true), zero (an int64 of one value), word (strings of 20 words).
func paceBatch(n int) arrow.RecordBatch {
	mem := memory.DefaultAllocator
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
		{Name: "label", Type: dt},
		{Name: "caption", Type: arrow.BinaryTypes.String},
		{Name: "flag", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "zero", Type: arrow.PrimitiveTypes.Int64},
		{Name: "word", Type: arrow.BinaryTypes.String},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	label := b.Field(1).(*array.BinaryDictionaryBuilder)
	for i := range n {
		b.Field(0).(*array.Float32Builder).Append(float32((uint32(i)*2654435761+12345)&(1<<24-1)) / (1 << 24))
		label.AppendString(words20[(uint64(i)*0x9E3779B97F4A7C15>>40)%20])
		b.Field(2).(*array.StringBuilder).Append("photo " + strconv.Itoa(i) + " of a " + words20[i%20])
		b.Field(3).(*array.BooleanBuilder).Append(i%100 != 7)
		b.Field(4).(*array.Int64Builder).Append(0)
		b.Field(5).(*array.StringBuilder).Append(words20[i*7%20])
	}
	return b.NewRecordBatch()
}

var words20 = []string{"cat", "dog", "bird", "fish", "horse", "sheep", "cow", "bear", "zebra", "giraffe",
	"car", "bus", "train", "boat", "plane", "bike", "chair", "table", "lamp", "clock"}

// TestSortPaced: sorting counts its work (keys read, moved or compared)
// and calls the pacer at least every 2·paceStep elements of it, whatever
// the keys (distinct floats, a dictionary's big runs of equal keys,
// strings sharing long prefixes, a boolean, one value), with at least the
// three passes over all rows counted (rows, keys kept, the radix sort's
// first count); the order is still right.
func TestSortPaced(t *testing.T) {
	const n = 600_000
	b := paceBatch(n)
	defer b.Release()
	cols := ColumnsOf(b.Schema())
	for _, key := range []string{"-score", "label", "-caption", "flag", "zero", "word"} {
		k, err := ParseSort(key)
		if err != nil {
			t.Fatal(err)
		}
		s, err := BindSort(k, cols)
		if err != nil {
			t.Fatal(err)
		}
		keys := s.NewKeys(n)
		for start := 0; start < n; start += 1 << 14 {
			if err := keys.AddRange(context.Background(), b, nil, start, min(n, start+1<<14)); err != nil {
				t.Fatal(err)
			}
		}
		calls := 0
		p := &pacer{ctx: context.Background(), pace: func() error { calls++; return nil }}
		rows, err := sortRows[uint32](keys, p)
		if err != nil {
			t.Fatal(err)
		}
		if p.most > 2*paceStep || calls < 3*n/(2*paceStep) {
			t.Errorf("%s: %d elements of work between two paces (at most %d), %d paces for %d rows", key, p.most, 2*paceStep, calls, n)
		}
		arr := b.Column(slices.IndexFunc(b.Schema().Fields(), func(f arrow.Field) bool { return f.Name == strings.TrimLeft(key, "-") }))
		text := func(r uint32) string { return arr.ValueStr(int(r)) }
		less := func(a, b uint32) int {
			var c int
			switch x := arr.(type) {
			case *array.Float32:
				c = cmp.Compare(x.Value(int(a)), x.Value(int(b)))
			case *array.Boolean:
				c = cmp.Compare(b2i(x.Value(int(a))), b2i(x.Value(int(b))))
			default:
				c = strings.Compare(text(a), text(b))
			}
			if key[0] == '-' {
				c = -c
			}
			return cmp.Or(c, cmp.Compare(a, b))
		}
		if !slices.IsSortedFunc(rows, less) || len(rows) != n {
			t.Errorf("%s: not in order", key)
		}
	}
}

// TestSortBytesWindows: the sort of byte strings by windows against a
// stable sort by bytes.Compare, on strings that are prefixes of one
// another, hold zero bytes, are empty, or share prefixes longer than
// maxDepth, in both directions.
func TestSortBytesWindows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	long := strings.Repeat("p", maxDepth+20)
	var keys [][]byte
	for range 20_000 {
		var s string
		switch rng.IntN(6) {
		case 0:
			s = ""
		case 1:
			s = "abc" + strings.Repeat("\x00", rng.IntN(12))
		case 2:
			s = strings.Repeat("ab", rng.IntN(10))
		case 3:
			s = long + fmt.Sprint(rng.IntN(50))
		case 4:
			s = long[:rng.IntN(len(long))]
		default:
			s = fmt.Sprintf("k%07d\xff%d", rng.IntN(300), rng.IntN(3))
		}
		keys = append(keys, []byte(s))
	}
	for _, desc := range []bool{false, true} {
		rows := make([]uint32, len(keys))
		for i := range rows {
			rows[i] = uint32(i)
		}
		p := &pacer{ctx: context.Background()}
		if err := sortByBytes(rows, func(r uint32) []byte { return keys[r] }, desc, p); err != nil {
			t.Fatal(err)
		}
		want := make([]uint32, len(keys))
		for i := range want {
			want[i] = uint32(i)
		}
		slices.SortStableFunc(want, func(a, b uint32) int {
			c := bytes.Compare(keys[a], keys[b])
			if desc {
				c = -c
			}
			return c
		})
		if !slices.Equal(rows, want) {
			i := 0
			for rows[i] == want[i] {
				i++
			}
			t.Errorf("desc=%v: position %d holds row %d (%q), want %d (%q)", desc, i, rows[i], keys[rows[i]], want[i], keys[want[i]])
		}
	}
}
