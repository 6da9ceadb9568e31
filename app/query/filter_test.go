package query

import (
	"context"
	"errors"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tensorview/tensorview/tensorext"
)

// foldContains is the test's own case-insensitive substring: some run of
// whole runes of s equal to p under strings.EqualFold.
func foldContains(s, p string) bool {
	if p == "" {
		return true
	}
	for i := range s {
		for j := i; j <= len(s); j++ {
			if (j == len(s) || utf8.RuneStart(s[j])) && strings.EqualFold(s[i:j], p) {
				return true
			}
		}
	}
	return false
}

func foldPrefix(s, p string) bool {
	for j := 0; j <= len(s); j++ {
		if (j == len(s) || utf8.RuneStart(s[j])) && strings.EqualFold(s[:j], p) {
			return true
		}
	}
	return false
}

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return r
}

// tensorStats computes the test's expected tensor statistics of a row:
// over the elements that are not NaN.
func tensorStats(row []float32) (lo, hi, mean, std float64, nans int) {
	lo, hi = math.NaN(), math.NaN()
	var xs []float64
	for _, v := range row {
		if v != v {
			nans++
			continue
		}
		xs = append(xs, float64(v))
	}
	if len(xs) == 0 {
		return lo, hi, math.NaN(), math.NaN(), nans
	}
	lo, hi = slices.Min(xs), slices.Max(xs)
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return lo, hi, mean, math.Sqrt(std / float64(len(xs))), nans
}

