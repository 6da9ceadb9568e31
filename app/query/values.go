package query

import (
	"cmp"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/tensorext"
)

// domain is how a column's values compare with literals.
type domain uint8

const (
	dOther     domain = iota // only is null
	dInt                     // signed integers: literals exactly (rationals)
	dUint                    // unsigned integers
	dFloat                   // float16/32/64: literals cast to the type
	dDecimal                 // decimal32/64/128/256: literals exactly
	dString                  // utf8, large_utf8, utf8_view
	dBool                    // boolean
	dDate                    // date32 (days), date64 (ms): 'YYYY-MM-DD'
	dTime                    // time32, time64: 'hh:mm[:ss[.fff]]'
	dTimestamp               // timestamp: 'YYYY-MM-DD[Thh:mm[:ss[.fff]]][zone]'
)

// valueType is the type a column's values are compared as: a dictionary's
// value type, else the type itself.
func valueType(dt arrow.DataType) arrow.DataType {
	if d, ok := dt.(*arrow.DictionaryType); ok {
		return d.ValueType
	}
	return dt
}

func domainOf(dt arrow.DataType) domain {
	switch valueType(dt).ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return dInt
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return dUint
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		return dFloat
	case arrow.DECIMAL32, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DECIMAL256:
		return dDecimal
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return dString
	case arrow.BOOL:
		return dBool
	case arrow.DATE32, arrow.DATE64:
		return dDate
	case arrow.TIME32, arrow.TIME64:
		return dTime
	case arrow.TIMESTAMP:
		return dTimestamp
	}
	return dOther
}

// num is an exact numeric literal: r, or beyond ±1e100 (inf = ∓1, r nil).
type num struct {
	r   *big.Rat
	inf int
}

// limit is the magnitude beyond which literals count as infinite; it is
// above every Arrow integer and decimal (decimal256 holds 76 digits), and a
// literal below 1/limit compares with them as 1/limit does.
const limitExp = 100

// parseNum reads a number literal's text exactly (digits, '.', exponent).
func parseNum(text string) num {
	neg := strings.HasPrefix(text, "-")
	text = strings.TrimPrefix(text, "-")
	mant, exp := text, ""
	if i := strings.IndexAny(text, "eE"); i >= 0 {
		mant, exp = text[:i], text[i+1:]
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	sign := 1
	if neg {
		sign = -1
	}
	if digits == "" {
		return num{r: new(big.Rat)}
	}
	e, err := strconv.Atoi(exp)
	if exp == "" {
		e, err = 0, nil
	}
	if err != nil { // an exponent beyond int: huge or tiny
		if strings.HasPrefix(exp, "-") {
			e = -10 * limitExp
		} else {
			e = 10 * limitExp
		}
	}
	e -= len(frac)
	order := len(digits) + e // the value is below 10^order
	if order > limitExp {
		return num{inf: sign}
	}
	if order < -limitExp { // tiny: compares as 10^-limitExp
		digits, e = "1", -limitExp-1
	}
	r := new(big.Rat)
	n, _ := new(big.Int).SetString(digits, 10)
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(e))), nil)
	if e >= 0 {
		r.SetInt(n.Mul(n, p))
	} else {
		r.SetFrac(n, p)
	}
	if neg {
		r.Neg(r)
	}
	return num{r: r}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// scaled returns n times 10^scale.
func (n num) scaled(scale int32) num {
	if n.r == nil || scale == 0 {
		return n
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(int(scale)))), nil)
	r := new(big.Rat).Set(n.r)
	if scale > 0 {
		r.Mul(r, new(big.Rat).SetInt(p))
	} else {
		r.Quo(r, new(big.Rat).SetInt(p))
	}
	return num{r: r}
}

// side of an interval end: a value with whether it is included.
type end struct {
	lit  *Literal // nil: unbounded
	incl bool
}

// interval is [lo, hi] with each end included or not, in literals.
type interval struct{ lo, hi end }

// intervals turns a comparison, between or in into the intervals of values
// that pass; neg reports that the test is their complement (!=).
func compareIntervals(op CompOp, v *Literal) (iv []interval, neg bool) {
	switch op {
	case OpEq:
		return []interval{{end{v, true}, end{v, true}}}, false
	case OpNe:
		return []interval{{end{v, true}, end{v, true}}}, true
	case OpLt:
		return []interval{{end{}, end{v, false}}}, false
	case OpLe:
		return []interval{{end{}, end{v, true}}}, false
	case OpGt:
		return []interval{{end{v, false}, end{}}}, false
	}
	return []interval{{end{v, true}, end{}}}, false
}

