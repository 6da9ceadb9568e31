package query

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// order is the test's own statement of the sort: rows by class (0 a
// value, 1 NaN, 2 null), values ascending (or descending), ties in row
// order.
func order(n int, class func(int) int, compare func(a, b int) int, desc bool) []int64 {
	rows := make([]int64, n)
	for i := range rows {
		rows[i] = int64(i)
	}
	slices.SortStableFunc(rows, func(a, b int64) int {
		ca, cb := class(int(a)), class(int(b))
		if ca != cb {
			return ca - cb
		}
		if ca != 0 {
			return 0
		}
		c := compare(int(a), int(b))
		if desc {
			c = -c
		}
		return c
	})
	return rows
}

func sortCases(g *goData) map[string]struct {
	class   func(int) int
	compare func(a, b int) int
} {
	type c = struct {
		class   func(int) int
		compare func(a, b int) int
	}
	nullIf := func(col string) func(int) int {
		return func(i int) int {
			if !g.valid[col][i] {
				return 2
			}
			return 0
		}
	}
	floatClass := func(col string, f func(int) float64) func(int) int {
		return func(i int) int {
			switch {
			case !g.valid[col][i]:
				return 2
			case math.IsNaN(f(i)):
				return 1
			}
			return 0
		}
	}
	by := func(f func(a, b int) int) func(a, b int) int { return f }
	f16 := func(i int) float64 { return float64(g.f16[i]) }
	f32 := func(i int) float64 { return float64(g.f32[i]) }
	f64 := func(i int) float64 { return g.f64[i] }
	embStat := func(pick func(lo, hi, mean, std float64, nans int) float64) (func(int) int, func(a, b int) int) {
		val := func(i int) float64 { return pick(tensorStats(g.emb[i])) }
		return func(i int) int {
				switch {
				case g.emb[i] == nil:
					return 2
				case math.IsNaN(val(i)):
					return 1
				}
				return 0
			}, func(a, b int) int {
				return cmp.Compare(val(a), val(b))
			}
	}
	meanClass, meanCmp := embStat(func(_, _, m, _ float64, _ int) float64 { return m })
	maxClass, maxCmp := embStat(func(_, hi, _, _ float64, _ int) float64 { return hi })
	nanClass, nanCmp := embStat(func(_, _, _, _ float64, n int) float64 { return float64(n) })
	sizeClass, _ := embStat(func(_, _, _, _ float64, _ int) float64 { return 6 })
	return map[string]c{
		"i8":     {nullIf("i8"), by(func(a, b int) int { return cmp.Compare(g.i8[a], g.i8[b]) })},
		"i16":    {nullIf("i16"), by(func(a, b int) int { return cmp.Compare(g.i16[a], g.i16[b]) })},
		"i32":    {nullIf("i32"), by(func(a, b int) int { return cmp.Compare(g.i32[a], g.i32[b]) })},
		"i64":    {nullIf("i64"), by(func(a, b int) int { return cmp.Compare(g.i64[a], g.i64[b]) })},
		"u8":     {nullIf("u8"), by(func(a, b int) int { return cmp.Compare(g.u8[a], g.u8[b]) })},
		"u16":    {nullIf("u16"), by(func(a, b int) int { return cmp.Compare(g.u16[a], g.u16[b]) })},
		"u32":    {nullIf("u32"), by(func(a, b int) int { return cmp.Compare(g.u32[a], g.u32[b]) })},
		"u64":    {nullIf("u64"), by(func(a, b int) int { return cmp.Compare(g.u64[a], g.u64[b]) })},
		"f16":    {floatClass("f16", f16), by(func(a, b int) int { return cmp.Compare(f16(a), f16(b)) })},
		"f32":    {floatClass("f32", f32), by(func(a, b int) int { return cmp.Compare(f32(a), f32(b)) })},
		"f64":    {floatClass("f64", f64), by(func(a, b int) int { return cmp.Compare(f64(a), f64(b)) })},
		"dec32":  {nullIf("dec32"), by(func(a, b int) int { return g.dec32[a].Cmp(g.dec32[b]) })},
		"dec64":  {nullIf("dec64"), by(func(a, b int) int { return g.dec64[a].Cmp(g.dec64[b]) })},
		"dec128": {nullIf("dec128"), by(func(a, b int) int { return g.dec128[a].Cmp(g.dec128[b]) })},
		"dec256": {nullIf("dec256"), by(func(a, b int) int { return g.dec256[a].Cmp(g.dec256[b]) })},
		"str":    {nullIf("str"), by(func(a, b int) int { return strings.Compare(g.str[a], g.str[b]) })},
		"lstr":   {nullIf("lstr"), by(func(a, b int) int { return strings.Compare(g.str[a], g.str[b]) })},
		"sv":     {nullIf("sv"), by(func(a, b int) int { return strings.Compare(g.str[a], g.str[b]) })},
		"b":      {nullIf("b"), by(func(a, b int) int { return cmp.Compare(b2i(g.b[a]), b2i(g.b[b])) })},
		"d32":    {nullIf("d32"), by(func(a, b int) int { return g.d32[a].Compare(g.d32[b]) })},
		"d64":    {nullIf("d64"), by(func(a, b int) int { return g.d64[a].Compare(g.d64[b]) })},
		"t32":    {nullIf("t32"), by(func(a, b int) int { return cmp.Compare(g.t32[a], g.t32[b]) })},
		"t64":    {nullIf("t64"), by(func(a, b int) int { return cmp.Compare(g.t64[a], g.t64[b]) })},
		"ts":     {nullIf("ts"), by(func(a, b int) int { return g.ts[a].Compare(g.ts[b]) })},
		"tsn":    {nullIf("tsn"), by(func(a, b int) int { return g.tsn[a].Compare(g.tsn[b]) })},
		"tso":    {nullIf("tso"), by(func(a, b int) int { return g.tso[a].Compare(g.tso[b]) })},
		"label": {func(i int) int {
			if g.labelNull[i] {
				return 2
			}
			return 0
		}, by(func(a, b int) int { return strings.Compare(g.label[a], g.label[b]) })},
		"dnum": {func(i int) int {
			switch {
			case g.dnumNull[i]:
				return 2
			case math.IsNaN(g.dnum[i]):
				return 1
			}
			return 0
		}, by(func(a, b int) int { return cmp.Compare(g.dnum[a], g.dnum[b]) })},
		"mean(emb)":     {meanClass, meanCmp},
		"max(emb)":      {maxClass, maxCmp},
		"nan(emb)":      {nanClass, nanCmp},
		"size(emb)":     {sizeClass, func(a, b int) int { return 0 }},
		"dim(emb, 'w')": {sizeClass, func(a, b int) int { return 0 }},
		"height(emb)":   {sizeClass, func(a, b int) int { return 0 }},
	}
}

