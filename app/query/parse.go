package query

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

var sprintf = fmt.Sprintf

type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // bare word (a column, function or keyword)
	tQuoted         // "column name"
	tString         // 'text'
	tNumber         // 12, 0.5, 1e-3 (no sign)
	tPunct          // = != <> < <= > >= ( ) , [ ] - +
)

type token struct {
	kind tokKind
	text string // the source text
	val  string // a string's or quoted name's value
	at   Span
}

// is reports whether t is the punctuation p or the keyword p (any case).
func (t token) is(p string) bool {
	switch t.kind {
	case tPunct:
		return t.text == p
	case tIdent:
		return strings.EqualFold(t.text, p)
	}
	return false
}

// describe names t in an error message.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "the end of the query"
	case tString:
		return "the string " + t.text
	case tNumber:
		return "the number " + t.text
	case tPunct:
		return "'" + t.text + "'"
	}
	return strconv.Quote(t.text)
}

func identRune(r rune, first bool) bool {
	return r == '_' || unicode.IsLetter(r) || (!first && unicode.IsDigit(r))
}

func lex(src string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		tok, err := lexToken(src, i)
		if err != nil {
			return nil, err
		}
		toks = append(toks, tok)
		i = tok.at.Off + tok.at.Len
	}
	return append(toks, token{kind: tEOF, at: Span{len(src), 0}}), nil
}

// lexToken reads the token starting at src[i], which is not a space.
func lexToken(src string, i int) (token, error) {
	c := src[i]
	switch {
	case c == '\'' || c == '"':
		return lexQuotedToken(src, i)
	case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
		end, err := lexNumber(src, i)
		if err != nil {
			return token{}, err
		}
		return token{kind: tNumber, text: src[i:end], at: Span{i, end - i}}, nil
	case strings.IndexByte("=<>!(),[]-+", c) >= 0:
		n := 1
		if i+1 < len(src) {
			if two := src[i : i+2]; two == "!=" || two == "<=" || two == ">=" || two == "<>" {
				n = 2
			}
		}
		if c == '!' && n == 1 {
			return token{}, errAt(Span{i, 1}, "unexpected '!': did you mean '!='?")
		}
		return token{kind: tPunct, text: src[i : i+n], at: Span{i, n}}, nil
	}
	r, size := utf8.DecodeRuneInString(src[i:])
	if !identRune(r, true) {
		return token{}, errAt(Span{i, size}, "unexpected character %q", r)
	}
	end := i + size
	for end < len(src) {
		r, size := utf8.DecodeRuneInString(src[end:])
		if !identRune(r, false) {
			break
		}
		end += size
	}
	return token{kind: tIdent, text: src[i:end], at: Span{i, end - i}}, nil
}

// lexQuotedToken reads the string ('...') or quoted column name ("...")
// starting at src[start].
func lexQuotedToken(src string, start int) (token, error) {
	c := src[start]
	val, end, ok := lexQuoted(src, start)
	if !ok {
		what := "string"
		if c == '"' {
			what = "column name"
		}
		return token{}, errAt(Span{start, len(src) - start}, "unterminated %s: the closing %c is missing", what, c)
	}
	kind := tString
	if c == '"' {
		kind = tQuoted
		if val == "" {
			return token{}, errAt(Span{start, end - start}, "empty column name")
		}
	}
	return token{kind: kind, text: src[start:end], val: val, at: Span{start, end - start}}, nil
}

// lexQuoted reads the quoted text starting at src[i] (the quote), a doubled
// quote standing for one.
func lexQuoted(src string, i int) (val string, end int, ok bool) {
	q := src[i]
	var b strings.Builder
	for j := i + 1; j < len(src); j++ {
		if src[j] != q {
			b.WriteByte(src[j])
			continue
		}
		if j+1 < len(src) && src[j+1] == q {
			b.WriteByte(q)
			j++
			continue
		}
		return b.String(), j + 1, true
	}
	return "", 0, false
}

