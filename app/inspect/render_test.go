package inspect

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// typeCase is a 2×3 tensor of one value type and the float64 value of each
// element as the test states it.
type typeCase struct {
	vt     arrow.DataType
	values any
	want   []float64
}

func typeCases() []typeCase {
	return []typeCase{
		{arrow.PrimitiveTypes.Uint8, []uint8{0, 7, 128, 200, 255, 3}, []float64{0, 7, 128, 200, 255, 3}},
		{arrow.PrimitiveTypes.Int8, []int8{-128, -1, 0, 1, 64, 127}, []float64{-128, -1, 0, 1, 64, 127}},
		{arrow.PrimitiveTypes.Uint16, []uint16{0, 1000, 65535, 5, 300, 40000}, []float64{0, 1000, 65535, 5, 300, 40000}},
		{arrow.PrimitiveTypes.Int16, []int16{-32768, -5, 0, 5, 12345, 32767}, []float64{-32768, -5, 0, 5, 12345, 32767}},
		{arrow.PrimitiveTypes.Uint32, []uint32{0, 1, 4000000000, 7, 1 << 31, 99}, []float64{0, 1, 4000000000, 7, 1 << 31, 99}},
		{arrow.PrimitiveTypes.Int32, []int32{math.MinInt32, -7, 0, 7, 1 << 20, math.MaxInt32}, []float64{math.MinInt32, -7, 0, 7, 1 << 20, math.MaxInt32}},
		{arrow.PrimitiveTypes.Uint64, []uint64{0, 1 << 53, 1 << 63, 12, 1 << 40, 1 << 62}, []float64{0, 1 << 53, 1 << 63, 12, 1 << 40, 1 << 62}},
		{arrow.PrimitiveTypes.Int64, []int64{-1 << 62, -3, 0, 3, 1 << 50, 1 << 62}, []float64{-1 << 62, -3, 0, 3, 1 << 50, 1 << 62}},
		// float16 from bits: 0, 1, -2, 0.5, 2^-24 (smallest subnormal), 65504
		{arrow.FixedWidthTypes.Float16, []float16.Num{half(0x0000), half(0x3c00), half(0xc000), half(0x3800), half(0x0001), half(0x7bff)},
			[]float64{0, 1, -2, 0.5, 5.9604644775390625e-08, 65504}},
		{arrow.PrimitiveTypes.Float32, []float32{-1.5, 0, 0.25, 3.75, 1e-3, 2}, []float64{-1.5, 0, 0.25, 3.75, float64(float32(1e-3)), 2}},
		{arrow.PrimitiveTypes.Float64, []float64{-10, -2.5, 0, 1.0 / 3, 7, 10}, []float64{-10, -2.5, 0, 1.0 / 3, 7, 10}},
		{arrow.FixedWidthTypes.Boolean, []bool{true, false, false, true, true, false}, []float64{1, 0, 0, 1, 1, 0}},
	}
}

func minMax(vs []float64) Range {
	r := Range{math.Inf(1), math.Inf(-1)}
	for _, v := range vs {
		r.Min, r.Max = math.Min(r.Min, v), math.Max(r.Max, v)
	}
	return r
}

func TestRenderValueTypes(t *testing.T) {
	cm := gray256()
	for _, tc := range typeCases() {
		t.Run(tc.vt.String(), func(t *testing.T) {
			ten := fixed(t, tc.vt, []int{2, 3}, nil, nil, tc.values)
			ranges := []Range{minMax(tc.want), {-1, 1}, {0, 0.5}, {3, 3}}
			for _, r := range ranges {
				img := mustRender(t, ten, View{Y: 0, X: 1, Channel: -1}, cm, r)
				if img.Bounds() != image.Rect(0, 0, 3, 2) {
					t.Fatalf("bounds %v", img.Bounds())
				}
				for y := 0; y < 2; y++ {
					for x := 0; x < 3; x++ {
						want := cm.LUT[expectIndex(tc.want[y*3+x], r)]
						if got := px(img, x, y); got != want {
							t.Errorf("range %v pixel (%d,%d) value %g: got %v, want %v", r, x, y, tc.want[y*3+x], got, want)
						}
					}
				}
			}
		})
	}
}

