package picture

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestDetect(t *testing.T) {
	u8, f32, i16 := arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Int16
	none := Axes{H: -1, W: -1, Channel: -1}
	for _, c := range []struct {
		name  string
		shape []int
		names []string
		vt    arrow.DataType
		want  Axes
		ok    bool
	}{
		{"gray 2-D", []int{5, 7}, nil, f32, Axes{H: 0, W: 1, Channel: -1, Preview: true}, true},
		{"int 2-D", []int{5, 7}, nil, i16, Axes{H: 0, W: 1, Channel: -1, Preview: true}, true},
		{"bool 2-D", []int{2, 2}, nil, arrow.FixedWidthTypes.Boolean, Axes{H: 0, W: 1, Channel: -1, Preview: true}, true},
		{"HWC RGB", []int{4, 6, 3}, nil, u8, Axes{H: 0, W: 1, Channel: 2, Preview: true}, true},
		{"HWC RGBA float", []int{4, 6, 4}, nil, f32, Axes{H: 0, W: 1, Channel: 2, Preview: true}, true},
		{"HW1 gray", []int{5, 7, 1}, nil, u8, Axes{H: 0, W: 1, Channel: 2, Preview: true}, true},
		{"CHW", []int{3, 5, 7}, nil, u8, Axes{H: 1, W: 2, Channel: 0, Preview: true}, true},
		{"HWC before CHW", []int{3, 5, 3}, nil, u8, Axes{H: 0, W: 1, Channel: 2, Preview: true}, true},
		{"3-D int: no channel", []int{4, 6, 3}, nil, i16, Axes{H: 1, W: 2, Channel: -1}, true},
		{"3-D no channel size", []int{5, 6, 7}, nil, u8, Axes{H: 1, W: 2, Channel: -1}, true},
		{"CHW RGBA", []int{4, 6, 5}, nil, u8, Axes{H: 1, W: 2, Channel: 0, Preview: true}, true},
		{"named H,W,C", []int{4, 6, 3}, []string{"H", "W", "C"}, u8, Axes{H: 0, W: 1, Channel: 2, Preview: true}, true},
		{"named C,H,W", []int{3, 4, 6}, []string{"c", "height", "width"}, u8, Axes{H: 1, W: 2, Channel: 0, Preview: true}, true},
		{"named row,rgb,col", []int{5, 3, 7}, []string{"row", "rgb", "col"}, u8, Axes{H: 0, W: 2, Channel: 1, Preview: true}, true},
		{"named W,H,C (transposed)", []int{6, 4, 3}, []string{"W", "H", "C"}, u8, Axes{H: 1, W: 0, Channel: 2, Preview: true}, true},
		{"named bands", []int{4, 5, 6, 1}, []string{"T", "Y", "X", "band"}, f32, Axes{H: 1, W: 2, Channel: 3}, true},
		{"named volume, last size 4: no channel", []int{2, 3, 5, 4}, []string{"T", "Z", "X", "Y"}, f32, Axes{H: 3, W: 2, Channel: -1}, true},
		{"named without channel name, size 3 last", []int{4, 6, 3}, []string{"a", "b", "d"}, u8, Axes{H: 1, W: 2, Channel: -1}, true},
		{"channel name of a wrong size", []int{4, 6, 5}, []string{"H", "W", "C"}, u8, Axes{H: 0, W: 1, Channel: -1}, true},
		{"empty names count as unnamed", []int{4, 6, 3}, []string{"", " ", ""}, u8, Axes{H: 0, W: 1, Channel: 2, Preview: true}, true},
		{"names of another length ignored", []int{4, 6, 3}, []string{"H", "W"}, u8, Axes{H: 0, W: 1, Channel: 2, Preview: true}, true},
		{"4-D unnamed NHWC", []int{2, 4, 6, 3}, nil, u8, Axes{H: 1, W: 2, Channel: 3}, true},
		{"4-D unnamed NCHW", []int{2, 3, 4, 5}, nil, f32, Axes{H: 2, W: 3, Channel: -1}, true},
		{"zero size: no preview", []int{0, 7}, nil, f32, Axes{H: 0, W: 1, Channel: -1}, true},
		{"1-D", []int{7}, nil, f32, none, false},
		{"strings", []int{2, 2}, nil, arrow.BinaryTypes.String, none, false},
	} {
		got, ok := Find(c.shape, c.names, c.vt)
		if !ok {
			got = none
		}
		if got != c.want || ok != c.ok {
			t.Errorf("%s: Find(%v, %q, %s) = %+v, %v; want %+v, %v", c.name, c.shape, c.names, c.vt, got, ok, c.want, c.ok)
		}
	}
}
