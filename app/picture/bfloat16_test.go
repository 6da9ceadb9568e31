package picture

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/dialect"
)

// TestDetectBFloat16 checks that Lance's bfloat16 (a tensorext.FloatType
// naming float32) finds the same picture as float32 and float16, channels
// included, and that a bfloat16 type with broken storage is not numeric.
func TestDetectBFloat16(t *testing.T) {
	bf16 := dialect.NewBFloat16Type()
	broken, err := bf16.Deserialize(arrow.PrimitiveTypes.Uint16, "")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		shape []int
		names []string
		want  Axes
	}{
		{[]int{4, 5, 3}, nil, Axes{H: 0, W: 1, Channel: 2, Preview: true}},
		{[]int{3, 4, 5}, nil, Axes{H: 1, W: 2, Channel: 0, Preview: true}},
		{[]int{2, 2, 3}, []string{"height", "width", "channel"}, Axes{H: 0, W: 1, Channel: 2, Preview: true}},
		{[]int{6, 7}, nil, Axes{H: 0, W: 1, Channel: -1, Preview: true}},
	}
	for _, c := range cases {
		got, ok := Find(c.shape, c.names, bf16)
		if !ok || got != c.want {
			t.Errorf("%v %q: %+v %v, want %+v", c.shape, c.names, got, ok, c.want)
		}
		for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Float32, arrow.FixedWidthTypes.Float16} {
			if f, _ := Find(c.shape, c.names, dt); f != got {
				t.Errorf("%v: bfloat16 %+v, %s %+v", c.shape, got, dt, f)
			}
		}
		if _, ok := Find(c.shape, c.names, broken); ok {
			t.Errorf("%v: broken bfloat16 detected as numeric", c.shape)
		}
	}
}