func TestRenderUnsupportedType(t *testing.T) {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	b.AppendValues([]string{"a", "b", "c", "d"}, nil)
	vals := b.NewArray()
	defer vals.Release()
	ten := tensorext.Tensor{Values: vals, Shape: []int{2, 2}, Strides: []int{2, 1}}
	_, err := Render(ten, View{Y: 0, X: 1, Channel: -1}, Colormaps[0], Range{0, 1})
	if err == nil || !strings.Contains(err.Error(), "cannot draw values of type utf8") {
		t.Fatalf("err = %v", err)
	}
	var buf strings.Builder
	if err := WriteNPY(&buf, ten); err == nil || buf.Len() != 0 {
		t.Fatalf("WriteNPY: err %v, %d bytes", err, buf.Len())
	}
}

// Every permutation of a 3-D tensor, rendered from its logical view along
// every ordered pair of dimensions at every index of the third, against the
// test's own index arithmetic on the physical row-major values.
func TestRenderPermutations(t *testing.T) {
	phys := []int{2, 3, 4}
	vals := make([]int32, 24)
	for i := range vals {
		vals[i] = int32(i * 10)
	}
	perms := [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	cm := gray256()
	r := Range{0, 256} // value v maps to index floor(v) (v < 256)
	for _, perm := range perms {
		l := fixed(t, arrow.PrimitiveTypes.Int32, phys, perm, nil, vals).Logical()
		for _, yx := range [][2]int{{0, 1}, {1, 0}, {0, 2}, {2, 0}, {1, 2}, {2, 1}} {
			other := 3 - yx[0] - yx[1]
			for k := 0; k < l.Shape[other]; k++ {
				for _, flip := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
					v := View{Y: yx[0], X: yx[1], Channel: -1, Index: make([]int, 3), FlipY: flip[0], FlipX: flip[1]}
					v.Index[other] = k
					img := mustRender(t, l, v, cm, r)
					h, w := phys[perm[v.Y]], phys[perm[v.X]]
					if img.Bounds().Dx() != w || img.Bounds().Dy() != h {
						t.Fatalf("perm %v view %+v: size %v, want %dx%d", perm, v, img.Bounds(), w, h)
					}
					for y := 0; y < h; y++ {
						for x := 0; x < w; x++ {
							li := make([]int, 3) // logical index
							li[other], li[v.Y], li[v.X] = k, y, x
							if v.FlipY {
								li[v.Y] = h - 1 - y
							}
							if v.FlipX {
								li[v.X] = w - 1 - x
							}
							pi := make([]int, 3) // physical index: pi[perm[i]] = li[i]
							for i := range perm {
								pi[perm[i]] = li[i]
							}
							want := vals[rowMajor(phys, pi)]
							if got := px(img, x, y); int32(got.R) != want {
								t.Fatalf("perm %v view %+v pixel (%d,%d): R=%d, want %d", perm, v, x, y, got.R, want)
							}
						}
					}
				}
			}
		}
	}
}