// rng is a closed range of values.
type rng[T any] struct{ lo, hi T }

// intBounds turns intervals of exact numbers into closed ranges of
// integers within [min, max]; empty ones are dropped.
func intBounds(iv []interval, conv func(*Literal) (num, error), min, max *big.Int) ([]rng[*big.Int], error) {
	var out []rng[*big.Int]
	for _, x := range iv {
		lo, hi := new(big.Int).Set(min), new(big.Int).Set(max)
		if x.lo.lit != nil {
			n, err := conv(x.lo.lit)
			if err != nil {
				return nil, err
			}
			lo = bigMax(lo, ceilBound(n, x.lo.incl, min, max))
		}
		if x.hi.lit != nil {
			n, err := conv(x.hi.lit)
			if err != nil {
				return nil, err
			}
			hi = bigMin(hi, floorBound(n, x.hi.incl, min, max))
		}
		if lo.Cmp(hi) <= 0 {
			out = append(out, rng[*big.Int]{lo, hi})
		}
	}
	return out, nil
}

// ceilBound is the least integer ≥ n (> n unless incl), clamped to
// [min-1, max+1].
func ceilBound(n num, incl bool, min, max *big.Int) *big.Int {
	if n.inf != 0 {
		if n.inf > 0 {
			return new(big.Int).Add(max, big.NewInt(1))
		}
		return new(big.Int).Set(min)
	}
	q, m := new(big.Int).DivMod(n.r.Num(), n.r.Denom(), new(big.Int)) // floor (Denom > 0)
	if m.Sign() != 0 || !incl {
		q.Add(q, big.NewInt(1))
	}
	return bigMin(bigMax(q, new(big.Int).Sub(min, big.NewInt(1))), new(big.Int).Add(max, big.NewInt(1)))
}

// floorBound is the greatest integer ≤ n (< n unless incl).
func floorBound(n num, incl bool, min, max *big.Int) *big.Int {
	if n.inf != 0 {
		if n.inf < 0 {
			return new(big.Int).Sub(min, big.NewInt(1))
		}
		return new(big.Int).Set(max)
	}
	q, m := new(big.Int).DivMod(n.r.Num(), n.r.Denom(), new(big.Int))
	if m.Sign() == 0 && !incl {
		q.Sub(q, big.NewInt(1))
	}
	return bigMin(bigMax(q, new(big.Int).Sub(min, big.NewInt(1))), new(big.Int).Add(max, big.NewInt(1)))
}

