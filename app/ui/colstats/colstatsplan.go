package colstats

import (
	"math"
	"strconv"
	"strings"

	"github.com/tensorview/tensorview/app/session"

	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/scan"
)

// Column statistics in plain Go (no browser): a query.Summary as the
// figures, histogram bars and top values the statistics panel shows, and
// the quick filters it writes into the query. The scan runs in
// colstats.go, the panel is colstatspanel.go. native tests:
// colstatsplan_test.go.
//
// The statistics are of the whole file, whatever filter is applied (the
// panel says so): they describe the column, and a quick filter chosen
// from them is AND-ed to the filter.

// statFigure is one figure of the panel: Key is its data-stat, Value as
// shown, Title what it means when more needs saying (an estimate, the
// first error).
type statFigure struct {
	Key, Label, Value, Title string
}

// statFigures are the figures of s (of a column or tensor function of
// class c) and of what the scan could not read (u).
func statFigures(s query.Summary, u scan.Unread, c query.ValueClass) []statFigure {
	out := []statFigure{
		{Key: "count", Label: "rows", Value: session.GroupDigits(s.Count)},
		{Key: "nulls", Label: "nulls", Value: session.GroupDigits(s.Nulls)},
	}
	if c == query.ClassFloat {
		out = append(out, statFigure{Key: "nan", Label: "NaN", Value: session.GroupDigits(s.NaN)})
	}
	if c == query.ClassOther {
		return appendUnread(out, s, u)
	}
	d := statFigure{Key: "distinct", Label: "distinct", Value: session.GroupDigits(s.Distinct)}
	if !s.DistinctExact {
		d.Value, d.Title = "≈ "+d.Value, "estimated (HyperLogLog, ±0.81 %)"
	}
	out = append(out, d,
		statFigure{Key: "min", Label: "min", Value: valueText(s.Min, c)},
		statFigure{Key: "max", Label: "max", Value: valueText(s.Max, c)})
	switch c {
	case query.ClassNumber, query.ClassFloat:
		out = append(out, statFigure{Key: "mean", Label: "mean", Value: numberText(s.Mean)})
	case query.ClassBool:
		out = append(out, statFigure{Key: "mean", Label: "share true", Value: numberText(s.Mean)})
	}
	return appendUnread(out, s, u)
}

// appendUnread adds the rows not evaluated (unreadable batches and
// tensors), with the first error, when there are any.
func appendUnread(out []statFigure, s query.Summary, u scan.Unread) []statFigure {
	n := s.Unevaluated + u.Rows
	if n == 0 {
		return out
	}
	first := u.FirstError
	if first == "" {
		first = s.FirstError
	}
	return append(out, statFigure{Key: "unevaluated", Label: "not evaluated", Value: session.GroupDigits(n), Title: first})
}

// valueText is a min or max as shown: integers with thousands
// separators, other values as the query writes them, "—" for none.
func valueText(v string, c query.ValueClass) string {
	if v == "" {
		return "—"
	}
	if c == query.ClassNumber || c == query.ClassFloat {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return session.GroupDigits(n)
		}
	}
	return v
}