func TestRenderFlips(t *testing.T) {
	ten := fixed(t, arrow.PrimitiveTypes.Uint8, []int{2, 3}, nil, nil, []uint8{1, 2, 3, 4, 5, 6})
	cm := gray256()
	r := Range{0, 256}
	rows := func(img *image.RGBA) string {
		var s []string
		for y := 0; y < img.Bounds().Dy(); y++ {
			var row []string
			for x := 0; x < img.Bounds().Dx(); x++ {
				row = append(row, fmt.Sprint(px(img, x, y).R))
			}
			s = append(s, strings.Join(row, " "))
		}
		return strings.Join(s, "|")
	}
	for _, c := range []struct {
		v    View
		want string
	}{
		{View{Y: 0, X: 1, Channel: -1}, "1 2 3|4 5 6"},
		{View{Y: 0, X: 1, Channel: -1, FlipX: true}, "3 2 1|6 5 4"},
		{View{Y: 0, X: 1, Channel: -1, FlipY: true}, "4 5 6|1 2 3"},
		{View{Y: 0, X: 1, Channel: -1, FlipX: true, FlipY: true}, "6 5 4|3 2 1"},
		{View{Y: 1, X: 0, Channel: -1}, "1 4|2 5|3 6"},
		{View{Y: 1, X: 0, Channel: -1, FlipY: true}, "3 6|2 5|1 4"},
	} {
		if got := rows(mustRender(t, ten, c.v, cm, r)); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.v, got, c.want)
		}
	}
}

func TestRenderChannels(t *testing.T) {
	cm, _ := ColormapByName("viridis")
	// HWC uint8 RGB, 2×2: drawn exactly with Range 0..255.
	rgb := []uint8{
		10, 20, 30, 40, 50, 60,
		70, 80, 90, 255, 0, 128,
	}
	hwc := fixed(t, arrow.PrimitiveTypes.Uint8, []int{2, 2, 3}, nil, []string{"H", "W", "C"}, rgb)
	v := DefaultView(hwc)
	if v.Y != 0 || v.X != 1 || v.Channel != 2 {
		t.Fatalf("DefaultView = %+v", v)
	}
	img := mustRender(t, hwc, v, cm, Range{0, 255})
	for y := 0; y < 2; y++ {
		for x := 0; x < 2; x++ {
			o := (y*2 + x) * 3
			want := color.RGBA{rgb[o], rgb[o+1], rgb[o+2], 255}
			if got := px(img, x, y); got != want {
				t.Errorf("uint8 RGB (%d,%d) = %v, want %v", x, y, got, want)
			}
		}
	}
	// The same image with every uint8 value: exact for all 256 levels.
	all := make([]uint8, 256*3)
	for i := range all {
		all[i] = uint8(i / 3)
	}
	strip := fixed(t, arrow.PrimitiveTypes.Uint8, []int{1, 256, 3}, nil, nil, all)
	img = mustRender(t, strip, View{Y: 0, X: 1, Channel: 2}, cm, Range{0, 255})
	for x := 0; x < 256; x++ {
		if got := px(img, x, 0); got != (color.RGBA{uint8(x), uint8(x), uint8(x), 255}) {
			t.Fatalf("level %d drawn as %v", x, got)
		}
	}

	// CHW float32 RGBA in 0..1 with Range 0..1: round(255*f).
	f := []float32{
		0, 0.5, 1, 0.25, // R plane (2×2)
		1, 0.2, 0.0, 0.75, // G
		0.1, 0.9, 0.3, 2, // B (2 clamps to 255)
		1, 0.5, 0, -1, // A (-1 clamps to 0)
	}
	chw := fixed(t, arrow.PrimitiveTypes.Float32, []int{4, 2, 2}, nil, nil, f)
	v = DefaultView(chw)
	if v.Channel != 0 || v.Y != 1 || v.X != 2 {
		t.Fatalf("DefaultView CHW = %+v", v)
	}
	img = mustRender(t, chw, v, cm, Range{0, 1})
	lvl := func(x float32) uint8 {
		return uint8(math.Max(0, math.Min(255, math.Floor(float64(x)*255+0.5))))
	}
	for y := 0; y < 2; y++ {
		for x := 0; x < 2; x++ {
			i := y*2 + x
			want := color.RGBA{lvl(f[i]), lvl(f[4+i]), lvl(f[8+i]), lvl(f[12+i])}
			if got := px(img, x, y); got != want {
				t.Errorf("float RGBA (%d,%d) = %v, want %v", x, y, got, want)
			}
		}
	}
	// Range scales the channels: 0..510 halves uint8 levels.
	img = mustRender(t, hwc, View{Y: 0, X: 1, Channel: 2}, cm, Range{0, 510})
	if got := px(img, 0, 1); got != (color.RGBA{35, 40, 45, 255}) {
		t.Errorf("scaled = %v", got)
	}
}

