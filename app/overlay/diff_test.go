package overlay

import (
	"math"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/inspect"
)

// dValues reads a difference tensor's values in row-major order, NaN for
// null, and which are null.
func dValues(t *testing.T, d Difference) ([]float64, []bool) {
	t.Helper()
	if d.D.ValueType().ID() != arrow.FLOAT64 || !reflect.DeepEqual(d.D.Shape, d.Shape) {
		t.Fatalf("D is %s %v, want float64 %v", d.D.ValueType(), d.D.Shape, d.Shape)
	}
	var vals []float64
	var null []bool
	d.D.Positions(func(pos int) bool {
		v, ok := d.D.Float64(pos)
		if !ok {
			v = math.NaN()
		}
		vals = append(vals, v)
		null = append(null, d.D.IsNull(pos))
		return true
	})
	return vals, null
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !same(a[i], b[i]) {
			return false
		}
	}
	return true
}

// checkStats compares the statistics of d with want's (D is not compared).
func checkStats(t *testing.T, name string, d, want Difference) {
	t.Helper()
	d.D, want.D = tensorT{}, tensorT{}
	for _, f := range []struct {
		what      string
		got, want float64
	}{{"MaxAbs", d.MaxAbs, want.MaxAbs}, {"MeanAbs", d.MeanAbs, want.MeanAbs}, {"RMSE", d.RMSE, want.RMSE}, {"PSNR", d.PSNR, want.PSNR}} {
		if !same(f.got, f.want) && math.Abs(f.got-f.want) > 1e-12*math.Abs(f.want) {
			t.Errorf("%s: %s = %v, want %v", name, f.what, f.got, f.want)
		}
	}
	d.MaxAbs, d.MeanAbs, d.RMSE, d.PSNR = 0, 0, 0, 0
	want.MaxAbs, want.MeanAbs, want.RMSE, want.PSNR = 0, 0, 0, 0
	if !reflect.DeepEqual(d, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", name, d, want)
	}
}

func TestDiffUint8(t *testing.T) {
	// uint8 subtraction must not wrap: 0 − 5 is −5, 255 − 0 is 255.
	a := tensorOf(t, arrow.PrimitiveTypes.Uint8, []int{2, 3}, nil, nil, []uint8{0, 10, 255, 3, 100, 7})
	b := tensorOf(t, arrow.PrimitiveTypes.Uint8, []int{2, 3}, nil, nil, []uint8{5, 10, 0, 5, 90, 7})
	d, err := Diff(a, b, 2)
	if err != nil {
		t.Fatal(err)
	}
	// |A−B| = 5 0 255 2 10 0: sum 272, squares 25+65025+4+100 = 65154.
	mse := 65154.0 / 6
	checkStats(t, "uint8", d, Difference{
		Shape: []int{2, 3}, Count: 6, Compared: 6,
		MaxAbs: 255, MaxIndex: []int{0, 2}, MeanAbs: 272.0 / 6, RMSE: math.Sqrt(mse),
		Peak: 255, PSNR: 10 * math.Log10(255*255/mse), Tol: 2, Differing: 3,
	})
	if vals, _ := dValues(t, d); !sameFloats(vals, []float64{-5, 0, 255, -2, 10, 0}) {
		t.Errorf("D = %v", vals)
	}
	if d0, _ := Diff(a, b, 0); d0.Differing != 4 {
		t.Errorf("tol 0: %d differing, want 4", d0.Differing)
	}
	if d0, _ := Diff(a, a, 0); d0.PSNR != math.Inf(1) || d0.MaxAbs != 0 || d0.Differing != 0 || !reflect.DeepEqual(d0.MaxIndex, []int{0, 0}) {
		t.Errorf("equal: %+v", d0)
	}
	// int8: −128 − 127 = −255, no wrap; no PSNR range.
	c := tensorOf(t, arrow.PrimitiveTypes.Int8, []int{2}, nil, nil, []int8{-128, 127})
	e := tensorOf(t, arrow.PrimitiveTypes.Int8, []int{2}, nil, nil, []int8{127, -128})
	d, _ = Diff(c, e, 0)
	if vals, _ := dValues(t, d); !sameFloats(vals, []float64{-255, 255}) || d.MaxAbs != 255 || d.Peak != 0 || !math.IsNaN(d.PSNR) {
		t.Errorf("int8: D %v, %+v", vals, d)
	}
}