func filterCases(g *goData) []struct {
	q    string
	want func(i int) bool
} {
	v := func(col string, i int) bool { return g.valid[col][i] }
	f32 := func(s string) float32 { return float32(parseFloat(s)) }
	paris := func(y, mo, d, h, mi int) time.Time { return time.Date(y, time.Month(mo), d, h, mi, 0, 0, g.paris) }
	day := func(s string) time.Time { d, _ := time.Parse("2006-01-02", s); return d }
	type c = struct {
		q    string
		want func(i int) bool
	}
	emb := func(i int, fn func(lo, hi, mean, std float64, nans int) bool) bool {
		if g.emb[i] == nil {
			return false
		}
		return fn(tensorStats(g.emb[i]))
	}
	str := func(i int, fn func(string) bool) bool { return v("str", i) && fn(g.str[i]) }
	label := func(i int, fn func(string) bool) bool { return !g.labelNull[i] && fn(g.label[i]) }
	dnum := func(i int, fn func(float64) bool) bool { return !g.dnumNull[i] && fn(g.dnum[i]) }
	return []c{
		{"i8 > 5", func(i int) bool { return v("i8", i) && g.i8[i] > 5 }},
		{"i8 >= -128", func(i int) bool { return v("i8", i) }},
		{"i8 < -128", func(i int) bool { return false }},
		{"i8 > 2.5", func(i int) bool { return v("i8", i) && float64(g.i8[i]) > 2.5 }},
		{"i8 <= -2.5", func(i int) bool { return v("i8", i) && float64(g.i8[i]) <= -2.5 }},
		{"i8 = 2.5", func(i int) bool { return false }},
		{"i8 != 3", func(i int) bool { return v("i8", i) && g.i8[i] != 3 }},
		{"i8 between -10 and 10", func(i int) bool { return v("i8", i) && g.i8[i] >= -10 && g.i8[i] <= 10 }},
		{"i8 between 10 and -10", func(i int) bool { return false }},
		{"i8 not between -10 and 10", func(i int) bool { return v("i8", i) && !(g.i8[i] >= -10 && g.i8[i] <= 10) }},
		{"i8 in (1, 2, 3.5, -128, 1000, 2)", func(i int) bool { return v("i8", i) && slices.Contains([]int8{1, 2, -128}, g.i8[i]) }},
		{"i8 not in (1, 2)", func(i int) bool { return v("i8", i) && g.i8[i] != 1 && g.i8[i] != 2 }},
		{"i8 is null", func(i int) bool { return !v("i8", i) }},
		{"i8 is not null", func(i int) bool { return v("i8", i) }},
		{"i16 <= -1e2", func(i int) bool { return v("i16", i) && g.i16[i] <= -100 }},
		{"i32 > -1e400", func(i int) bool { return true }},
		{"i32 < 1e-400", func(i int) bool { return g.i32[i] <= 0 }},
		{"i32 >= -1e-400", func(i int) bool { return g.i32[i] >= 0 }},
		{"i64 = 9007199254740993", func(i int) bool { return v("i64", i) && g.i64[i] == 1<<53+1 }},
		{"i64 > 9007199254740992", func(i int) bool { return v("i64", i) && g.i64[i] > 1<<53 }},
		{"i64 < -9223372036854775808", func(i int) bool { return false }},
		{"i64 <= -9223372036854775808", func(i int) bool { return v("i64", i) && g.i64[i] == math.MinInt64 }},
		{"i64 = 9223372036854775807", func(i int) bool { return v("i64", i) && g.i64[i] == math.MaxInt64 }},
		{"i64 >= 9223372036854775808", func(i int) bool { return false }},
		{"u8 > 200", func(i int) bool { return v("u8", i) && g.u8[i] > 200 }},
		{"u16 between 100 and 30000", func(i int) bool { return g.u16[i] >= 100 && g.u16[i] <= 30000 }},
		{"u32 = 4294967295", func(i int) bool { return v("u32", i) && g.u32[i] == math.MaxUint32 }},
		{"u64 >= 9223372036854775808", func(i int) bool { return v("u64", i) && g.u64[i] >= 1<<63 }},
		{"u64 < 0", func(i int) bool { return false }},
		{"u64 > -1", func(i int) bool { return v("u64", i) }},
		{"u64 = 18446744073709551615", func(i int) bool { return v("u64", i) && g.u64[i] == math.MaxUint64 }},
		{"f32 > 0.9", func(i int) bool { return v("f32", i) && g.f32[i] > f32("0.9") }},
		{"f32 >= 0.9", func(i int) bool { return v("f32", i) && g.f32[i] >= f32("0.9") }},
		{"f32 = 0.9", func(i int) bool { return v("f32", i) && g.f32[i] == f32("0.9") }},
		{"f32 != 0.9", func(i int) bool { return v("f32", i) && !(g.f32[i] == f32("0.9")) }},
		{"f32 = 0", func(i int) bool { return v("f32", i) && g.f32[i] == 0 }},
		{"f32 = -0", func(i int) bool { return v("f32", i) && g.f32[i] == 0 }},
		{"f32 < 0", func(i int) bool { return v("f32", i) && g.f32[i] < 0 }},
		{"f32 >= 1e39", func(i int) bool { return v("f32", i) && math.IsInf(float64(g.f32[i]), 1) }},
		{"f32 > 1e39", func(i int) bool { return false }},
		{"f32 < -1e39", func(i int) bool { return false }},
		{"f32 between -1 and 1", func(i int) bool { return v("f32", i) && g.f32[i] >= -1 && g.f32[i] <= 1 }},
		{"f32 in (0.9, -1.5)", func(i int) bool { return v("f32", i) && (g.f32[i] == f32("0.9") || g.f32[i] == -1.5) }},
		{"not (f32 > 0)", func(i int) bool { return v("f32", i) && !(g.f32[i] > 0) }},
		{"f16 = 0.1", func(i int) bool { return v("f16", i) && g.f16[i] == half(0.1) }},
		{"f16 = 0.7", func(i int) bool { return v("f16", i) && g.f16[i] == half(0.7) }},
		{"f16 > 0 and f16 < 0.001", func(i int) bool { return v("f16", i) && g.f16[i] == 0x1p-20 }},
		{"f16 > 1000", func(i int) bool { return v("f16", i) && g.f16[i] > 1000 }},
		{"f16 != 0.5", func(i int) bool { return v("f16", i) && g.f16[i] != 0.5 }},
		{"f64 > 0.9", func(i int) bool { return v("f64", i) && g.f64[i] > 0.9 }},
		{"f64 <= 1e300", func(i int) bool { return v("f64", i) && g.f64[i] <= 1e300 }},
		{"f64 = -0.5", func(i int) bool { return v("f64", i) && g.f64[i] == -0.5 }},
		{"f64 >= 1e309", func(i int) bool { return v("f64", i) && math.IsInf(g.f64[i], 1) }},
		{"f64 < -1e309", func(i int) bool { return false }},
		{"f64 <= -1e309", func(i int) bool { return v("f64", i) && math.IsInf(g.f64[i], -1) }},
		{"dec128 > 10.005", func(i int) bool { return v("dec128", i) && g.dec128[i].Cmp(rat("10.005")) > 0 }},
		{"dec128 >= 10.005", func(i int) bool { return v("dec128", i) && g.dec128[i].Cmp(rat("10.005")) >= 0 }},
		{"dec128 < 10.005", func(i int) bool { return v("dec128", i) && g.dec128[i].Cmp(rat("10.005")) < 0 }},
		{"dec128 = 10.5", func(i int) bool { return v("dec128", i) && g.dec128[i].Cmp(rat("10.5")) == 0 }},
		{"dec128 <= -3", func(i int) bool { return v("dec128", i) && g.dec128[i].Cmp(rat("-3")) <= 0 }},
		{"dec128 between -1.5 and 1.5", func(i int) bool {
			return v("dec128", i) && g.dec128[i].Cmp(rat("-1.5")) >= 0 && g.dec128[i].Cmp(rat("1.5")) <= 0
		}},
		{"dec128 in (0, 1.01, 2.005)", func(i int) bool {
			return v("dec128", i) && (g.dec128[i].Sign() == 0 || g.dec128[i].Cmp(rat("1.01")) == 0)
		}},
		{"dec128 != 0", func(i int) bool { return v("dec128", i) && g.dec128[i].Sign() != 0 }},
		{"dec128 > 1e100", func(i int) bool { return false }},
		{"dec128 > -1e100", func(i int) bool { return v("dec128", i) }},
		{"dec256 > 1e20", func(i int) bool { return v("dec256", i) && g.dec256[i].Cmp(rat("1e20")) > 0 }},
		{"dec256 < -12345678901234567890.123", func(i int) bool {
			return v("dec256", i) && g.dec256[i].Cmp(rat("-12345678901234567890.123")) < 0
		}},
		{"dec256 = 0", func(i int) bool { return v("dec256", i) && g.dec256[i].Sign() == 0 }},
		{"dec32 >= 50.5", func(i int) bool { return v("dec32", i) && g.dec32[i].Cmp(rat("50.5")) >= 0 }},
		{"dec64 < -0.0001", func(i int) bool { return v("dec64", i) && g.dec64[i].Cmp(rat("-0.0001")) < 0 }},
		{"dec64 > 12.34565", func(i int) bool { return v("dec64", i) && g.dec64[i].Cmp(rat("12.34565")) > 0 }},
		{"str = 'dog'", func(i int) bool { return str(i, func(s string) bool { return s == "dog" }) }},
		{"str != 'dog'", func(i int) bool { return str(i, func(s string) bool { return s != "dog" }) }},
		{"str < 'b'", func(i int) bool { return str(i, func(s string) bool { return s < "b" }) }},
		{"str >= 'caterpillar'", func(i int) bool { return str(i, func(s string) bool { return s >= "caterpillar" }) }},
		{"str > ''", func(i int) bool { return str(i, func(s string) bool { return s > "" }) }},
		{"str between 'a' and 'c'", func(i int) bool { return str(i, func(s string) bool { return s >= "a" && s <= "c" }) }},
		{"str in ('cat', 'Straße', '')", func(i int) bool {
			return str(i, func(s string) bool { return s == "cat" || s == "Straße" || s == "" })
		}},
		{"str not in ('cat')", func(i int) bool { return str(i, func(s string) bool { return s != "cat" }) }},
		{"str contains 'dog'", func(i int) bool { return str(i, func(s string) bool { return foldContains(s, "dog") }) }},
		{"str contains 'k'", func(i int) bool { return str(i, func(s string) bool { return foldContains(s, "k") }) }},
		{"str contains 'S'", func(i int) bool { return str(i, func(s string) bool { return foldContains(s, "S") }) }},
		{"str contains 'ß'", func(i int) bool { return str(i, func(s string) bool { return foldContains(s, "ß") }) }},
		{"str contains '本'", func(i int) bool { return str(i, func(s string) bool { return foldContains(s, "本") }) }},
		{"str contains ''", func(i int) bool { return v("str", i) }},
		{"str not contains 'o'", func(i int) bool { return str(i, func(s string) bool { return !foldContains(s, "o") }) }},
		{"str starts with 'DOG'", func(i int) bool { return str(i, func(s string) bool { return foldPrefix(s, "DOG") }) }},
		{"str starts with 's'", func(i int) bool { return str(i, func(s string) bool { return foldPrefix(s, "s") }) }},
		{"str starts with 'KEL'", func(i int) bool { return str(i, func(s string) bool { return foldPrefix(s, "KEL") }) }},
		{"lstr = 'dog'", func(i int) bool { return str(i, func(s string) bool { return s == "dog" }) }},
		{"lstr contains 'AT'", func(i int) bool { return str(i, func(s string) bool { return foldContains(s, "AT") }) }},
		{"sv > 'd'", func(i int) bool { return str(i, func(s string) bool { return s > "d" }) }},
		{"sv starts with 'ca'", func(i int) bool { return str(i, func(s string) bool { return foldPrefix(s, "ca") }) }},
		{"search('dog')", func(i int) bool {
			return str(i, func(s string) bool { return foldContains(s, "dog") }) || label(i, func(s string) bool { return foldContains(s, "dog") })
		}},
		{"not search('a')", func(i int) bool {
			return !str(i, func(s string) bool { return foldContains(s, "a") }) && !label(i, func(s string) bool { return foldContains(s, "a") })
		}},
		{"b = true", func(i int) bool { return v("b", i) && g.b[i] }},
		{"b != true", func(i int) bool { return v("b", i) && !g.b[i] }},
		{"b in (true, false)", func(i int) bool { return v("b", i) }},
		{"not b = false", func(i int) bool { return v("b", i) && g.b[i] }},
		{"d32 = '2024-01-01'", func(i int) bool { return v("d32", i) && g.d32[i].Equal(day("2024-01-01")) }},
		{"d32 > '2023-12-15'", func(i int) bool { return v("d32", i) && g.d32[i].After(day("2023-12-15")) }},
		{"d32 between '2023-12-01' and '2024-01-31'", func(i int) bool {
			return v("d32", i) && !g.d32[i].Before(day("2023-12-01")) && !g.d32[i].After(day("2024-01-31"))
		}},
		{"d32 < '2024-01-01T12:00'", func(i int) bool { return v("d32", i) && !g.d32[i].After(day("2024-01-01")) }},
		{"d64 >= '2024-02-01'", func(i int) bool { return v("d64", i) && !g.d64[i].Before(day("2024-02-01")) }},
		{"d64 != '2024-01-10'", func(i int) bool { return v("d64", i) && !g.d64[i].Equal(day("2024-01-10")) }},
		{"t32 < '12:00'", func(i int) bool { return v("t32", i) && g.t32[i] < 12*time.Hour }},
		{"t32 >= '06:30:15.5'", func(i int) bool { return v("t32", i) && g.t32[i] >= 6*time.Hour+30*time.Minute+15500*time.Millisecond }},
		{"t64 between '01:00' and '02:00:00.000000001'", func(i int) bool {
			return v("t64", i) && g.t64[i] >= time.Hour && g.t64[i] <= 2*time.Hour+1
		}},
		{"ts >= '2024-03-31 03:00'", func(i int) bool { return v("ts", i) && !g.ts[i].Before(paris(2024, 3, 31, 3, 0)) }},
		{"ts < '2024-03-31T02:30:00+01:00'", func(i int) bool {
			return v("ts", i) && g.ts[i].Before(time.Date(2024, 3, 31, 1, 30, 0, 0, time.UTC))
		}},
		{"ts > '2024-03-31T01:30:00.000001Z'", func(i int) bool {
			return v("ts", i) && g.ts[i].After(time.Date(2024, 3, 31, 1, 30, 0, 1000, time.UTC))
		}},
		{"tsn > '2024-01-01T00:00:00.5'", func(i int) bool {
			return v("tsn", i) && g.tsn[i].After(time.Date(2024, 1, 1, 0, 0, 0, 5e8, time.UTC))
		}},
		{"tsn <= '2024-01-01'", func(i int) bool { return v("tsn", i) && !g.tsn[i].After(day("2024-01-01")) }},
		{"tso < '2024-03-31 12:00'", func(i int) bool {
			return v("tso", i) && g.tso[i].Before(time.Date(2024, 3, 31, 12, 0, 0, 0, g.kolkata))
		}},
		{"tso > '2024-04-01'", func(i int) bool { return v("tso", i) && g.tso[i].After(time.Date(2024, 4, 1, 0, 0, 0, 0, g.kolkata)) }},
		{"label = 'cat'", func(i int) bool { return label(i, func(s string) bool { return s == "cat" }) }},
		{"label != 'cat'", func(i int) bool { return label(i, func(s string) bool { return s != "cat" }) }},
		{"label is null", func(i int) bool { return g.labelNull[i] }},
		{"label is not null", func(i int) bool { return !g.labelNull[i] }},
		{"label in ('dog', 'bird')", func(i int) bool { return label(i, func(s string) bool { return s == "dog" || s == "bird" }) }},
		{"label contains 'CAT'", func(i int) bool { return label(i, func(s string) bool { return foldContains(s, "cat") }) }},
		{"label < 'c'", func(i int) bool { return label(i, func(s string) bool { return s < "c" }) }},
		{"not label = 'dog'", func(i int) bool { return label(i, func(s string) bool { return s != "dog" }) }},
		{"dnum > 0", func(i int) bool { return dnum(i, func(x float64) bool { return x > 0 }) }},
		{"dnum != 2", func(i int) bool { return dnum(i, func(x float64) bool { return x != 2 }) }},
		{"dnum = 0.5", func(i int) bool { return dnum(i, func(x float64) bool { return x == 0.5 }) }},
		{"dnum is null", func(i int) bool { return g.dnumNull[i] }},
		{"mean(emb) > 0", func(i int) bool { return emb(i, func(_, _, m, _ float64, _ int) bool { return m > 0 }) }},
		{"min(emb) < -3", func(i int) bool { return emb(i, func(lo, _, _, _ float64, _ int) bool { return lo < -3 }) }},
		{"max(emb) = 4", func(i int) bool { return emb(i, func(_, hi, _, _ float64, _ int) bool { return hi == 4 }) }},
		{"std(emb) > 2", func(i int) bool { return emb(i, func(_, _, _, sd float64, _ int) bool { return sd > 2 }) }},
		{"nan(emb) > 0", func(i int) bool { return emb(i, func(_, _, _, _ float64, n int) bool { return n > 0 }) }},
		{"nan(emb) = 0", func(i int) bool { return emb(i, func(_, _, _, _ float64, n int) bool { return n == 0 }) }},
		{"not (mean(emb) > 0)", func(i int) bool {
			return emb(i, func(_, _, m, _ float64, _ int) bool { return !(m > 0) })
		}},
		{"size(emb) = 6", func(i int) bool { return g.emb[i] != nil }},
		{"dim(emb, 'w') = 3", func(i int) bool { return g.emb[i] != nil }},
		{"dim(emb, 'H') = 3", func(i int) bool { return false }},
		{"dim(emb, 1) != 3", func(i int) bool { return false }},
		{"shape(emb) = [2, 3]", func(i int) bool { return g.emb[i] != nil }},
		{"shape(emb) not in ([3, 2], [6])", func(i int) bool { return g.emb[i] != nil }},
		{"emb is null", func(i int) bool { return g.emb[i] == nil }},
		{"width(emb) = 3 and height(emb) = 2", func(i int) bool { return g.emb[i] != nil }},
		{"label = 'cat' and f32 > 0.9", func(i int) bool {
			return label(i, func(s string) bool { return s == "cat" }) && v("f32", i) && g.f32[i] > f32("0.9")
		}},
		{"i8 > 0 or str = 'dog'", func(i int) bool {
			return v("i8", i) && g.i8[i] > 0 || str(i, func(s string) bool { return s == "dog" })
		}},
		{"not (i8 > 0 or str = 'dog')", func(i int) bool {
			return v("i8", i) && !(g.i8[i] > 0) && str(i, func(s string) bool { return s != "dog" })
		}},
		{"not (i8 > 0 and str = 'dog')", func(i int) bool {
			return v("i8", i) && !(g.i8[i] > 0) || str(i, func(s string) bool { return s != "dog" })
		}},
		{"(i8 > 0 or i16 < 0) and not b = true", func(i int) bool {
			return (v("i8", i) && g.i8[i] > 0 || v("i16", i) && g.i16[i] < 0) && v("b", i) && !g.b[i]
		}},
	}
}

