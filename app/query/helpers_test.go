package query

// The test data set: one record batch with a column of every type the
// kernels read, and the same values as plain Go slices, from which the
// tests compute their expected results with their own loops.

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

const nRows = 240

// goData holds the batch's values; valid[name][i] is false for a null.
type goData struct {
	valid                          map[string][]bool
	i8                             []int8
	i16                            []int16
	i32                            []int32
	i64                            []int64
	u8                             []uint8
	u16                            []uint16
	u32                            []uint32
	u64                            []uint64
	f16, f32                       []float32
	f64                            []float64
	dec32, dec64, dec128, dec256   []*big.Rat // exact values
	str                            []string
	b                              []bool
	d32, d64                       []time.Time // dates (UTC midnight)
	t32, t64                       []time.Duration
	ts, tsn, tso                   []time.Time
	label                          []string // "" where null (entry or index)
	labelNull                      []bool
	dnum                           []float64
	dnumNull                       []bool
	emb                            [][]float32 // nil for a null row
	paris, kolkata                 *time.Location
	dictLabels                     []string
	dnumValues                     []float64
	dictLabelNull, dictDnumNullAll []bool
}

var words = []string{"cat", "dog", "hotdog", "Dog", "DOGMA", "caterpillar", "", "Straße", "STRASSE", "KELVIN", "\u212aelvin", "ſun", "Sun", "it's", "日本語", "a", "b", "ab", "abc"}

// half is f rounded to the nearest float16, held as float32.
func half(f float64) float32 {
	return float32(tensorext.Float16ToFloat64(tensorext.Float16FromFloat64(f)))
}

func mkValid(rng *rand.Rand, every int) []bool {
	v := make([]bool, nRows)
	for i := range v {
		v[i] = rng.IntN(every) != 0
	}
	return v
}