func TestSortKernels(t *testing.T) {
	g, b := newData(t)
	cols := ColumnsOf(b.Schema())
	for name, c := range sortCases(g) {
		for _, desc := range []bool{false, true} {
			key := name
			if desc {
				key = "-" + name
			}
			k, err := ParseSort(key)
			if err != nil {
				t.Fatal(err)
			}
			s, err := BindSort(k, cols)
			if err != nil {
				t.Errorf("%s: %v", key, err)
				continue
			}
			// The batch twice, in ranges: rows 0..2n-1, dictionaries
			// interned across batches.
			keys := s.NewKeys(0)
			for _, r := range [][2]int{{0, 100}, {100, nRows}, {0, nRows}} {
				if err := keys.AddRange(context.Background(), b, nil, r[0], r[1]); err != nil {
					t.Fatal(err)
				}
			}
			perm, err := keys.Sort(context.Background(), nil)
			if err != nil {
				t.Errorf("%s: %v", key, err)
				continue
			}
			want := order(2*nRows, func(i int) int { return c.class(i % nRows) }, func(a, b int) int { return c.compare(a%nRows, b%nRows) }, desc)
			if got := perm.Rows(); !slices.Equal(got, want) {
				t.Errorf("%s: %v\nwant %v", key, got, want)
			}
			if s.String() != key {
				t.Errorf("String() = %q, want %q", s.String(), key)
			}
		}
	}
}

func TestSortErrors(t *testing.T) {
	for _, c := range []struct{ key, msg string }{
		{"shape(emb)", "cannot sort by shape(): sort by size() or dim() at 0"},
		{"emb", "emb is a tensor column: sort by one of its statistics, such as mean(emb) at 0"},
		{"blob", "cannot sort by blob (binary) at 0"},
		{"-scroe", `unknown column "scroe" (did you mean "score"?) at 1`},
	} {
		k, err := ParseSort(c.key)
		if err == nil {
			_, err = BindSort(k, bindCols())
		}
		if err == nil || err.Error() != c.msg {
			t.Errorf("%s: %v, want %q", c.key, err, c.msg)
		}
	}
}