// lexNumber reads digits [. digits] [e [+-] digits], or . digits [...].
func lexNumber(src string, i int) (int, error) {
	start := i
	digits := func() int {
		n := 0
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
			n++
		}
		return n
	}
	digits()
	if i < len(src) && src[i] == '.' {
		i++
		digits()
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, errAt(Span{start, i - start}, "expected the digits of the exponent of %s", src[start:i])
		}
	}
	if i < len(src) {
		if r, _ := utf8.DecodeRuneInString(src[i:]); identRune(r, false) || r == '.' {
			end := i
			for end < len(src) && src[end] != ' ' && strings.IndexByte("=<>!(),[]'\"", src[end]) < 0 {
				end++
			}
			return 0, errAt(Span{start, end - start}, "malformed number %s", src[start:end])
		}
	}
	return i, nil
}

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// expected reports that what was expected after the word before the
// current one.
func (p *parser) expected(what string) *Error {
	t := p.peek()
	after := ""
	if p.i > 0 {
		prev := p.toks[p.i-1]
		if prev.kind == tPunct || prev.kind == tIdent && isKeyword(prev.text) {
			after = " after '" + prev.text + "'"
		} else {
			after = " after " + prev.describe()
		}
	}
	if t.kind == tEOF {
		return errAt(t.at, "expected %s%s", what, after)
	}
	return errAt(t.at, "expected %s%s, found %s", what, after, t.describe())
}

// Parse parses a filter query. The error is an *Error.
func Parse(q string) (Expr, error) {
	toks, err := lex(q)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	if p.peek().kind == tEOF {
		return nil, errAt(p.peek().at, "empty query")
	}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		if t.is(")") {
			return nil, errAt(t.at, "unmatched ')'")
		}
		return nil, p.expected("'and', 'or' or the end of the query")
	}
	return e, nil
}

func (p *parser) or() (Expr, error)  { return p.terms(true) }
func (p *parser) and() (Expr, error) { return p.terms(false) }

// terms reads and-terms joined by or (or), or not-terms joined by and:
// one term as it is, more in an *Or or *And, whose terms of the same kind
// (parenthesised) are flattened into it.
func (p *parser) terms(or bool) (Expr, error) {
	kw, sub := "and", p.not
	if or {
		kw, sub = "or", p.and
	}
	var terms []Expr
	for {
		e, err := sub()
		if err != nil {
			return nil, err
		}
		switch x := e.(type) {
		case *Or:
			if or {
				terms = append(terms, x.Terms...)
				break
			}
			terms = append(terms, e)
		case *And:
			if !or {
				terms = append(terms, x.Terms...)
				break
			}
			terms = append(terms, e)
		default:
			terms = append(terms, e)
		}
		if !p.peek().is(kw) {
			break
		}
		p.next()
	}
	switch {
	case len(terms) == 1:
		return terms[0], nil
	case or:
		return &Or{Terms: terms}, nil
	}
	return &And{Terms: terms}, nil
}

func (p *parser) not() (Expr, error) {
	if t := p.peek(); t.is("not") {
		p.next()
		x, err := p.not()
		if err != nil {
			return nil, err
		}
		return &Not{X: x, At: t.at}, nil
	}
	return p.primary()
}

func (p *parser) primary() (Expr, error) {
	t := p.peek()
	if t.is("(") {
		p.next()
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		if !p.peek().is(")") {
			return nil, p.expected("')'")
		}
		p.next()
		return e, nil
	}
	if t.kind == tIdent && strings.EqualFold(t.text, "search") && p.toks[p.i+1].is("(") {
		p.next()
		p.next()
		if p.peek().kind != tString {
			return nil, p.expected("a string in single quotes")
		}
		s := p.next()
		if !p.peek().is(")") {
			return nil, p.expected("')'")
		}
		p.next()
		return &Search{Text: Literal{Kind: LitString, Text: s.val, At: s.at}, At: t.at}, nil
	}
	return p.predicate()
}

