package inspect

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/raster"
	"github.com/tensorview/tensorview/tensorext"
)

// shaped returns a tensor of the given shape and names without building
// values beyond its element count (float32 zeros, or uint8/int32).
func shaped(t *testing.T, vt arrow.DataType, shape []int, names []string) tensorext.Tensor {
	t.Helper()
	n := 1
	for _, d := range shape {
		n *= d
	}
	var vals any
	switch vt.ID() {
	case arrow.UINT8:
		vals = make([]uint8, n)
	case arrow.INT32:
		vals = make([]int32, n)
	default:
		vals = make([]float32, n)
	}
	return fixed(t, vt, shape, nil, names, vals)
}

func TestDefaultView(t *testing.T) {
	f32, u8, i32 := arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int32
	for _, c := range []struct {
		vt      arrow.DataType
		shape   []int
		names   []string
		y, x, c int
	}{
		{f32, []int{5, 7}, nil, 0, 1, -1},
		{i32, []int{2, 5, 7}, nil, 1, 2, -1},
		{u8, []int{5, 7, 3}, nil, 0, 1, 2},                        // HWC by position
		{u8, []int{4, 5, 7}, nil, 1, 2, 0},                        // CHW by position (3-D only)
		{i32, []int{5, 7, 3}, nil, 1, 2, -1},                      // int32 is not drawn as colour
		{f32, []int{2, 4, 5, 7}, nil, 2, 3, -1},                   // 4-D: no CHW guess
		{f32, []int{2, 5, 7, 4}, nil, 1, 2, 3},                    // 4-D NHWC
		{u8, []int{3, 5, 7}, []string{"C", "H", "W"}, 1, 2, 0},    // named
		{u8, []int{5, 3, 7}, []string{"H", "C", "W"}, 0, 2, 1},    // named channel in the middle
		{f32, []int{7, 5}, []string{"width", "height"}, 1, 0, -1}, // names swap Y and X
		{f32, []int{9, 7, 5}, []string{"x", "t", "y"}, 2, 0, -1},
		{f32, []int{9, 7, 5}, []string{"x", "t", "z"}, 1, 2, -1}, // only one name: last two
		{u8, []int{5, 7, 3}, []string{"H", "W", "band"}, 0, 1, 2},
		{u8, []int{5, 7, 5}, []string{"H", "W", "C"}, 0, 1, -1}, // C of size 5 is not a channel
	} {
		ten := shaped(t, c.vt, c.shape, c.names)
		v := DefaultView(ten)
		if v.Y != c.y || v.X != c.x || v.Channel != c.c || len(v.Index) != len(c.shape) || v.FlipX || v.FlipY {
			t.Errorf("%s %v %v: got %+v, want Y=%d X=%d C=%d", c.vt, c.shape, c.names, v, c.y, c.x, c.c)
		}
		if err := v.Validate(ten); err != nil {
			t.Errorf("%v: default view invalid: %v", c.shape, err)
		}
	}
	// 1-D: no picture.
	one := shaped(t, f32, []int{5}, nil)
	v := DefaultView(one)
	if err := v.Validate(one); err == nil || !strings.Contains(err.Error(), "1-D") {
		t.Errorf("1-D: %+v %v", v, err)
	}
}