func TestRenderSpecialValues(t *testing.T) {
	cm, _ := ColormapByName("viridis")
	nan, inf := math.NaN(), math.Inf(1)
	vals := []float64{0, nan, inf, -inf, 0 /* null */, 1}
	for _, vt := range []arrow.DataType{arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Float32} {
		ten := withNulls(t, vt, []int{2, 3}, vals, map[int]bool{4: true})
		img := mustRender(t, ten, View{Y: 0, X: 1, Channel: -1}, cm, Range{0, 1})
		want := []color.RGBA{cm.LUT[0], NaNColor, PosInfColor, NegInfColor, NullColor, cm.LUT[255]}
		for i, w := range want {
			if got := px(img, i%3, i/3); got != w {
				t.Errorf("%s element %d (%g): got %v, want %v", vt, i, vals[i], got, w)
			}
		}
	}
	// The documented fixed colours.
	if NaNColor != (color.RGBA{255, 0, 255, 255}) || PosInfColor != (color.RGBA{255, 255, 255, 255}) ||
		NegInfColor != (color.RGBA{0, 0, 0, 255}) || NullColor != (color.RGBA{}) {
		t.Error("fixed colours changed; update the documentation")
	}
	// float16 NaN and infinities.
	h := fixed(t, arrow.FixedWidthTypes.Float16, []int{1, 4}, nil, nil,
		[]float16.Num{half(0x7e00), half(0x7c00), half(0xfc00), half(0x3c00)})
	img := mustRender(t, h, View{Y: 0, X: 1, Channel: -1}, cm, Range{0, 1})
	for i, w := range []color.RGBA{NaNColor, PosInfColor, NegInfColor, cm.LUT[255]} {
		if got := px(img, i, 0); got != w {
			t.Errorf("float16 element %d: got %v, want %v", i, got, w)
		}
	}
	// Special colours of a colormap copy are honoured.
	mine := cm
	mine.NaN = color.RGBA{1, 2, 3, 4}
	if got := px(mustRender(t, h, View{Y: 0, X: 1, Channel: -1}, mine, Range{0, 1}), 0, 0); got != mine.NaN {
		t.Errorf("custom NaN colour: %v", got)
	}
	// Colour pixels: null beats NaN beats +Inf beats -Inf.
	rgb := []float64{
		0.5, 0.5, 0.5, // plain
		0.5, nan, inf, // NaN and +Inf -> NaN
		-inf, inf, 0, // -> +Inf
		-inf, 0, 0, // -> -Inf
		nan, 0 /* null */, 0, // -> null
	}
	ten := withNulls(t, arrow.PrimitiveTypes.Float64, []int{1, 5, 3}, rgb, map[int]bool{13: true})
	img = mustRender(t, ten, View{Y: 0, X: 1, Channel: 2}, cm, Range{0, 1})
	for i, w := range []color.RGBA{{128, 128, 128, 255}, NaNColor, PosInfColor, NegInfColor, NullColor} {
		if got := px(img, i, 0); got != w {
			t.Errorf("colour pixel %d: got %v, want %v", i, got, w)
		}
	}
}