var compOps = map[string]CompOp{"=": OpEq, "!=": OpNe, "<>": OpNe, "<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe}

func (p *parser) predicate() (Expr, error) {
	x, err := p.operand()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if op, ok := compOps[t.text]; ok && t.kind == tPunct {
		p.next()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		return &Compare{X: x, Op: op, OpAt: t.at, Value: v}, nil
	}
	if t.is("is") {
		p.next()
		return p.isNull(x)
	}
	not := t.is("not")
	if not {
		p.next()
		t = p.peek()
	}
	switch {
	case t.is("between"):
		p.next()
		return p.between(x, not)
	case t.is("in"):
		p.next()
		return p.in(x, not)
	case t.is("contains"), t.is("starts"):
		p.next()
		return p.match(x, not, t.is("starts"))
	}
	if not {
		return nil, p.expected("'between', 'in', 'contains' or 'starts with'")
	}
	return nil, p.expected("a comparison (=, !=, <, <=, >, >=, between, in, is null, contains, starts with)")
}

// isNull reads the rest of "x is [not] null", after "is".
func (p *parser) isNull(x Operand) (Expr, error) {
	not := p.peek().is("not")
	if not {
		p.next()
	}
	if !p.peek().is("null") {
		if not {
			return nil, p.expected("'null'")
		}
		return nil, p.expected("'null' or 'not null'")
	}
	p.next()
	return &IsNull{X: x, Not: not}, nil
}

// between reads the rest of "x [not] between lo and hi", after "between".
func (p *parser) between(x Operand, not bool) (Expr, error) {
	lo, err := p.value()
	if err != nil {
		return nil, err
	}
	if !p.peek().is("and") {
		return nil, p.expected("'and' and the upper bound")
	}
	p.next()
	hi, err := p.value()
	if err != nil {
		return nil, err
	}
	return &Between{X: x, Not: not, Lo: lo, Hi: hi}, nil
}

// in reads the rest of "x [not] in (v, ...)", after "in".
func (p *parser) in(x Operand, not bool) (Expr, error) {
	if !p.peek().is("(") {
		return nil, p.expected("'(' and a list of values")
	}
	p.next()
	var vals []Literal
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
		if p.peek().is(")") {
			p.next()
			return &In{X: x, Not: not, Values: vals}, nil
		}
		if !p.peek().is(",") {
			return nil, p.expected("',' or ')'")
		}
		p.next()
	}
}

// match reads the rest of "x [not] contains 'p'" after "contains", or of
// "x [not] starts with 'p'" after "starts" (startsWith).
func (p *parser) match(x Operand, not, startsWith bool) (Expr, error) {
	kind := Contains
	if startsWith {
		kind = StartsWith
		if !p.peek().is("with") {
			return nil, p.expected("'with'")
		}
		p.next()
	}
	if p.peek().kind != tString {
		return nil, p.expected("a string in single quotes")
	}
	s := p.next()
	return &Match{X: x, Not: not, Kind: kind, Pattern: Literal{Kind: LitString, Text: s.val, At: s.at}}, nil
}

// column reads a column name, bare or quoted.
func (p *parser) column() (string, Span, error) {
	t := p.peek()
	switch {
	case t.kind == tQuoted:
		p.next()
		return t.val, t.at, nil
	case t.kind == tIdent && isKeyword(t.text):
		return "", t.at, errAt(t.at, "expected a column name, found the keyword %q (a column of that name is written in double quotes)", t.text)
	case t.kind == tIdent:
		p.next()
		return t.text, t.at, nil
	}
	return "", t.at, p.expected("a column name")
}