func TestDiffFloatsAndNaN(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	a := tensorOf(t, arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, nil, []float32{0.5, float32(nan), float32(nan), 1, 0.25, 0})
	b := tensorOf(t, arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, nil, []float32{0.25, float32(nan), 0.5, 1, 0.25, 0.75})
	d, err := Diff(a, b, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Compared: 0.25, 0, 0, −0.75 → max 0.75 at (1, 2), mean 0.25,
	// MSE (0.0625 + 0.5625)/4 = 0.15625; values in 0..1 so Peak 1.
	checkStats(t, "float32", d, Difference{
		Shape: []int{2, 3}, Count: 6, Compared: 4,
		MaxAbs: 0.75, MaxIndex: []int{1, 2}, MeanAbs: 0.25, RMSE: math.Sqrt(0.15625),
		Peak: 1, PSNR: 10 * math.Log10(1/0.15625), Differing: 3, BothNaN: 1, OneNaN: 1,
	})
	if vals, null := dValues(t, d); !sameFloats(vals, []float64{0.25, nan, nan, 0, 0, -0.75}) || null[1] {
		t.Errorf("D = %v (null %v)", vals, null)
	}
	// Values beyond 0..1: no PSNR. Infinities.
	x := tensorOf(t, arrow.PrimitiveTypes.Float64, []int{5}, nil, nil, []float64{inf, -inf, inf, 1, 3})
	y := tensorOf(t, arrow.PrimitiveTypes.Float64, []int{5}, nil, nil, []float64{inf, inf, 2, 1, 1})
	d, _ = Diff(x, y, 0.5)
	checkStats(t, "infinities", d, Difference{
		Shape: []int{5}, Count: 5, Compared: 2, MaxAbs: 2, MaxIndex: []int{4}, MeanAbs: 1, RMSE: math.Sqrt(2),
		PSNR: nan, Tol: 0.5, Differing: 3, SameInf: 1, OtherInf: 2,
	})
	if vals, _ := dValues(t, d); !sameFloats(vals, []float64{nan, -inf, inf, 0, 2}) {
		t.Errorf("D = %v", vals)
	}
	// An infinity is no value of the data range: values in 0..1 elsewhere
	// keep Peak 1.
	u := tensorOf(t, arrow.PrimitiveTypes.Float32, []int{3}, nil, nil, []float32{0.5, 0.25, float32(inf)})
	v := tensorOf(t, arrow.PrimitiveTypes.Float32, []int{3}, nil, nil, []float32{0.5, 0.75, 0.5})
	d, _ = Diff(u, v, 0)
	checkStats(t, "an infinity among values in 0..1", d, Difference{
		Shape: []int{3}, Count: 3, Compared: 2, MaxAbs: 0.5, MaxIndex: []int{1}, MeanAbs: 0.25, RMSE: math.Sqrt(0.125),
		Peak: 1, PSNR: 10 * math.Log10(1/0.125), Differing: 2, OtherInf: 1,
	})
	// Nothing comparable.
	n := tensorOf(t, arrow.PrimitiveTypes.Float64, []int{2}, nil, nil, []float64{nan, nan})
	d, _ = Diff(n, n, 0)
	checkStats(t, "all NaN", d, Difference{Shape: []int{2}, Count: 2, MaxAbs: nan, MeanAbs: nan, RMSE: nan, PSNR: nan, Peak: 1, BothNaN: 2})
	if r := d.Range(); r != (inspect.Range{Min: -1, Max: 1}) {
		t.Errorf("Range of no difference = %v", r)
	}
}

func TestDiffNulls(t *testing.T) {
	a := tensorOf(t, arrow.PrimitiveTypes.Int32, []int{2, 2}, nil, nil, []int32{1, 2, 3, 4}, 0)
	b := tensorOf(t, arrow.PrimitiveTypes.Int32, []int{2, 2}, nil, nil, []int32{1, 2, 3, 9}, 0, 1)
	d, err := Diff(a, b, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkStats(t, "nulls", d, Difference{
		Shape: []int{2, 2}, Count: 4, Compared: 2, MaxAbs: 5, MaxIndex: []int{1, 1}, MeanAbs: 2.5, RMSE: math.Sqrt(12.5),
		PSNR: math.NaN(), Differing: 2, BothNull: 1, OneNull: 1,
	})
	vals, null := dValues(t, d)
	if !reflect.DeepEqual(null, []bool{true, true, false, false}) || vals[2] != 0 || vals[3] != -5 {
		t.Errorf("D = %v, null %v", vals, null)
	}
}

func TestDiffPermuted(t *testing.T) {
	// A is physical [2, 3] with permutation [1, 0]: logical [3, 2], logical
	// (i, j) = physical (j, i). B is a plain [3, 2] of the logical values
	// but for logical (2, 0).
	a := tensorOf(t, arrow.PrimitiveTypes.Uint16, []int{2, 3}, []int{1, 0}, nil, []uint16{1, 2, 3, 4, 5, 6})
	b := tensorOf(t, arrow.PrimitiveTypes.Uint16, []int{3, 2}, nil, nil, []uint16{1, 4, 2, 5, 65535, 6})
	d, err := Diff(a, b, 0)
	if err != nil {
		t.Fatal(err)
	}
	mse := 65532.0 * 65532 / 6
	checkStats(t, "permuted", d, Difference{
		Shape: []int{3, 2}, Count: 6, Compared: 6, MaxAbs: 65532, MaxIndex: []int{2, 0}, MeanAbs: 65532.0 / 6,
		RMSE: math.Sqrt(mse), Peak: 65535, PSNR: 10 * math.Log10(65535.0*65535/mse), Differing: 1,
	})
	if vals, _ := dValues(t, d); !sameFloats(vals, []float64{0, 0, 0, 0, -65532, 0}) {
		t.Errorf("D = %v", vals)
	}
	if r := d.Range(); r != (inspect.Range{Min: -65532, Max: 65532}) {
		t.Errorf("Range = %v", r)
	}
	// Both permuted the same way compare equal.
	if d, _ := Diff(a, a, 0); d.Differing != 0 || !reflect.DeepEqual(d.Shape, []int{3, 2}) {
		t.Errorf("a vs a: %+v", d)
	}
}

func TestDiffErrors(t *testing.T) {
	f32 := tensorOf(t, arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, nil, make([]float32, 6))
	f64 := tensorOf(t, arrow.PrimitiveTypes.Float64, []int{2, 3}, nil, nil, make([]float64, 6))
	f64t := tensorOf(t, arrow.PrimitiveTypes.Float64, []int{3, 2}, nil, nil, make([]float64, 6))
	f32t := tensorOf(t, arrow.PrimitiveTypes.Float32, []int{3, 2}, nil, nil, make([]float32, 6))
	text := textTensor(t, 1, 2)
	broken := tensorT{Values: f32.Values, Shape: []int{7}, Strides: []int{1}}
	for _, c := range []struct {
		name string
		a, b tensorT
		err  string
	}{
		{"types", f32, f64, "overlay: cannot compare A (float32 [2 3]) with B (float64 [2 3]): the value types differ"},
		{"shapes", f64, f64t, "overlay: cannot compare A (float64 [2 3]) with B (float64 [3 2]): the shapes differ"},
		{"both", f32, f64t, "overlay: cannot compare A (float32 [2 3]) with B (float64 [3 2]): the value types and the shapes differ"},
		{"text", text, text, "overlay: cannot compare A (utf8 [1 2]) with B (utf8 [1 2]): the values are not numbers"},
		{"A null", zeroTensor(), f32t, "overlay: cannot compare: A is null, B is float32 [3 2]"},
		{"B null", f32, zeroTensor(), "overlay: cannot compare: B is null, A is float32 [2 3]"},
		{"both null", zeroTensor(), zeroTensor(), "overlay: cannot compare: A and B are null"},
		{"malformed", broken, f32, "overlay: cannot compare A (float32 [7]) with B (float32 [2 3]): A: "},
	} {
		_, err := Diff(c.a, c.b, 0)
		if err == nil || len(err.Error()) < len(c.err) || err.Error()[:len(c.err)] != c.err {
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
	}
}

func TestDiffEmptyAndColormap(t *testing.T) {
	fb := array.NewFloat64Builder(memory.DefaultAllocator)
	vals := fb.NewArray()
	fb.Release()
	defer vals.Release()
	e := tensorT{Values: vals, Shape: []int{0, 3}, Strides: []int{3, 1}}
	d, err := Diff(e, e, 0)
	if err != nil || d.Count != 0 || d.Compared != 0 || !math.IsNaN(d.MaxAbs) || d.MaxIndex != nil {
		t.Errorf("empty: %+v, %v", d, err)
	}
	cm := DiffColormap()
	if cm.Name != "coolwarm" || !cm.Diverging {
		t.Errorf("DiffColormap = %s (diverging %v)", cm.Name, cm.Diverging)
	}
	// 0 sits in the middle of the symmetric range: entry 128 of 0..255.
	r := Difference{MaxAbs: 3}.Range()
	if r != (inspect.Range{Min: -3, Max: 3}) || cm.At((0-r.Min)/(r.Max-r.Min)) != cm.LUT[128] {
		t.Errorf("Range %v", r)
	}
}