func TestRenderDegenerateAndBadRange(t *testing.T) {
	cm := gray256()
	ten := fixed(t, arrow.PrimitiveTypes.Float64, []int{1, 3}, nil, nil, []float64{1, 2, 3})
	img := mustRender(t, ten, View{Y: 0, X: 1, Channel: -1}, cm, Range{2, 2})
	for i, w := range []int{0, 0, 255} {
		if got := px(img, i, 0).R; int(got) != w {
			t.Errorf("step range element %d: %d, want %d", i, got, w)
		}
	}
	for _, r := range []Range{{math.NaN(), 1}, {0, math.Inf(1)}, {math.Inf(-1), 0}} {
		if _, err := Render(ten, View{Y: 0, X: 1, Channel: -1}, cm, r); err == nil || !strings.Contains(err.Error(), "finite") {
			t.Errorf("range %v: err %v", r, err)
		}
	}
	// A span beyond float64 (Max-Min overflows) still scales.
	wide := fixed(t, arrow.PrimitiveTypes.Float64, []int{1, 3}, nil, nil, []float64{-math.MaxFloat64, 0, math.MaxFloat64})
	img = mustRender(t, wide, View{Y: 0, X: 1, Channel: -1}, cm, Range{-math.MaxFloat64, math.MaxFloat64})
	for i, w := range []uint8{0, 128, 255} {
		if got := px(img, i, 0).R; got != w {
			t.Errorf("wide range element %d: %d, want %d", i, got, w)
		}
	}
	// Inverted range: a step too.
	img = mustRender(t, ten, View{Y: 0, X: 1, Channel: -1}, cm, Range{3, 1})
	if px(img, 2, 0).R != 0 || px(img, 0, 0).R != 0 {
		t.Error("inverted range")
	}
}

// Views of sliced arrays: a sliced column (row offset in the list) and a
// value array with a data offset and nulls (bitmap offset).
func TestRenderSlicedArrays(t *testing.T) {
	rows := [][]float32{{0, 1, 2, 3, 4, 5}, {10, 11, 12, 13, 14, 15}, {20, 21, 22, 23, 24, 25}}
	arr := fixedArray(t, arrow.PrimitiveTypes.Float32, []int{2, 3}, []int{1, 0}, nil, rows[0], rows[1], rows[2])
	sl := array.NewSlice(arr, 1, 3).(*tensorext.FixedShapeTensorArray)
	defer sl.Release()
	cm := gray256()
	for row := 0; row < 2; row++ {
		ten, err := sl.Tensor(row)
		if err != nil {
			t.Fatal(err)
		}
		l := ten.Logical() // shape [3 2]
		img := mustRender(t, l, View{Y: 0, X: 1, Channel: -1}, cm, Range{0, 256})
		for y := 0; y < 3; y++ {
			for x := 0; x < 2; x++ {
				want := rows[row+1][x*3+y]
				if got := px(img, x, y).R; float32(got) != want {
					t.Errorf("sliced row %d pixel (%d,%d) = %d, want %g", row, x, y, got, want)
				}
			}
		}
	}

	// Value arrays with a data offset: float64 with nulls, and booleans.
	fb := array.NewFloat64Builder(memory.DefaultAllocator)
	bb := array.NewBooleanBuilder(memory.DefaultAllocator)
	hb := array.NewFloat16Builder(memory.DefaultAllocator)
	for i := 0; i < 40; i++ {
		if i%7 == 3 {
			fb.AppendNull()
			hb.AppendNull()
		} else {
			fb.Append(float64(i))
			hb.Append(float16.New(float32(i))) // small integers are exact
		}
		bb.Append(i%3 == 0)
	}
	fa, ba, ha := fb.NewArray(), bb.NewArray(), hb.NewArray()
	defer fa.Release()
	defer ba.Release()
	defer ha.Release()
	fs, bs, hs := array.NewSlice(fa, 5, 37), array.NewSlice(ba, 5, 37), array.NewSlice(ha, 5, 37)
	defer fs.Release()
	defer bs.Release()
	defer hs.Release()
	for _, vals := range []arrow.Array{fs, bs, hs} {
		// a 4×4 view with strides (6, 1) starting at position 2 of the slice
		ten := tensorext.Tensor{Values: vals, Offset: 2, Shape: []int{4, 4}, Strides: []int{6, 1}}
		img := mustRender(t, ten, View{Y: 0, X: 1, Channel: -1}, cm, Range{0, 256})
		for y := 0; y < 4; y++ {
			for x := 0; x < 4; x++ {
				i := 5 + 2 + y*6 + x // position in the unsliced builder
				var want color.RGBA
				switch {
				case vals == bs && i%3 == 0:
					want = cm.LUT[1]
				case vals == bs:
					want = cm.LUT[0]
				case i%7 == 3:
					want = NullColor
				default:
					want = cm.LUT[i]
				}
				if got := px(img, x, y); got != want {
					t.Errorf("%s slice pixel (%d,%d) (element %d) = %v, want %v", vals.DataType(), x, y, i, got, want)
				}
			}
		}
	}
	// A view reaching outside its values is an error, not a panic.
	bad := tensorext.Tensor{Values: fs, Offset: 30, Shape: []int{2, 2}, Strides: []int{2, 1}}
	if _, err := Render(bad, View{Y: 0, X: 1, Channel: -1}, cm, Range{0, 1}); err == nil {
		t.Error("out-of-range view rendered")
	}
}