func (p *parser) operand() (Operand, error) {
	t := p.peek()
	if t.kind == tIdent && p.toks[p.i+1].is("(") {
		name := strings.ToLower(t.text)
		if !isFunc(name) {
			return Operand{}, errAt(t.at, "unknown function %q (functions: %s)", t.text, strings.Join(Funcs, ", "))
		}
		p.next()
		p.next()
		col, colAt, err := p.column()
		if err != nil {
			return Operand{}, err
		}
		o := Operand{Func: name, Column: col, ColumnAt: colAt}
		if name == "dim" {
			if !p.peek().is(",") {
				return Operand{}, p.expected("',' and a dimension name or number")
			}
			p.next()
			d := p.peek()
			switch {
			case d.kind == tString:
				p.next()
				o.Dim = &Literal{Kind: LitString, Text: d.val, At: d.at}
			case d.kind == tNumber && isDigits(d.text):
				p.next()
				o.Dim = &Literal{Kind: LitNumber, Text: d.text, At: d.at}
			default:
				return Operand{}, p.expected("a dimension name in single quotes or a dimension number")
			}
		}
		if !p.peek().is(")") {
			return Operand{}, p.expected("')'")
		}
		end := p.next().at
		o.At = Span{t.at.Off, end.Off + end.Len - t.at.Off}
		return o, nil
	}
	if t.kind != tIdent && t.kind != tQuoted {
		return Operand{}, p.expected("a column name or function")
	}
	col, at, err := p.column()
	if err != nil {
		return Operand{}, err
	}
	return Operand{Column: col, ColumnAt: at, At: at}, nil
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// value reads a literal: a number, string, true, false or list.
func (p *parser) value() (Literal, error) {
	t := p.peek()
	switch {
	case t.kind == tString:
		p.next()
		return Literal{Kind: LitString, Text: t.val, At: t.at}, nil
	case t.kind == tNumber:
		p.next()
		return Literal{Kind: LitNumber, Text: numberText("", t.text), At: t.at}, nil
	case t.is("-"):
		p.next()
		n := p.peek()
		if n.kind != tNumber {
			return Literal{}, p.expected("a number")
		}
		p.next()
		return Literal{Kind: LitNumber, Text: numberText("-", n.text), At: Span{t.at.Off, n.at.Off + n.at.Len - t.at.Off}}, nil
	case t.is("true"), t.is("false"):
		p.next()
		return Literal{Kind: LitBool, Bool: t.is("true"), At: t.at}, nil
	case t.is("null"):
		return Literal{}, errAt(t.at, "null is no value: write 'is null' or 'is not null'")
	case t.is("["):
		p.next()
		l := Literal{Kind: LitList, List: []int64{}}
		for !p.peek().is("]") {
			if len(l.List) > 0 {
				if !p.peek().is(",") {
					return Literal{}, p.expected("',' or ']'")
				}
				p.next()
			}
			sign := ""
			if p.peek().is("-") {
				p.next()
				sign = "-"
			}
			n := p.peek()
			v, err := strconv.ParseInt(sign+n.text, 10, 64)
			if n.kind != tNumber || err != nil {
				return Literal{}, p.expected("an integer")
			}
			p.next()
			l.List = append(l.List, v)
		}
		end := p.next().at
		l.At = Span{t.at.Off, end.Off + end.Len - t.at.Off}
		return l, nil
	}
	return Literal{}, p.expected("a value")
}

// numberText is the canonical text of a number: its sign, and the
// exponent's e in lower case.
func numberText(sign, text string) string {
	return sign + strings.ReplaceAll(text, "E", "e")
}

// SortKey is a sort order: a column or tensor statistic, ascending or
// descending. Its String is the form links carry: "score", "-mean(emb)".
type SortKey struct {
	X    Operand
	Desc bool
}

func (k SortKey) String() string {
	if k.Desc {
		return "-" + k.X.String()
	}
	return k.X.String()
}

// ParseSort parses a sort key: an optional sign ('-' descending, '+'
// ascending) and a column or function, "-mean(emb)".
func ParseSort(s string) (SortKey, error) {
	toks, err := lex(s)
	if err != nil {
		return SortKey{}, err
	}
	p := &parser{toks: toks}
	var k SortKey
	if t := p.peek(); t.is("-") || t.is("+") {
		k.Desc = t.is("-")
		p.next()
	}
	if k.X, err = p.operand(); err != nil {
		return SortKey{}, err
	}
	if p.peek().kind != tEOF {
		return SortKey{}, p.expected("the end of the sort key")
	}
	return k, nil
}
