package session

import (
	"strconv"
	"strings"

	"github.com/tensorview/tensorview/app/query"
)

// QuickAsk is a quick filter chosen in the statistics panel: the values
// checked (Values; none: the column's term is removed), or a range (Range:
// Lo and Hi as typed, either blank for no bound; both: the term removed).
type QuickAsk struct {
	X      query.Operand
	Range  bool
	Values []string
	Lo, Hi string
}

// quickTerm is the term a quick filter writes: x in (values…), x between
// lo and hi, x >= lo or x <= hi; nil when it asks for none. A bound that is
// not a number is an error (as a query's, at its word in "lo" or "hi").
func quickTerm(a QuickAsk, cols []query.Column) (query.Expr, error) {
	if !a.Range {
		if len(a.Values) == 0 {
			return nil, nil
		}
		in := &query.In{X: a.X}
		for _, v := range a.Values {
			in.Values = append(in.Values, query.ValueLiteral(a.X, cols, v))
		}
		return in, nil
	}
	bound := func(s string) (*query.Literal, error) {
		if strings.TrimSpace(s) == "" {
			return nil, nil
		}
		v, err := query.ParseValue(s)
		if err == nil && v.Kind != query.LitNumber {
			err = &query.Error{Msg: "expected a number, found " + strconv.Quote(strings.TrimSpace(s))}
		}
		return &v, err
	}
	lo, err := bound(a.Lo)
	if err != nil {
		return nil, err
	}
	hi, err := bound(a.Hi)
	if err != nil {
		return nil, err
	}
	switch {
	case lo != nil && hi != nil:
		return &query.Between{X: a.X, Lo: *lo, Hi: *hi}, nil
	case lo != nil:
		return &query.Compare{X: a.X, Op: query.OpGe, Value: *lo}, nil
	case hi != nil:
		return &query.Compare{X: a.X, Op: query.OpLe, Value: *hi}, nil
	}
	return nil, nil
}

// QuickQuery is the filter after a quick filter: filter (the one applied)
// with a's term in place of the one of the same operand before.
func QuickQuery(filter string, a QuickAsk, cols []query.Column) (string, error) {
	term, err := quickTerm(a, cols)
	if err != nil {
		return "", err
	}
	return query.WithTerm(filter, a.X, term)
}