func TestValidate(t *testing.T) {
	ten := shaped(t, arrow.PrimitiveTypes.Uint8, []int{2, 3, 4}, []string{"N", "H", "C"})
	for _, c := range []struct {
		v    View
		want string // "" for valid
	}{
		{View{Y: 1, X: 2, Channel: -1}, ""},
		{View{Y: 1, X: 2, Channel: -1, Index: []int{1, 0, 0}}, ""},
		{View{Y: 1, X: 2, Channel: -1, Index: []int{1, 99, -5}}, ""}, // Y, X entries ignored
		{View{Y: 0, X: 1, Channel: 2}, ""},
		{View{Y: 3, X: 1, Channel: -1}, "Y dimension 3 out of range [0, 3)"},
		{View{Y: 0, X: -1, Channel: -1}, "X dimension -1 out of range [0, 3)"},
		{View{Y: 1, X: 1, Channel: -1}, `Y and X are both dimension 1 ("H")`},
		{View{Y: 1, X: 2, Channel: 0}, `Channel dimension 0 ("N") has size 2; colour channels need 3 (RGB) or 4 (RGBA)`},
		{View{Y: 0, X: 2, Channel: 1}, ""}, // H has size 3
		{View{Y: 0, X: 1, Channel: 1}, "is also Y or X"},
		{View{Y: 0, X: 1, Channel: 5}, "Channel dimension 5 out of range [0, 3) (or -1 for none)"},
		{View{Y: 1, X: 2, Channel: -1, Index: []int{0, 0}}, "index has 2 entries for a 3-D tensor"},
		{View{Y: 1, X: 2, Channel: -1, Index: []int{2, 0, 0}}, `index 2 out of range [0, 2) for dimension 0 ("N")`},
		{View{Y: 1, X: 2, Channel: -1, Index: []int{-1, 0, 0}}, "index -1 out of range"},
	} {
		err := c.v.Validate(ten)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.v, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: got %v, want %q", c.v, err, c.want)
		}
		if c.want != "" {
			if _, err := Render(ten, c.v, Colormaps[0], Range{0, 1}); err == nil {
				t.Errorf("%+v rendered", c.v)
			}
		}
	}
	// Malformed tensors.
	vals := array.NewUint8Builder(memory.DefaultAllocator).NewArray()
	defer vals.Release()
	if err := (View{Y: 0, X: 1, Channel: -1}).Validate(tensorext.Tensor{Values: vals, Shape: []int{1, 1}, Strides: []int{1}}); err == nil {
		t.Error("strides length not checked")
	}
	if err := (View{Y: 0, X: 1, Channel: -1}).Validate(tensorext.Tensor{Shape: []int{1, 1}, Strides: []int{1, 1}}); err == nil {
		t.Error("nil values not checked")
	}
}

func TestViewIndexHelper(t *testing.T) {
	ten := shaped(t, arrow.PrimitiveTypes.Float32, []int{2, 3, 4}, nil)
	v := View{Y: 2, X: 0, Channel: -1, Index: []int{0, 2, 0}, FlipY: true}
	if got := v.index(ten, 1, 0); !reflect.DeepEqual(got, []int{1, 2, 3}) {
		t.Errorf("index = %v", got)
	}
}

// TestDefaultViewFollowsPreviews: wherever the table previews a tensor,
// the inspector opens on the same picture (package layout's rule): the same
// rows and columns, and the same colour channels (a 1-channel image is grey
// in both, the inspector giving its size-1 dimension a slider). The cases
// are those the two once decided differently.
func TestDefaultViewFollowsPreviews(t *testing.T) {
	f32, u8 := arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Uint8
	for _, c := range []struct {
		vt      arrow.DataType
		shape   []int
		names   []string
		sliders int
	}{
		{u8, []int{5, 7, 1}, nil, 1},
		{u8, []int{5, 3, 7}, []string{"row", "rgb", "col"}, 0},
		{u8, []int{4, 6, 3}, nil, 0},
		{u8, []int{3, 4, 6}, nil, 0},
		{f32, []int{4, 6, 4}, []string{"H", "W", "C"}, 0},
		{f32, []int{5, 7}, nil, 0},
		{f32, []int{6, 4, 3}, []string{"W", "H", "C"}, 0},
	} {
		ten := shaped(t, c.vt, c.shape, c.names)
		v := DefaultView(ten)
		l, ok := raster.FindPicture(ten.Shape, ten.DimNames, ten.ValueType())
		if !ok {
			t.Errorf("%v %v: no preview", c.shape, c.names)
			continue
		}
		wantC := l.Channel
		if l.Kind == raster.Gray {
			wantC = -1
		}
		s := NewSession(ten, 4)
		if v.Y != l.H || v.X != l.W || v.Channel != wantC || len(s.Sliders()) != c.sliders {
			t.Errorf("%v %v: inspector Y=%d X=%d C=%d (%d sliders), preview H=%d W=%d C=%d %s (want %d sliders)",
				c.shape, c.names, v.Y, v.X, v.Channel, len(s.Sliders()), l.H, l.W, l.Channel, l.Kind, c.sliders)
		}
	}
	// A named float volume T,Z,X,Y whose last size is 4 is no RGBA picture:
	// Y × X with two sliders.
	vol := shaped(t, f32, []int{2, 3, 5, 4}, []string{"T", "Z", "X", "Y"})
	if v := DefaultView(vol); v.Y != 3 || v.X != 2 || v.Channel != -1 || len(NewSession(vol, 4).Sliders()) != 2 {
		t.Errorf("T,Z,X,Y volume: %+v", v)
	}
}