// TestSortLarge checks the radix sort on many rows with many ties, against
// a stable sort of the same values, and that a cancelled context and a
// failing pacer stop it.
func TestSortLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 300_000
	mem := memory.DefaultAllocator
	fb, ib, sb := array.NewFloat32Builder(mem), array.NewInt64Builder(mem), array.NewStringBuilder(mem)
	fv, iv, sv := make([]float32, n), make([]int64, n), make([]string, n)
	for i := range n {
		fv[i] = float32(rng.IntN(5000)) / 7
		if rng.IntN(50) == 0 {
			fv[i] = float32(math.NaN())
		}
		iv[i] = rng.Int64N(1<<40) - 1<<39
		if rng.IntN(3) == 0 {
			iv[i] = int64(rng.IntN(10))
		}
		sv[i] = fmt.Sprintf("a-common-prefix-%d-%s", rng.IntN(100), strings.Repeat("x", rng.IntN(3)))
	}
	fb.AppendValues(fv, nil)
	ib.AppendValues(iv, nil)
	sb.AppendValues(sv, nil)
	schema := arrow.NewSchema([]arrow.Field{{Name: "f", Type: arrow.PrimitiveTypes.Float32}, {Name: "i", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	b := array.NewRecordBatch(schema, []arrow.Array{fb.NewArray(), ib.NewArray(), sb.NewArray()}, n)
	cols := ColumnsOf(schema)
	for _, c := range []struct {
		key     string
		class   func(int) int
		compare func(a, b int) int
	}{
		{"f", func(i int) int { return b2i(fv[i] != fv[i]) }, func(a, b int) int { return cmp.Compare(fv[a], fv[b]) }},
		{"i", func(int) int { return 0 }, func(a, b int) int { return cmp.Compare(iv[a], iv[b]) }},
		{"s", func(int) int { return 0 }, func(a, b int) int { return strings.Compare(sv[a], sv[b]) }},
	} {
		for _, desc := range []bool{false, true} {
			k, _ := ParseSort(c.key)
			k.Desc = desc
			s, err := BindSort(k, cols)
			if err != nil {
				t.Fatal(err)
			}
			keys := s.NewKeys(n)
			if err := keys.Add(context.Background(), b, nil); err != nil {
				t.Fatal(err)
			}
			paced := 0
			perm, err := keys.Sort(context.Background(), func() error { paced++; return nil })
			if err != nil {
				t.Fatal(err)
			}
			if want := order(n, c.class, c.compare, desc); !slices.Equal(perm.Rows(), want) {
				t.Errorf("%s desc=%v: wrong order", c.key, desc)
			}
			if paced < 4 {
				t.Errorf("%s: paced %d times", c.key, paced)
			}
		}
	}
	s, _ := BindSort(SortKey{X: Operand{Column: "f"}}, cols)
	stop := errors.New("stop")
	keys := s.NewKeys(n)
	keys.Add(context.Background(), b, nil)
	if _, err := keys.Sort(context.Background(), func() error { return stop }); !errors.Is(err, stop) {
		t.Errorf("pacer's error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	keys = s.NewKeys(n)
	if err := keys.Add(ctx, b, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Add: %v", err)
	}
}

func TestSortUnevaluated(t *testing.T) {
	g, b := newData(t)
	k, _ := ParseSort("-mean(emb)")
	s, err := BindSort(k, ColumnsOf(b.Schema()))
	if err != nil {
		t.Fatal(err)
	}
	keys := s.NewKeys(nRows)
	if err := keys.Add(context.Background(), b, brokenTensors{ArrayTensors{b}}); err != nil {
		t.Fatal(err)
	}
	perm, err := keys.Sort(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	class := func(i int) int {
		_, _, m, _, _ := tensorStats(g.emb[max(0, i)])
		switch {
		case g.emb[i] == nil || i%10 == 1:
			return 2
		case math.IsNaN(m):
			return 1
		}
		return 0
	}
	broken := 0
	for i := range nRows {
		if g.emb[i] != nil && i%10 == 1 {
			broken++
		}
	}
	want := order(nRows, class, func(a, b int) int {
		_, _, ma, _, _ := tensorStats(g.emb[a])
		_, _, mb, _, _ := tensorStats(g.emb[b])
		return cmp.Compare(ma, mb)
	}, true)
	if !slices.Equal(perm.Rows(), want) || keys.Unevaluated != int64(broken) || keys.FirstError != "row 1: broken" {
		t.Errorf("%v (%d, %q)\nwant %v (%d)", perm.Rows(), keys.Unevaluated, keys.FirstError, want, broken)
	}
}