func TestRenderIntoReuses(t *testing.T) {
	ten := fixed(t, arrow.PrimitiveTypes.Float32, []int{3, 16, 16}, nil, nil, make([]float32, 3*256))
	cm, _ := ColormapByName("viridis")
	v := View{Y: 1, X: 2, Channel: -1, Index: []int{1, 0, 0}}
	dst, err := RenderInto(nil, ten, v, cm, Range{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() {
		got, err := RenderInto(dst, ten, v, cm, Range{0, 1})
		if err != nil || got != dst {
			t.Fatal("not reused", err)
		}
	})
	if allocs != 0 {
		t.Errorf("RenderInto allocates %v times per call", allocs)
	}
	// A smaller picture reuses the memory with the new bounds.
	small, _ := RenderInto(dst, ten, View{Y: 0, X: 1, Channel: -1}, cm, Range{0, 1})
	if small != dst || small.Bounds() != image.Rect(0, 0, 16, 3) || small.Stride != 64 || len(small.Pix) != 16*3*4 {
		t.Errorf("resized: %v stride %d len %d", small.Bounds(), small.Stride, len(small.Pix))
	}
	// An error leaves dst alone.
	if got, err := RenderInto(dst, ten, View{Y: 0, X: 0, Channel: -1}, cm, Range{0, 1}); err == nil || got != dst {
		t.Error("error case")
	}
}

// TestRenderZeroSize: a tensor with a zero dimension draws an empty picture
// and reads an empty range at once, however large its other dimensions
// (a fuzzed variable_shape_tensor row of shape [1079689216, 0, ...] once
// looped over a billion empty rows).
func TestRenderZeroSize(t *testing.T) {
	vals := array.NewFloat32Builder(memory.DefaultAllocator).NewArray()
	defer vals.Release()
	for _, c := range []struct {
		shape, strides []int
		v              View
	}{
		{[]int{0, 5}, []int{5, 1}, View{Y: 0, X: 1, Channel: -1}},
		{[]int{5, 0}, []int{0, 1}, View{Y: 0, X: 1, Channel: -1}},
		{[]int{1 << 30, 0}, []int{0, 1}, View{Y: 0, X: 1, Channel: -1}},
		{[]int{0, 1 << 30}, []int{1 << 30, 1}, View{Y: 0, X: 1, Channel: -1, FlipX: true}},
		{[]int{1 << 30, 0, 3}, []int{0, 3, 1}, View{Y: 0, X: 1, Channel: 2}},
	} {
		ten := tensorext.Tensor{Values: vals, Shape: c.shape, Strides: c.strides}
		if err := c.v.Validate(ten); err != nil {
			t.Errorf("%v: %v", c.shape, err)
			continue
		}
		img := mustRender(t, ten, c.v, Colormaps[0], Range{0, 1})
		if !img.Bounds().Empty() {
			t.Errorf("%v: bounds %v", c.shape, img.Bounds())
		}
		if r := AutoRange(ten, c.v, P1to99); r != (Range{0, 1}) {
			t.Errorf("%v: AutoRange = %v", c.shape, r)
		}
	}
}