func bigMax(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

func bigMin(a, b *big.Int) *big.Int {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

// floatBounds turns intervals into closed float ranges: each literal is
// cast to the column's float type (round to nearest: cast), and an
// excluded end becomes the next float inwards. NaN is in no range.
func floatBounds[T float32 | float64](iv []interval, cast func(float64) T) []rng[T] {
	var out []rng[T]
	for _, x := range iv {
		lo, hi := T(math.Inf(-1)), T(math.Inf(1))
		if x.lo.lit != nil {
			v := cast(parseFloat(x.lo.lit.Text))
			if !x.lo.incl {
				if math.IsInf(float64(v), 1) {
					continue
				}
				v = nextAfter(v, 1)
			}
			lo = v
		}
		if x.hi.lit != nil {
			v := cast(parseFloat(x.hi.lit.Text))
			if !x.hi.incl {
				if math.IsInf(float64(v), -1) {
					continue
				}
				v = nextAfter(v, -1)
			}
			hi = v
		}
		if lo <= hi {
			out = append(out, rng[T]{lo, hi})
		}
	}
	return out
}

func parseFloat(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64) // ±Inf or 0 beyond range, as wanted
	return f
}

func nextAfter[T float32 | float64](v T, dir int) T {
	var z T
	if _, ok := any(z).(float32); ok {
		return T(math.Nextafter32(float32(v), float32(dir)*float32(math.Inf(1))))
	}
	return T(math.Nextafter(float64(v), float64(dir)*math.Inf(1)))
}

func castFloat64(f float64) float64 { return f }
func castFloat32(f float64) float32 { return float32(f) }

// castFloat16 rounds to the nearest float16 (ties to even; then held as
// float32, exactly).
func castFloat16(f float64) float32 {
	return float32(tensorext.Float16ToFloat64(tensorext.Float16FromFloat64(f)))
}

// merge sorts closed ranges and joins overlapping ones. The lists are
// short (an in list at most): an insertion sort, not one instantiation of
// slices.SortFunc per type (≈30 kB of wasm each).
func merge[T any](r []rng[T], cmp func(a, b T) int) []rng[T] {
	for i := 1; i < len(r); i++ {
		for j := i; j > 0 && cmp(r[j].lo, r[j-1].lo) < 0; j-- {
			r[j], r[j-1] = r[j-1], r[j]
		}
	}
	var out []rng[T]
	for _, x := range r {
		if n := len(out); n > 0 && cmp(x.lo, out[n-1].hi) <= 0 {
			if cmp(x.hi, out[n-1].hi) > 0 {
				out[n-1].hi = x.hi
			}
			continue
		}
		out = append(out, x)
	}
	return out
}

func mergeOrdered[T cmp.Ordered](r []rng[T]) []rng[T] { return merge(r, cmp.Compare[T]) }

// strRange is a range of strings with open or missing ends (the strings
// have no greatest element).
type strRange struct {
	lo, hi         string
	loOpen, hiOpen bool
	noHi           bool
}

func (r strRange) has(v string) bool {
	if v < r.lo || r.loOpen && v == r.lo {
		return false
	}
	return r.noHi || v < r.hi || !r.hiOpen && v == r.hi
}

func stringRanges(iv []interval) []strRange {
	out := make([]strRange, 0, len(iv))
	for _, x := range iv {
		r := strRange{noHi: x.hi.lit == nil}
		if x.lo.lit != nil {
			r.lo, r.loOpen = x.lo.lit.Text, !x.lo.incl
		}
		if x.hi.lit != nil {
			r.hi, r.hiOpen = x.hi.lit.Text, !x.hi.incl
		}
		out = append(out, r)
	}
	return out
}

// parseInstant reads a date or timestamp literal: 'YYYY-MM-DD', then
// optionally 'T' or ' ' and hh:mm[:ss[.fraction]], then optionally 'Z' or
// ±hh:mm. A literal without a zone is in loc.
func parseInstant(s string, loc *time.Location) (time.Time, bool) {
	if len(s) > 10 && s[10] == ' ' {
		s = s[:10] + "T" + s[11:]
	}
	for _, layout := range []string{"2006-01-02", "2006-01-02T15:04", "2006-01-02T15:04:05.999999999", "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05.999999999Z07:00"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// parseClock reads a time of day 'hh:mm[:ss[.fraction]]' as nanoseconds
// since midnight.
func parseClock(s string) (int64, bool) {
	for _, layout := range []string{"15:04", "15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return int64(t.Hour())*3600e9 + int64(t.Minute())*60e9 + int64(t.Second())*1e9 + int64(t.Nanosecond()), true
		}
	}
	return 0, false
}

// zone returns the location of an Arrow time zone: a name from the zone
// database, or an offset ±hh:mm.
func zone(tz string) (*time.Location, error) {
	if tz == "" || tz == "UTC" || tz == "Z" {
		return time.UTC, nil
	}
	if len(tz) == 6 && (tz[0] == '+' || tz[0] == '-') && tz[3] == ':' {
		h, err1 := strconv.Atoi(tz[1:3])
		m, err2 := strconv.Atoi(tz[4:6])
		if err1 == nil && err2 == nil {
			off := h*3600 + m*60
			if tz[0] == '-' {
				off = -off
			}
			return time.FixedZone(tz, off), nil
		}
	}
	return time.LoadLocation(tz)
}

// unitsPerSecond of an Arrow time unit.
func unitsPerSecond(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Millisecond:
		return 1e3
	case arrow.Microsecond:
		return 1e6
	case arrow.Nanosecond:
		return 1e9
	}
	return 1
}

// nanosIn returns ns nanoseconds as an exact number of units, each perNs
// nanoseconds long.
func nanosIn(sec, nsec int64, unitNs int64) num {
	n := new(big.Int).Mul(big.NewInt(sec), big.NewInt(1e9))
	n.Add(n, big.NewInt(nsec))
	return num{r: new(big.Rat).SetFrac(n, big.NewInt(unitNs))}
}