// TestPreviewIsDefaultPicture: where the table's preview shows colours (RGB
// or RGBA, any value type) or uint8 grey levels, it is the inspector's
// default picture (DefaultView) drawn with the preview's scale, sampled
// down by nearest neighbour: raster.PreviewIn's pixel (x, y) is Render's
// pixel (x·w/ow, y·h/oh) with the range raster.Range finds ({0, 255} for
// uint8, drawn as they are), the grey colormap, and null, NaN and infinite
// elements transparent. Scalar pictures of other types differ by design
// (the preview rounds 255·f, the colormap bins 256·f) and the inspector's
// own defaults differ too (viridis, min..max for uint8, visible NaN).
func TestPreviewIsDefaultPicture(t *testing.T) {
	f32, f64, u8 := arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Uint8
	nan, inf := math.NaN(), math.Inf(1)
	values := func(n int, f func(i int) float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = f(i)
		}
		return v
	}
	for _, c := range []struct {
		name  string
		vt    arrow.DataType
		shape []int
		vals  []float64
		null  map[int]bool
		box   [2]int
	}{
		{"float32 RGB", f32, []int{4, 5, 3}, values(60, func(i int) float64 { return math.Sin(float64(i)) * 3 }), map[int]bool{7: true}, [2]int{}},
		{"float32 RGB specials", f32, []int{3, 4, 3}, values(36, func(i int) float64 { return map[int]float64{27: nan, 31: inf, 35: -inf, 4: -inf}[i] + float64(i)/7 }), nil, [2]int{}},
		{"float64 RGBA", f64, []int{3, 2, 4}, values(24, func(i int) float64 { return float64(i*i) - 40 }), nil, [2]int{}},
		{"float32 constant RGB", f32, []int{2, 3, 3}, values(18, func(int) float64 { return 2.5 }), nil, [2]int{}},
		{"float32 CHW sampled", f32, []int{3, 40, 70}, values(8400, func(i int) float64 { return float64(i%97) / 3 }), nil, [2]int{23, 11}},
		{"uint8 RGB", u8, []int{5, 6, 3}, values(90, func(i int) float64 { return float64(i * 7 % 256) }), nil, [2]int{}},
		{"uint8 grey", u8, []int{6, 9}, values(54, func(i int) float64 { return float64(i * 13 % 256) }), nil, [2]int{}},
		{"uint8 grey sampled", u8, []int{30, 50}, values(1500, func(i int) float64 { return float64(i % 256) }), nil, [2]int{17, 9}},
	} {
		ten := withNulls(t, c.vt, c.shape, c.vals, c.null)
		l, ok := raster.FindPicture(ten.Shape, ten.DimNames, ten.ValueType())
		if !ok {
			t.Fatalf("%s: no preview", c.name)
		}
		preview := raster.PreviewIn(ten, l, c.box[0], c.box[1])
		r := Range{0, 255}
		if c.vt.ID() != arrow.UINT8 {
			lo, hi, _ := raster.Range(ten)
			r = Range{lo, hi}
		}
		cm, _ := ColormapByName("gray")
		cm.NaN, cm.PosInf, cm.NegInf = NullColor, NullColor, NullColor
		v := DefaultView(ten)
		full := mustRender(t, ten, v, cm, r)
		w, h := full.Bounds().Dx(), full.Bounds().Dy()
		ow, oh := preview.Bounds().Dx(), preview.Bounds().Dy()
		if c.box == [2]int{} && (ow != w || oh != h) {
			t.Errorf("%s: preview %d×%d, picture %d×%d", c.name, ow, oh, w, h)
			continue
		}
		for y := range oh {
			for x := range ow {
				if got, want := px(preview, x, y), px(full, x*w/ow, y*h/oh); got != want {
					t.Fatalf("%s: pixel (%d, %d) = %v, the inspector's %v", c.name, x, y, got, want)
				}
			}
		}
	}
}