func newData(t testing.TB) (*goData, arrow.RecordBatch) {
	rng := rand.New(rand.NewPCG(7, 8))
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	g := &goData{valid: map[string][]bool{}, paris: paris, kolkata: time.FixedZone("+05:30", 5*3600+1800)}
	mem := memory.DefaultAllocator
	var fields []arrow.Field
	var cols []arrow.Array
	add := func(name string, dt arrow.DataType, valid []bool, set func(b array.Builder, i int)) {
		b := array.NewBuilder(mem, dt)
		defer b.Release()
		for i := 0; i < nRows; i++ {
			if valid != nil && !valid[i] {
				b.AppendNull()
				continue
			}
			set(b, i)
		}
		if valid == nil {
			valid = make([]bool, nRows)
			for i := range valid {
				valid[i] = true
			}
		}
		g.valid[name] = valid
		fields = append(fields, arrow.Field{Name: name, Type: dt, Nullable: true})
		cols = append(cols, b.NewArray())
	}
	for i := 0; i < nRows; i++ {
		g.i8 = append(g.i8, int8(rng.IntN(256)-128))
		g.i16 = append(g.i16, int16(rng.IntN(2000)-1000))
		g.i32 = append(g.i32, int32(rng.IntN(200)-100))
		g.i64 = append(g.i64, []int64{math.MinInt64, math.MaxInt64, 0, -1, 1 << 53, 1<<53 + 1, rng.Int64N(100) - 50}[rng.IntN(7)])
		g.u8 = append(g.u8, uint8(rng.IntN(256)))
		g.u16 = append(g.u16, uint16(rng.IntN(65536)))
		g.u32 = append(g.u32, []uint32{0, math.MaxUint32, uint32(rng.IntN(1000))}[rng.IntN(3)])
		g.u64 = append(g.u64, []uint64{0, math.MaxUint64, 1 << 63, uint64(rng.IntN(1000))}[rng.IntN(4)])
		nan32 := float32(math.NaN())
		g.f32 = append(g.f32, []float32{-1.5, 0, float32(math.Copysign(0, -1)), 0.9, math.Nextafter32(0.9, 2), 1e30, float32(math.Inf(1)), float32(math.Inf(-1)), nan32, float32(rng.NormFloat64())}[rng.IntN(10)])
		// 0.7 rounds up to float16 (float16.New truncates it); 0x1p-20 is subnormal.
		g.f16 = append(g.f16, half([]float64{0.1, -2, 65504, math.NaN(), 0.5, 1, 0.7, 0x1p-20}[rng.IntN(8)]))
		g.f64 = append(g.f64, []float64{0.1, 0.9, math.Nextafter(0.9, 2), -0.5, math.NaN(), math.Inf(1), math.Inf(-1), 1e300, float64(rng.IntN(10))}[rng.IntN(9)])
		g.dec32 = append(g.dec32, big.NewRat(int64(rng.IntN(20001)-10000), 100))
		g.dec64 = append(g.dec64, big.NewRat(rng.Int64N(2_000_000)-1_000_000, 10000))
		g.dec128 = append(g.dec128, []*big.Rat{big.NewRat(0, 1), big.NewRat(105, 10), big.NewRat(1001, 100), big.NewRat(10, 1),
			big.NewRat(-3, 2), big.NewRat(101, 100), big.NewRat(-3, 1), big.NewRat(rng.Int64N(200_001)-100_000, 100)}[rng.IntN(8)])
		huge := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(rng.IntN(30))), nil)
		huge.Mul(huge, big.NewInt([]int64{0, int64(rng.IntN(2001) - 1000)}[rng.IntN(2)]))
		g.dec256 = append(g.dec256, new(big.Rat).SetFrac(huge, big.NewInt(1000)))
		g.str = append(g.str, words[rng.IntN(len(words))])
		g.b = append(g.b, rng.IntN(2) == 0)
		day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, rng.IntN(120)-60)
		g.d32 = append(g.d32, day)
		g.d64 = append(g.d64, day.AddDate(0, 0, rng.IntN(3)))
		g.t32 = append(g.t32, time.Duration(rng.IntN(86400_000))*time.Millisecond)
		g.t64 = append(g.t64, time.Duration(rng.Int64N(86400e9)))
		base := time.Date(2024, 3, 31, 0, 0, 0, 0, time.UTC) // Paris changes to summer time at 01:00 UTC
		g.ts = append(g.ts, base.Add(time.Duration(rng.Int64N(4*3600e6))*time.Microsecond))
		g.tsn = append(g.tsn, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.IntN(7200)-3600)*time.Second))
		g.tso = append(g.tso, base.Add(time.Duration(rng.Int64N(48*3600e3))*time.Millisecond))
	}
	add("i8", arrow.PrimitiveTypes.Int8, mkValid(rng, 7), func(b array.Builder, i int) { b.(*array.Int8Builder).Append(g.i8[i]) })
	add("i16", arrow.PrimitiveTypes.Int16, mkValid(rng, 7), func(b array.Builder, i int) { b.(*array.Int16Builder).Append(g.i16[i]) })
	add("i32", arrow.PrimitiveTypes.Int32, nil, func(b array.Builder, i int) { b.(*array.Int32Builder).Append(g.i32[i]) })
	add("i64", arrow.PrimitiveTypes.Int64, mkValid(rng, 7), func(b array.Builder, i int) { b.(*array.Int64Builder).Append(g.i64[i]) })
	add("u8", arrow.PrimitiveTypes.Uint8, mkValid(rng, 7), func(b array.Builder, i int) { b.(*array.Uint8Builder).Append(g.u8[i]) })
	add("u16", arrow.PrimitiveTypes.Uint16, nil, func(b array.Builder, i int) { b.(*array.Uint16Builder).Append(g.u16[i]) })
	add("u32", arrow.PrimitiveTypes.Uint32, mkValid(rng, 7), func(b array.Builder, i int) { b.(*array.Uint32Builder).Append(g.u32[i]) })
	add("u64", arrow.PrimitiveTypes.Uint64, mkValid(rng, 7), func(b array.Builder, i int) { b.(*array.Uint64Builder).Append(g.u64[i]) })
	add("f16", arrow.FixedWidthTypes.Float16, mkValid(rng, 7), func(b array.Builder, i int) {
		b.(*array.Float16Builder).Append(tensorext.Float16FromFloat64(float64(g.f16[i])))
	})
	add("f32", arrow.PrimitiveTypes.Float32, mkValid(rng, 7), func(b array.Builder, i int) { b.(*array.Float32Builder).Append(g.f32[i]) })
	add("f64", arrow.PrimitiveTypes.Float64, mkValid(rng, 7), func(b array.Builder, i int) { b.(*array.Float64Builder).Append(g.f64[i]) })
	unscaled := func(r *big.Rat, scale int64) *big.Int {
		x := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(scale), nil)))
		if !x.IsInt() {
			t.Fatalf("%v at scale %d", r, scale)
		}
		return x.Num()
	}
	add("dec32", &arrow.Decimal32Type{Precision: 7, Scale: 2}, mkValid(rng, 7), func(b array.Builder, i int) {
		b.(*array.Decimal32Builder).Append(decimal.Decimal32(unscaled(g.dec32[i], 2).Int64()))
	})
	add("dec64", &arrow.Decimal64Type{Precision: 15, Scale: 4}, mkValid(rng, 7), func(b array.Builder, i int) {
		b.(*array.Decimal64Builder).Append(decimal.Decimal64(unscaled(g.dec64[i], 4).Int64()))
	})
	add("dec128", &arrow.Decimal128Type{Precision: 10, Scale: 2}, mkValid(rng, 7), func(b array.Builder, i int) {
		b.(*array.Decimal128Builder).Append(decimal128.FromBigInt(unscaled(g.dec128[i], 2)))
	})
	add("dec256", &arrow.Decimal256Type{Precision: 40, Scale: 3}, mkValid(rng, 7), func(b array.Builder, i int) {
		b.(*array.Decimal256Builder).Append(decimal256.FromBigInt(unscaled(g.dec256[i], 3)))
	})
	strValid := mkValid(rng, 7)
	add("str", arrow.BinaryTypes.String, strValid, func(b array.Builder, i int) { b.(*array.StringBuilder).Append(g.str[i]) })
	add("lstr", arrow.BinaryTypes.LargeString, strValid, func(b array.Builder, i int) { b.(*array.LargeStringBuilder).Append(g.str[i]) })
	add("sv", arrow.BinaryTypes.StringView, strValid, func(b array.Builder, i int) { b.(*array.StringViewBuilder).Append(g.str[i]) })
	add("b", arrow.FixedWidthTypes.Boolean, mkValid(rng, 7), func(b array.Builder, i int) { b.(*array.BooleanBuilder).Append(g.b[i]) })
	add("d32", arrow.FixedWidthTypes.Date32, mkValid(rng, 7), func(b array.Builder, i int) {
		b.(*array.Date32Builder).Append(arrow.Date32(g.d32[i].Unix() / 86400))
	})
	add("d64", arrow.FixedWidthTypes.Date64, mkValid(rng, 7), func(b array.Builder, i int) {
		b.(*array.Date64Builder).Append(arrow.Date64(g.d64[i].UnixMilli()))
	})
	add("t32", arrow.FixedWidthTypes.Time32ms, mkValid(rng, 7), func(b array.Builder, i int) {
		b.(*array.Time32Builder).Append(arrow.Time32(g.t32[i].Milliseconds()))
	})
	add("t64", arrow.FixedWidthTypes.Time64ns, mkValid(rng, 7), func(b array.Builder, i int) {
		b.(*array.Time64Builder).Append(arrow.Time64(g.t64[i].Nanoseconds()))
	})
	add("ts", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Europe/Paris"}, mkValid(rng, 7), func(b array.Builder, i int) {
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(g.ts[i].UnixMicro()))
	})
	add("tsn", &arrow.TimestampType{Unit: arrow.Second}, mkValid(rng, 7), func(b array.Builder, i int) {
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(g.tsn[i].Unix()))
	})
	add("tso", &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "+05:30"}, mkValid(rng, 7), func(b array.Builder, i int) {
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(g.tso[i].UnixMilli()))
	})

	// Dictionaries: label (int8 indices into strings, one entry null),
	// dnum (int16 indices into float64 values, one NaN).
	g.dictLabels = []string{"cat", "dog", "", "bird", "Cat"}
	labelDict := buildStrings([]string{"cat", "dog", "", "bird", "Cat"}, []bool{true, true, false, true, true})
	idxValid := mkValid(rng, 7)
	ib := array.NewInt8Builder(mem)
	for i := 0; i < nRows; i++ {
		j := rng.IntN(5)
		if !idxValid[i] {
			ib.AppendNull()
			g.label = append(g.label, "")
			g.labelNull = append(g.labelNull, true)
			continue
		}
		ib.Append(int8(j))
		g.label = append(g.label, g.dictLabels[j])
		g.labelNull = append(g.labelNull, j == 2)
	}
	labelIdx := ib.NewArray()
	fields = append(fields, arrow.Field{Name: "label", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, Nullable: true})
	cols = append(cols, array.NewDictionaryArray(fields[len(fields)-1].Type, labelIdx, labelDict))

	g.dnumValues = []float64{0.5, math.NaN(), 2, -1}
	fb := array.NewFloat64Builder(mem)
	fb.AppendValues(g.dnumValues, nil)
	dnumDict := fb.NewArray()
	nb := array.NewInt16Builder(mem)
	for i := 0; i < nRows; i++ {
		if rng.IntN(9) == 0 {
			nb.AppendNull()
			g.dnum = append(g.dnum, 0)
			g.dnumNull = append(g.dnumNull, true)
			continue
		}
		j := rng.IntN(4)
		nb.Append(int16(j))
		g.dnum = append(g.dnum, g.dnumValues[j])
		g.dnumNull = append(g.dnumNull, false)
	}
	fields = append(fields, arrow.Field{Name: "dnum", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.PrimitiveTypes.Float64}, Nullable: true})
	cols = append(cols, array.NewDictionaryArray(fields[len(fields)-1].Type, nb.NewArray(), dnumDict))

	// emb: fixed_shape_tensor<float32>[2,3] with dim names h, w; some rows
	// null, some elements NaN.
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, []string{"h", "w"})
	if err != nil {
		t.Fatal(err)
	}
	tb := tensorext.NewFixedShapeTensorBuilder(mem, typ)
	for i := 0; i < nRows; i++ {
		if rng.IntN(8) == 0 {
			tb.Append(false)
			g.emb = append(g.emb, nil)
			continue
		}
		row := make([]float32, 6)
		for k := range row {
			row[k] = float32(rng.IntN(9)) - 4
			if rng.IntN(10) == 0 {
				row[k] = float32(math.NaN())
			}
		}
		if err := tb.AppendTensor(row); err != nil {
			t.Fatal(err)
		}
		g.emb = append(g.emb, row)
	}
	fields = append(fields, arrow.Field{Name: "emb", Type: typ, Nullable: true})
	cols = append(cols, tb.NewFixedShapeTensorArray())
	return g, array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, nRows)
}

func buildStrings(vals []string, valid []bool) arrow.Array {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	b.AppendValues(vals, valid)
	return b.NewArray()
}
