package decode

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// arrow-go's Struct.ValueStr marshals a row as JSON and panics on a
// float16 NaN or infinity (float64 ones it writes as strings); a struct
// cell shows its fields' own texts then (found by
// FuzzOpen: testdata/fuzz/FuzzOpen/093b55c2a8245c72).
func TestStructValueStrNonFinite(t *testing.T) {
	dt := arrow.StructOf(
		arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "x", Type: arrow.FixedWidthTypes.Float16, Nullable: true},
	)
	b := array.NewStructBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	s, x := b.FieldBuilder(0).(*array.StringBuilder), b.FieldBuilder(1).(*array.Float16Builder)
	rows := []struct {
		s    string
		sNul bool
		x    float64
	}{{"a", false, math.NaN()}, {"", true, math.Inf(-1)}, {`q"`, false, 1.5}}
	for _, r := range rows {
		b.Append(true)
		if r.sNul {
			s.AppendNull()
		} else {
			s.Append(r.s)
		}
		x.Append(float16.New(float32(r.x)))
	}
	b.AppendNull()
	arr := b.NewArray()
	defer arr.Release()
	want := []string{`{"s":"a","x":NaN}`, `{"s":null,"x":-Inf}`, `{"s":"q\"","x":1.5}`, array.NullValueStr}
	for i, w := range want {
		if got := valueStr(arr, i); got != w {
			t.Errorf("row %d: %q, want %q", i, got, w)
		}
	}
}
