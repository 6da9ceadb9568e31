package query

import (
	"strconv"
	"strings"
)

// Span is where a word of the query text lies: its byte offset and length.
type Span struct{ Off, Len int }

// Error is a parse or bind error: Msg says what was wrong or expected, At
// is the offending word (its length 0 at the end of the query).
type Error struct {
	At  Span
	Msg string
}

func (e *Error) Error() string { return e.Msg + " at " + strconv.Itoa(e.At.Off) }

func errAt(at Span, format string, args ...any) *Error {
	return &Error{At: at, Msg: sprintf(format, args...)}
}

// Expr is a node of a parsed filter: *And, *Or, *Not, *Compare, *Between,
// *In, *IsNull, *Match or *Search. String prints the canonical form, which
// parses back to the same tree.
type Expr interface {
	String() string
	write(b *strings.Builder)
}

// And holds two or more terms that must all hold; Or, two or more of which
// one must hold. The parser flattens nested terms of the same kind.
type (
	And struct{ Terms []Expr }
	Or  struct{ Terms []Expr }
)

// Not negates X (three-valued: a row whose value is unknown, null, stays
// unknown and does not match).
type Not struct {
	X  Expr
	At Span // the word "not"
}

// CompOp is a comparison operator.
type CompOp uint8

const (
	OpEq CompOp = iota // =
	OpNe               // != (also written <>)
	OpLt               // <
	OpLe               // <=
	OpGt               // >
	OpGe               // >=
)

var opText = [...]string{OpEq: "=", OpNe: "!=", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">="}

func (o CompOp) String() string { return opText[o] }

// Compare is X Op Value.
type Compare struct {
	X     Operand
	Op    CompOp
	OpAt  Span
	Value Literal
}

// Between is X [not] between Lo and Hi, bounds included.
type Between struct {
	X      Operand
	Not    bool
	Lo, Hi Literal
}

// In is X [not] in (Values...).
type In struct {
	X      Operand
	Not    bool
	Values []Literal
}

// IsNull is X is [not] null.
type IsNull struct {
	X   Operand
	Not bool
}

// MatchKind is the kind of a text match.
type MatchKind uint8

const (
	Contains   MatchKind = iota // contains 'x'
	StartsWith                  // starts with 'x'
)

// Match is X [not] contains 'text' or X [not] starts with 'text',
// case-insensitive.
type Match struct {
	X       Operand
	Not     bool
	Kind    MatchKind
	Pattern Literal
}

// Search is search('text'): a case-insensitive substring of any string
// column.
type Search struct {
	Text Literal
	At   Span // the word "search"
}

// Operand is what a predicate tests: a column, or a function of a tensor
// column (Func one of Funcs).
type Operand struct {
	Func     string // "" for the column itself; lower case
	Column   string
	ColumnAt Span
	At       Span // the whole operand
	// Dim is dim()'s second argument: a dimension name (string) or index
	// (number).
	Dim *Literal
}

// Funcs are the tensor statistic functions, in the order the docs list
// them.
var Funcs = []string{"min", "max", "mean", "std", "nan", "size", "dim", "shape", "width", "height"}

func isFunc(name string) bool {
	for _, f := range Funcs {
		if f == name {
			return true
		}
	}
	return false
}

// LitKind is the kind of a literal value.
type LitKind uint8

const (
	LitNumber LitKind = iota
	LitString
	LitBool
	LitList
)

// Literal is a value written in the query.
type Literal struct {
	Kind LitKind
	// Text is a number's text (with its sign) or a string's value.
	Text string
	Bool bool
	List []int64
	At   Span
}

func (l Literal) String() string { return str(l) }

func (l Literal) write(b *strings.Builder) {
	switch l.Kind {
	case LitNumber:
		b.WriteString(l.Text)
	case LitString:
		writeQuoted(b, l.Text, '\'')
	case LitBool:
		b.WriteString(strconv.FormatBool(l.Bool))
	case LitList:
		b.WriteByte('[')
		for i, v := range l.List {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.FormatInt(v, 10))
		}
		b.WriteByte(']')
	}
}

func writeQuoted(b *strings.Builder, s string, q byte) {
	b.WriteByte(q)
	for i := 0; i < len(s); i++ {
		if s[i] == q {
			b.WriteByte(q)
		}
		b.WriteByte(s[i])
	}
	b.WriteByte(q)
}

// keywords must be quoted when they name a column.
var keywords = []string{"and", "or", "not", "between", "in", "is", "null", "contains", "starts", "with", "true", "false"}

func isKeyword(s string) bool {
	for _, k := range keywords {
		if strings.EqualFold(k, s) {
			return true
		}
	}
	return false
}

// ColumnName returns name as the query writes it: bare when it is a plain
// identifier and no keyword, else in double quotes.
func ColumnName(name string) string {
	var b strings.Builder
	writeColumn(&b, name)
	return b.String()
}