func TestFilterKernels(t *testing.T) {
	g, b := newData(t)
	cols := ColumnsOf(b.Schema())
	for _, c := range filterCases(g) {
		f, err := Compile(c.q, cols)
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		sel, err := f.Eval(context.Background(), b, nil)
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		var want []int32
		for i := 0; i < nRows; i++ {
			if c.want(i) {
				want = append(want, int32(i))
			}
		}
		if !slices.Equal(sel.Rows, want) {
			t.Errorf("%s: rows %v, want %v", c.q, sel.Rows, want)
		}
		if sel.Unevaluated != 0 {
			t.Errorf("%s: %d unevaluated", c.q, sel.Unevaluated)
		}
	}
}

// TestFilterRanges: evaluating a batch in ranges gives the rows of
// evaluating it whole.
func TestFilterRanges(t *testing.T) {
	g, b := newData(t)
	cols := ColumnsOf(b.Schema())
	for _, c := range filterCases(g) {
		f, err := Compile(c.q, cols)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := f.Eval(context.Background(), b, nil)
		if err != nil {
			t.Fatal(err)
		}
		bf, err := f.Batch(b, nil)
		if err != nil {
			t.Fatal(err)
		}
		var rows []int32
		for _, r := range [][2]int{{0, 7}, {7, 7}, {7, 100}, {100, 163}, {163, nRows}} {
			sel, err := bf.Range(context.Background(), r[0], r[1])
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, sel.Rows...)
		}
		if !slices.Equal(rows, whole.Rows) {
			t.Errorf("%s: by ranges %v, whole %v", c.q, rows, whole.Rows)
		}
	}
	bf, _ := Must(Compile("i8 > 0", cols)).Batch(b, nil)
	if _, err := bf.Range(context.Background(), 5, nRows+1); err == nil {
		t.Error("a range past the batch: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := bf.Range(ctx, 0, nRows); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func Must(f *Filter, err error) *Filter {
	if err != nil {
		panic(err)
	}
	return f
}

// brokenTensors fails to read the rows whose number ends in 1.
type brokenTensors struct{ ArrayTensors }

func (bt brokenTensors) Tensor(col, row int) (tensorext.Tensor, error) {
	if row%10 == 1 {
		return tensorext.Tensor{}, errors.New("broken")
	}
	return bt.ArrayTensors.Tensor(col, row)
}

func TestFilterUnevaluated(t *testing.T) {
	g, b := newData(t)
	f, err := Compile("mean(emb) > 0 or i32 > 1000", ColumnsOf(b.Schema()))
	if err != nil {
		t.Fatal(err)
	}
	sel, err := f.Eval(context.Background(), b, brokenTensors{ArrayTensors{b}})
	if err != nil {
		t.Fatal(err)
	}
	var want []int32
	broken := 0
	for i := 0; i < nRows; i++ {
		if g.emb[i] == nil {
			continue
		}
		if i%10 == 1 {
			broken++
			continue
		}
		if _, _, m, _, _ := tensorStats(g.emb[i]); m > 0 {
			want = append(want, int32(i))
		}
	}
	if !slices.Equal(sel.Rows, want) || sel.Unevaluated != broken || sel.FirstError != "row 1: broken" {
		t.Errorf("rows %v (%d unevaluated, %q), want %v (%d, %q)", sel.Rows, sel.Unevaluated, sel.FirstError, want, broken, "row 1: broken")
	}
}

func TestMatches(t *testing.T) {
	var m Matches
	m.Add(0, Selection{Rows: []int32{1, 5}, Unevaluated: 2, FirstError: "row 3: x"})
	m.Add(1<<32-10, Selection{Rows: []int32{3, 9}})
	if m.parts == nil || m.Len() != 4 {
		t.Fatalf("uint32 rows: %+v", m)
	}
	m.Add(1<<32-10, Selection{Rows: []int32{10, 11}, Unevaluated: 1, FirstError: "row 0: y"})
	want := []int64{1, 5, 1<<32 - 7, 1<<32 - 1, 1 << 32, 1<<32 + 1}
	if m.parts != nil || !slices.Equal(m.Rows(), want) || m.Unevaluated != 3 || m.FirstError != "row 3: x" {
		t.Errorf("%v %d %q, want %v 3 %q", m.Rows(), m.Unevaluated, m.FirstError, want, "row 3: x")
	}
}

// TestMatchesGrow: matches grow in parts, never copying those found
// before (one big copy would be a long task in the browser), and a copy
// of the Perm taken on the way keeps its rows while more are added.
func TestMatchesGrow(t *testing.T) {
	var m Matches
	sel := Selection{Rows: make([]int32, 1000)}
	for i := range sel.Rows {
		sel.Rows[i] = int32(i)
	}
	m.Add(0, sel)
	first := &m.parts[0][0]
	early := m.Perm
	for base := int64(1000); base < 3*partRows; base += 1000 {
		m.Add(base, sel)
	}
	if &m.parts[0][0] != first || m.Len() != 197_000 || len(m.parts) != 197_000/partRows+1 {
		t.Errorf("%d rows in %d parts; the first part moved: %v", m.Len(), len(m.parts), &m.parts[0][0] != first)
	}
	for i := range m.Len() {
		if m.At(i) != int64(i) {
			t.Fatalf("At(%d) = %d", i, m.At(i))
		}
	}
	if early.Len() != 1000 || early.At(999) != 999 {
		t.Errorf("the early copy holds %d rows", early.Len())
	}
}

// FuzzFilter binds and evaluates any query on the test batch: errors are
// *Error, and nothing panics.
func FuzzFilter(f *testing.F) {
	g, b := newData(f)
	for _, c := range filterCases(g) {
		f.Add(c.q)
	}
	cols := ColumnsOf(b.Schema())
	f.Fuzz(func(t *testing.T, q string) {
		flt, err := Compile(q, cols)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("%q: %v is no *Error", q, err)
			}
			return
		}
		if _, err := flt.Eval(context.Background(), b, nil); err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		// MayMatch is sound: a window of rows with a match may match,
		// given its exact bounds (bounds_test.go).
		for start := 0; start < nRows; start += 40 {
			win := b.NewSlice(int64(start), int64(start+40))
			sel, err := flt.Eval(context.Background(), win, nil)
			may := flt.MayMatch(func(col int) (Bounds, bool) { return boundsOf(win.Column(col)) })
			win.Release()
			if err == nil && len(sel.Rows) > 0 && !may {
				t.Fatalf("%q: rows %d–%d match, yet MayMatch says none can", q, start, start+39)
			}
		}
		if _, err := Compile(flt.String(), cols); err != nil {
			t.Fatalf("%q → %q: %v", q, flt.String(), err)
		}
	})
}
