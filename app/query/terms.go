package query

import "strings"

// Building queries in code: the quick filters of a column's statistics
// (app/ui) write a term such as label in ('cat', 'dog') or score between
// 0.1 and 0.9 and merge it into the query applied. Literals are written
// as the parser reads them: strings in single quotes, a quote in them
// written twice; columns through ColumnName.

// StringLiteral is s as a query's string literal: in single quotes, each
// single quote in s written twice.
func StringLiteral(s string) string {
	var b strings.Builder
	writeQuoted(&b, s, '\'')
	return b.String()
}

// ParseValue reads one literal, as written after a comparison: a number
// (with its sign), a string in single quotes, true, false or a list. The
// error is an *Error.
func ParseValue(s string) (Literal, error) {
	toks, err := lex(s)
	if err != nil {
		return Literal{}, err
	}
	p := &parser{toks: toks}
	v, err := p.value()
	if err != nil {
		return Literal{}, err
	}
	if t := p.peek(); t.kind != tEOF {
		return Literal{}, p.expected("the end of the value")
	}
	return v, nil
}

// ValueClass is what kind of values a column or tensor function has, as
// its statistics and quick filters treat them.
type ValueClass uint8

const (
	ClassOther  ValueClass = iota // no values to compare (count and nulls only)
	ClassNumber                   // integers and decimals: a mean, a histogram, a range
	ClassFloat                    // floats and tensor functions: numbers that may be NaN
	ClassText                     // strings (dictionaries of them too): top values
	ClassBool                     // booleans: top values, and a mean (the share of true)
	ClassTime                     // dates, times, timestamps: top values, in quotes
)

// ClassOf is the class of x's values (x's column must be in cols; a tensor
// column without a function is ClassOther).
func ClassOf(x Operand, cols []Column) ValueClass {
	if x.Func != "" {
		return ClassFloat
	}
	for _, c := range cols {
		if c.Name != x.Column {
			continue
		}
		if c.Tensor || c.Image {
			return ClassOther
		}
		switch domainOf(c.Type) {
		case dInt, dUint, dDecimal:
			return ClassNumber
		case dFloat:
			return ClassFloat
		case dString:
			return ClassText
		case dBool:
			return ClassBool
		case dDate, dTime, dTimestamp:
			return ClassTime
		}
		break
	}
	return ClassOther
}

// ValueLiteral is the literal for a value of x (a column of cols, or a
// tensor function of one) as Summary writes its values (Min, Max, Top):
// strings, dates and times in single quotes, booleans as true or false,
// numbers as they are.
func ValueLiteral(x Operand, cols []Column, text string) Literal {
	switch ClassOf(x, cols) {
	case ClassNumber, ClassFloat:
		return Literal{Kind: LitNumber, Text: numberText("", text)}
	case ClassBool:
		return Literal{Kind: LitBool, Bool: text == "true"}
	}
	return Literal{Kind: LitString, Text: text}
}

// WithTerm returns the query q with term AND-ed to it, in place of the
// terms of q's top-level conjunction that test the same operand as term's
// with a comparison, between or in (a quick filter replaces the one before
// it; is null, contains and starts with stay). A nil term only removes
// those. q blank is no query; the result is canonical (Expr.String), ""
// when nothing is left. term must be a *Compare, *Between or *In.
func WithTerm(q string, x Operand, term Expr) (string, error) {
	var terms []Expr
	if strings.TrimSpace(q) != "" {
		e, err := Parse(q)
		if err != nil {
			return "", err
		}
		terms = []Expr{e}
		if a, ok := e.(*And); ok {
			terms = a.Terms
		}
	}
	key := x.String()
	var out []Expr
	for _, t := range terms {
		if o, ok := rangeOperand(t); ok && strings.EqualFold(o.String(), key) {
			continue
		}
		out = append(out, t)
	}
	if term != nil {
		out = append(out, term)
	}
	switch len(out) {
	case 0:
		return "", nil
	case 1:
		return out[0].String(), nil
	}
	return (&And{Terms: out}).String(), nil
}

// TermOf returns the term of q's top-level conjunction that tests x with a
// comparison, between or in, as a quick filter writes it (WithTerm), or nil
// when there is none, or q does not parse. With several, the last.
func TermOf(q string, x Operand) Expr {
	if strings.TrimSpace(q) == "" {
		return nil
	}
	e, err := Parse(q)
	if err != nil {
		return nil
	}
	terms := []Expr{e}
	if a, ok := e.(*And); ok {
		terms = a.Terms
	}
	var out Expr
	for _, t := range terms {
		if o, ok := rangeOperand(t); ok && strings.EqualFold(o.String(), x.String()) {
			out = t
		}
	}
	return out
}

// rangeOperand is the operand of a comparison, between or in.
func rangeOperand(e Expr) (Operand, bool) {
	switch e := e.(type) {
	case *Compare:
		return e.X, true
	case *Between:
		return e.X, true
	case *In:
		return e.X, true
	}
	return Operand{}, false
}