func writeColumn(b *strings.Builder, name string) {
	if isIdent(name) && !isKeyword(name) {
		b.WriteString(name)
		return
	}
	writeQuoted(b, name, '"')
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !identRune(r, i == 0) {
			return false
		}
	}
	return true
}

func (o Operand) String() string { return str(o) }

func (o Operand) write(b *strings.Builder) {
	if o.Func == "" {
		writeColumn(b, o.Column)
		return
	}
	b.WriteString(o.Func)
	b.WriteByte('(')
	writeColumn(b, o.Column)
	if o.Dim != nil {
		b.WriteString(", ")
		o.Dim.write(b)
	}
	b.WriteByte(')')
}

// str returns what a node writes.
func str(w interface{ write(*strings.Builder) }) string {
	var b strings.Builder
	w.write(&b)
	return b.String()
}

func (e *And) String() string     { return str(e) }
func (e *Or) String() string      { return str(e) }
func (e *Not) String() string     { return str(e) }
func (e *Compare) String() string { return str(e) }
func (e *Between) String() string { return str(e) }
func (e *In) String() string      { return str(e) }
func (e *IsNull) String() string  { return str(e) }
func (e *Match) String() string   { return str(e) }
func (e *Search) String() string  { return str(e) }

func (e *And) write(b *strings.Builder) { writeTerms(b, e.Terms, " and ", true) }
func (e *Or) write(b *strings.Builder)  { writeTerms(b, e.Terms, " or ", false) }

// writeTerms joins terms, in parentheses those that bind less tightly: an
// or inside an and (an and inside an or needs none).
func writeTerms(b *strings.Builder, terms []Expr, sep string, and bool) {
	for i, t := range terms {
		if i > 0 {
			b.WriteString(sep)
		}
		_, or := t.(*Or)
		if and && or {
			b.WriteByte('(')
			t.write(b)
			b.WriteByte(')')
			continue
		}
		t.write(b)
	}
}

func (e *Not) write(b *strings.Builder) {
	b.WriteString("not ")
	switch e.X.(type) {
	case *Search, *Not:
		e.X.write(b)
	default:
		b.WriteByte('(')
		e.X.write(b)
		b.WriteByte(')')
	}
}

func (e *Compare) write(b *strings.Builder) {
	e.X.write(b)
	b.WriteByte(' ')
	b.WriteString(e.Op.String())
	b.WriteByte(' ')
	e.Value.write(b)
}

func writeNot(b *strings.Builder, not bool) {
	if not {
		b.WriteString(" not")
	}
}

func (e *Between) write(b *strings.Builder) {
	e.X.write(b)
	writeNot(b, e.Not)
	b.WriteString(" between ")
	e.Lo.write(b)
	b.WriteString(" and ")
	e.Hi.write(b)
}

func (e *In) write(b *strings.Builder) {
	e.X.write(b)
	writeNot(b, e.Not)
	b.WriteString(" in (")
	for i, v := range e.Values {
		if i > 0 {
			b.WriteString(", ")
		}
		v.write(b)
	}
	b.WriteByte(')')
}

func (e *IsNull) write(b *strings.Builder) {
	e.X.write(b)
	b.WriteString(" is")
	writeNot(b, e.Not)
	b.WriteString(" null")
}

func (e *Match) write(b *strings.Builder) {
	e.X.write(b)
	writeNot(b, e.Not)
	if e.Kind == Contains {
		b.WriteString(" contains ")
	} else {
		b.WriteString(" starts with ")
	}
	e.Pattern.write(b)
}

func (e *Search) write(b *strings.Builder) {
	b.WriteString("search(")
	e.Text.write(b)
	b.WriteByte(')')
}

// clone copies e deeply enough for Bind to rewrite its column and
// dimension names.
func clone(e Expr) Expr {
	cloneOp := func(o Operand) Operand {
		if o.Dim != nil {
			d := *o.Dim
			o.Dim = &d
		}
		return o
	}
	terms := func(ts []Expr) []Expr {
		out := make([]Expr, len(ts))
		for i, t := range ts {
			out[i] = clone(t)
		}
		return out
	}
	switch e := e.(type) {
	case *And:
		return &And{Terms: terms(e.Terms)}
	case *Or:
		return &Or{Terms: terms(e.Terms)}
	case *Not:
		return &Not{X: clone(e.X), At: e.At}
	case *Compare:
		c := *e
		c.X = cloneOp(c.X)
		return &c
	case *Between:
		c := *e
		c.X = cloneOp(c.X)
		return &c
	case *In:
		c := *e
		c.X = cloneOp(c.X)
		c.Values = append([]Literal(nil), e.Values...)
		return &c
	case *IsNull:
		c := *e
		c.X = cloneOp(c.X)
		return &c
	case *Match:
		c := *e
		c.X = cloneOp(c.X)
		return &c
	case *Search:
		c := *e
		return &c
	}
	return e
}