// numberText is a computed number (a mean, a bin's edge) to 6 significant
// digits, its integer part with thousands separators, without trailing
// zeros; very large or small ones in exponent form; "—" for NaN.
func numberText(f float64) string {
	switch {
	case math.IsNaN(f):
		return "—"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "−Inf"
	case f == 0:
		return "0"
	}
	a := math.Abs(f)
	if a >= 1e15 || a < 1e-4 {
		return strconv.FormatFloat(f, 'g', 6, 64)
	}
	decimals := max(0, 5-int(math.Floor(math.Log10(a))))
	s := strconv.FormatFloat(f, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	n, _ := strconv.ParseInt(whole, 10, 64)
	out := session.GroupDigits(n)
	if frac != "" {
		out += "." + frac
	}
	if neg && out != "0" {
		out = "-" + out
	}
	return out
}

// histBar is a bar of the histogram: its bin [Lo, Hi) (the last bin
// includes Hi) and count.
type histBar struct {
	Lo, Hi float64
	Count  int64
	Title  string // "0.25 – 0.3: 1,204 rows"
}

// histBars are s's histogram's bars, their counts of unit ("row" or
// "value", made plural when not 1).
func histBars(s query.Summary, unit string) []histBar {
	n := len(s.Hist)
	out := make([]histBar, n)
	w := (s.HistMax - s.HistMin) / float64(n)
	for i, c := range s.Hist {
		lo, hi := s.HistMin+float64(i)*w, s.HistMin+float64(i+1)*w
		if i == n-1 {
			hi = s.HistMax
		}
		rows := unit
		if c != 1 {
			rows += "s"
		}
		out[i] = histBar{Lo: lo, Hi: hi, Count: c, Title: numberText(lo) + " – " + numberText(hi) + ": " + session.GroupDigits(c) + " " + rows}
	}
	return out
}

// quickState is what the quick filter of x shows for the filter applied:
// the values its in (…) or = term keeps, checked; the bounds of its between,
// >= or <= term; nothing for another term (not in, !=, <, >) or none.
func quickState(filter string, x query.Operand) (checked map[string]bool, lo, hi string) {
	checked = map[string]bool{}
	text := func(l query.Literal) string {
		if l.Kind == query.LitBool {
			return strconv.FormatBool(l.Bool)
		}
		return l.Text
	}
	switch t := query.TermOf(filter, x).(type) {
	case *query.In:
		if !t.Not {
			for _, v := range t.Values {
				checked[text(v)] = true
			}
		}
	case *query.Between:
		if !t.Not {
			lo, hi = text(t.Lo), text(t.Hi)
		}
	case *query.Compare:
		switch t.Op {
		case query.OpEq:
			checked[text(t.Value)] = true
		case query.OpGe:
			lo = text(t.Value)
		case query.OpLe:
			hi = text(t.Value)
		}
	}
	return checked, lo, hi
}

// elementFigures are the figures of a tensor column's element statistics
// (s.Elements, of a scan with query.StatsOptions.Elements): rows, null
// rows, elements, their nulls, NaN and infinities, the finite ones'
// range, mean and standard deviation, and what could not be read.
func elementFigures(s query.Summary, u scan.Unread) []statFigure {
	c := s.Elements
	out := []statFigure{
		{Key: "count", Label: "rows", Value: session.GroupDigits(int64(c.Rows))},
		{Key: "nulls", Label: "null rows", Value: session.GroupDigits(int64(c.NullRows))},
		{Key: "values", Label: "values", Value: session.GroupDigits(int64(c.Count))},
		{Key: "value-nulls", Label: "null values", Value: session.GroupDigits(int64(c.Nulls))},
		{Key: "nan", Label: "NaN", Value: session.GroupDigits(int64(c.NaN))},
	}
	if c.PosInf+c.NegInf > 0 {
		out = append(out, statFigure{Key: "inf", Label: "+Inf / −Inf", Value: session.GroupDigits(int64(c.PosInf)) + " / " + session.GroupDigits(int64(c.NegInf))})
	}
	out = append(out,
		statFigure{Key: "min", Label: "min", Value: numberText(c.Min)},
		statFigure{Key: "max", Label: "max", Value: numberText(c.Max)},
		statFigure{Key: "mean", Label: "mean", Value: numberText(c.Mean)},
		statFigure{Key: "std", Label: "std", Value: numberText(c.Std), Title: "population standard deviation (numpy.std, ddof=0)"})
	return appendUnread(out, s, u)
}

// elementHistogram is the element histogram of s as a Summary's
// histogram (histBars), exact.
func elementHistogram(s query.Summary) query.Summary {
	c := s.Elements
	h := query.Summary{HistMin: c.HistMin, HistMax: c.HistMax, HistExact: true, Hist: make([]int64, len(c.Hist))}
	for i, n := range c.Hist {
		h.Hist[i] = int64(n)
	}
	return h
}
