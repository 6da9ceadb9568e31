package query

import (
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"

	"github.com/tensorview/tensorview/tensorext"
)

// Column describes a column a query may name: its Arrow type, and whether
// its rows are tensors (read through Tensors) or encoded images.
type Column struct {
	Name string
	Type arrow.DataType
	// Tensor: every row is a tensor, read with Tensors.Tensor; the tensor
	// functions apply to it.
	Tensor bool
	// Image: every row is an encoded picture (PNG, JPEG, …); width and
	// height apply, and the tensor functions read its decoded pixels.
	Image bool
	// DimNames are the logical dimension names (nil when unnamed) that
	// dim(x, 'name') looks up; NDim is the logical number of dimensions, 0
	// when unknown or varying.
	DimNames []string
	NDim     int
}

// ColumnsOf describes the fields of a schema: the canonical tensor
// extension types are tensor columns with their logical dim_names. A
// caller that reads other tensors (dialects) or images sets those columns'
// Tensor, Image and DimNames itself.
func ColumnsOf(s *arrow.Schema) []Column {
	cols := make([]Column, s.NumFields())
	for i, f := range s.Fields() {
		c := Column{Name: f.Name, Type: f.Type}
		switch t := f.Type.(type) {
		case *tensorext.FixedShapeTensorType:
			c.Tensor, c.DimNames, c.NDim = true, t.LogicalDimNames(), t.NDim()
		case *tensorext.VariableShapeTensorType:
			c.Tensor, c.DimNames, c.NDim = true, t.LogicalDimNames(), t.NDim()
		}
		cols[i] = c
	}
	return cols
}

// resolve finds the column a query names: exactly, else the one column
// whose name differs only in case.
func resolve(cols []Column, name string, at Span) (int, error) {
	for i, c := range cols {
		if c.Name == name {
			return i, nil
		}
	}
	found := -1
	for i, c := range cols {
		if strings.EqualFold(c.Name, name) {
			if found >= 0 {
				return 0, errAt(at, "column %q is ambiguous: %q or %q", name, cols[found].Name, c.Name)
			}
			found = i
		}
	}
	if found >= 0 {
		return found, nil
	}
	msg := sprintf("unknown column %q", name)
	if s := suggest(cols, name); s != "" {
		msg += sprintf(" (did you mean %q?)", s)
	}
	return 0, &Error{At: at, Msg: msg}
}

// suggest returns the column name closest to name (edit distance at most
// a third of its length, at least 1), or "".
func suggest(cols []Column, name string) string {
	best, bestD := "", len(name)/3+1
	if bestD < 2 {
		bestD = 2
	}
	for _, c := range cols {
		if d := editDistance(strings.ToLower(c.Name), strings.ToLower(name)); d < bestD {
			best, bestD = c.Name, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b in runes, with
// a swap of two neighbours counting as one edit.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// fnKind is a tensor function.
type fnKind uint8

const (
	fMin fnKind = iota
	fMax
	fMean
	fStd
	fNaN
	fSize
	fDim
	fShape
	fWidth
	fHeight
)

var fnKinds = map[string]fnKind{"min": fMin, "max": fMax, "mean": fMean, "std": fStd, "nan": fNaN, "size": fSize, "dim": fDim, "shape": fShape, "width": fWidth, "height": fHeight}

// operand is a bound Operand: a column (fn nil) or a tensor function.
type operand struct {
	col  int // index into the columns bound against
	name string
	fn   *tensorFn
}

// tensorFn is a bound tensor function.
type tensorFn struct {
	kind fnKind
	dim  int // fDim: the logical dimension
}

// typeName names a column's type in messages.
func typeName(c Column) string {
	switch {
	case c.Image:
		return "an image column"
	case c.Tensor:
		return "a tensor column"
	}
	return c.Type.String()
}

func bindOperand(o *Operand, cols []Column) (operand, error) {
	i, err := resolve(cols, o.Column, o.ColumnAt)
	if err != nil {
		return operand{}, err
	}
	c := cols[i]
	o.Column = c.Name
	op := operand{col: i, name: c.Name}
	if o.Func == "" {
		return op, nil
	}
	if !c.Tensor && !c.Image {
		return operand{}, errAt(o.At, "%s() needs a tensor or image column; %s is %s", o.Func, ColumnName(c.Name), typeName(c))
	}
	op.fn = &tensorFn{kind: fnKinds[o.Func]}
	if op.fn.kind == fDim {
		d := o.Dim
		if d.Kind == LitNumber {
			n, err := strconv.Atoi(d.Text)
			if err != nil || c.NDim > 0 && n >= c.NDim {
				return operand{}, errAt(d.At, "%s has %d dimensions: dim() takes 0 to %d", ColumnName(c.Name), c.NDim, c.NDim-1)
			}
			op.fn.dim = n
			return op, nil
		}
		if len(c.DimNames) == 0 {
			return operand{}, errAt(d.At, "%s has no dimension names: give the dimension's number, dim(%s, 0)", ColumnName(c.Name), ColumnName(c.Name))
		}
		op.fn.dim = -1
		for k, n := range c.DimNames {
			if n == d.Text {
				op.fn.dim = k
			}
		}
		if op.fn.dim < 0 {
			for k, n := range c.DimNames {
				if strings.EqualFold(n, d.Text) {
					op.fn.dim = k
					d.Text = n
					break
				}
			}
		}
		if op.fn.dim < 0 {
			return operand{}, errAt(d.At, "%s has no dimension %s (its dimensions: %s)", ColumnName(c.Name), d.String(), strings.Join(c.DimNames, ", "))
		}
	}
	return op, nil
}

// Filter is a query bound to columns: it evaluates record batches (Batch,
// Eval). It holds no per-batch state and may be shared.
type Filter struct {
	expr  Expr
	root  node
	cols  []Column
	needs []string
}

// node is a bound filter node: *andNode, *orNode, *notNode or *leaf.
type node interface{}

type (
	andNode struct{ terms []node }
	orNode  struct{ terms []node }
	notNode struct{ x node }
)

// Compile parses q and binds it to cols.
func Compile(q string, cols []Column) (*Filter, error) {
	e, err := Parse(q)
	if err != nil {
		return nil, err
	}
	return Bind(e, cols)
}

// Bind type-checks e against the columns and prepares its evaluation. e
// is not changed; Filter.String prints it with the columns' own names.
// The error is an *Error.
func Bind(e Expr, cols []Column) (*Filter, error) {
	e = clone(e)
	f := &Filter{expr: e, cols: cols}
	root, err := f.bind(e)
	if err != nil {
		return nil, err
	}
	f.root = root
	return f, nil
}

// String prints the filter's canonical form, with the columns' names as
// the schema spells them.
func (f *Filter) String() string { return f.expr.String() }

// Needs lists the columns (by name, in order of first use) a batch must
// hold for Eval.
func (f *Filter) Needs() []string { return f.needs }

func (f *Filter) need(col int) {
	name := f.cols[col].Name
	for _, n := range f.needs {
		if n == name {
			return
		}
	}
	f.needs = append(f.needs, name)
}

func (f *Filter) bindTerms(terms []Expr) ([]node, error) {
	out := make([]node, len(terms))
	for i, t := range terms {
		b, err := f.bind(t)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

func (f *Filter) bind(e Expr) (node, error) {
	switch e := e.(type) {
	case *And:
		terms, err := f.bindTerms(e.Terms)
		return &andNode{terms}, err
	case *Or:
		terms, err := f.bindTerms(e.Terms)
		return &orNode{terms}, err
	case *Not:
		x, err := f.bind(e.X)
		if err != nil {
			return nil, err
		}
		return &notNode{x: x}, nil
	case *Search:
		return f.bindSearch(e)
	case *IsNull:
		op, err := bindOperand(&e.X, f.cols)
		if err != nil {
			return nil, err
		}
		f.need(op.col)
		return &leaf{op: op, isNull: true, neg: e.Not}, nil
	case *Compare:
		return f.bindValues(&e.X, e.OpAt, e.Op, []Literal{e.Value}, func() ([]interval, bool) {
			return compareIntervals(e.Op, &e.Value)
		}, false)
	case *Between:
		return f.bindValues(&e.X, e.Lo.At, OpLt, []Literal{e.Lo, e.Hi}, func() ([]interval, bool) {
			return []interval{{end{&e.Lo, true}, end{&e.Hi, true}}}, false
		}, e.Not)
	case *In:
		return f.bindValues(&e.X, e.Values[0].At, OpEq, e.Values, func() ([]interval, bool) {
			iv := make([]interval, len(e.Values))
			for i := range e.Values {
				v := &e.Values[i]
				iv[i] = interval{end{v, true}, end{v, true}}
			}
			return iv, false
		}, e.Not)
	case *Match:
		return f.bindMatch(e)
	}
	panic("query: unknown node")
}

// bindSearch binds search(text): a match of text in any string column.
func (f *Filter) bindSearch(e *Search) (node, error) {
	n := &orNode{}
	for i, c := range f.cols {
		if !c.Tensor && !c.Image && domainOf(c.Type) == dString {
			f.need(i)
			n.terms = append(n.terms, &leaf{op: operand{col: i, name: c.Name}, test: matchTest{kind: Contains, pattern: e.Text.Text}, nullFalse: true})
		}
	}
	if len(n.terms) == 0 {
		return nil, errAt(e.At, "search() looks in string columns, and there are none")
	}
	return n, nil
}

// bindMatch binds contains and starts with, which need a string column.
func (f *Filter) bindMatch(e *Match) (node, error) {
	op, err := bindOperand(&e.X, f.cols)
	if err != nil {
		return nil, err
	}
	c := f.cols[op.col]
	if op.fn != nil || c.Tensor || c.Image || domainOf(c.Type) != dString {
		what := map[MatchKind]string{Contains: "contains", StartsWith: "starts with"}[e.Kind]
		return nil, errAt(e.X.At, "%s needs a string column; %s is %s", what, e.X.String(), operandType(op, c))
	}
	f.need(op.col)
	return &leaf{op: op, test: matchTest{kind: e.Kind, pattern: e.Pattern.Text}, neg: e.Not}, nil
}

func operandType(op operand, c Column) string {
	if op.fn != nil {
		return "a number"
	}
	return typeName(c)
}

// bindValues binds a comparison of x with literal values: ordered says
// whether the operator needs an order (not for = and in).
func (f *Filter) bindValues(x *Operand, opAt Span, op CompOp, lits []Literal, intervals func() ([]interval, bool), not bool) (node, error) {
	o, err := bindOperand(x, f.cols)
	if err != nil {
		return nil, err
	}
	c := f.cols[o.col]
	f.need(o.col)
	iv, neg := intervals()
	l := &leaf{op: o, neg: neg != not}
	ordered := op != OpEq && op != OpNe
	if o.fn != nil && o.fn.kind == fShape {
		if ordered {
			return nil, errAt(opAt, "shape() compares only with =, != and in")
		}
		var shapes [][]int64
		for _, v := range lits {
			if v.Kind != LitList {
				return nil, errAt(v.At, "expected a shape such as [3, 224, 224] to compare with %s, found %s", x.String(), litDescribe(v))
			}
			shapes = append(shapes, v.List)
		}
		l.test = shapeTest(shapes)
		return l, nil
	}
	if o.fn != nil {
		for _, v := range lits {
			if v.Kind != LitNumber {
				return nil, errAt(v.At, "expected a number to compare with %s, found %s", x.String(), litDescribe(v))
			}
		}
		l.test = ordTest[float64]{mergeOrdered(floatBounds(iv, castFloat64))}
		return l, nil
	}
	if c.Tensor || c.Image {
		return nil, errAt(x.At, "%s is %s: compare one of its statistics, such as mean(%s)", ColumnName(c.Name), typeName(c), ColumnName(c.Name))
	}
	t, err := valueTestFor(c, iv, lits, x, opAt, ordered)
	if err != nil {
		return nil, err
	}
	l.test = t
	return l, nil
}

func litDescribe(v Literal) string {
	switch v.Kind {
	case LitString:
		return "the string " + v.String()
	case LitNumber:
		return "the number " + v.Text
	case LitBool:
		return v.String()
	}
	return "the list " + v.String()
}

// valueTestFor builds the test of a column's values against intervals of
// literals, checking each literal's kind.
func valueTestFor(c Column, iv []interval, lits []Literal, x *Operand, opAt Span, ordered bool) (valueTest, error) {
	dt := valueType(c.Type)
	d := domainOf(dt)
	want := func(kind LitKind, what string) error { return wantLiterals(lits, kind, what, x, dt) }
	switch d {
	case dOther:
		return nil, errAt(x.At, "%s (%s) can only be tested with is null and is not null", x.String(), dt)
	case dBool:
		if ordered {
			return nil, errAt(opAt, "booleans compare only with =, != and in")
		}
		if err := want(LitBool, "true or false"); err != nil {
			return nil, err
		}
		var t boolTest
		for _, v := range lits {
			t[b2i(v.Bool)] = true
		}
		return t, nil
	case dString:
		if err := want(LitString, "a string in single quotes"); err != nil {
			return nil, err
		}
		return strTest{stringRanges(iv)}, nil
	case dFloat:
		if err := want(LitNumber, "a number"); err != nil {
			return nil, err
		}
		return floatTestFor(dt, iv), nil
	}
	// The integer domains: exact literals in the column's units.
	conv, err := exactConv(d, dt, lits, x)
	if err != nil {
		return nil, err
	}
	lo, hi := intRange(dt)
	r, err := intBounds(iv, conv, lo, hi)
	if err != nil {
		return nil, err
	}
	return intTestFor(dt, r), nil
}

// exactConv checks that lits are literals of the integer domain d (the
// integers, decimals, dates, times and timestamps) and returns their
// exact conversion to the units of dt.
func exactConv(d domain, dt arrow.DataType, lits []Literal, x *Operand) (func(*Literal) (num, error), error) {
	want := func(kind LitKind, what string) error { return wantLiterals(lits, kind, what, x, dt) }
	switch d {
	case dDate, dTimestamp:
		if err := want(LitString, "a date or time in single quotes"); err != nil {
			return nil, err
		}
		return instantConv(dt, x)
	case dTime:
		if err := want(LitString, "a time of day in single quotes"); err != nil {
			return nil, err
		}
		return clockConv(dt, x), nil
	}
	// dInt, dUint, dDecimal: numbers scaled to the decimal's scale.
	if err := want(LitNumber, "a number"); err != nil {
		return nil, err
	}
	scale := int32(0)
	if dec, ok := dt.(arrow.DecimalType); ok {
		scale = dec.GetScale()
	}
	return func(l *Literal) (num, error) { return parseNum(l.Text).scaled(scale), nil }, nil
}

// wantLiterals reports the first of lits that is not of kind (what names
// the kind in the message; x and dt name the operand compared with).
func wantLiterals(lits []Literal, kind LitKind, what string, x *Operand, dt arrow.DataType) error {
	for _, v := range lits {
		if v.Kind != kind {
			return errAt(v.At, "expected %s to compare with %s (%s), found %s", what, x.String(), dt, litDescribe(v))
		}
	}
	return nil
}

// floatTestFor is the test of float values of type dt against iv, the
// literals cast to the type.
func floatTestFor(dt arrow.DataType, iv []interval) valueTest {
	switch dt.ID() {
	case arrow.FLOAT64:
		return ordTest[float64]{mergeOrdered(floatBounds(iv, castFloat64))}
	case arrow.FLOAT32:
		return ordTest[float32]{mergeOrdered(floatBounds(iv, castFloat32))}
	}
	return ordTest[float32]{mergeOrdered(floatBounds(iv, castFloat16))}
}

// instantConv returns the conversion of date and time literals to the
// units of dt (a date or timestamp type: days, milliseconds, or the
// timestamp's unit, in its time zone); the error is an unknown zone.
func instantConv(dt arrow.DataType, x *Operand) (func(*Literal) (num, error), error) {
	loc, unitNs := time.UTC, int64(86400e9)
	switch t := dt.(type) {
	case *arrow.Date64Type:
		unitNs = 1e6
	case *arrow.TimestampType:
		unitNs = 1e9 / unitsPerSecond(t.Unit)
		z, err := zone(t.TimeZone)
		if err != nil {
			return nil, errAt(x.At, "unknown time zone %q of %s", t.TimeZone, x.String())
		}
		loc = z
	}
	return func(l *Literal) (num, error) {
		t, ok := parseInstant(l.Text, loc)
		if !ok {
			return num{}, errAt(l.At, "expected a date such as '2024-01-31' or a time such as '2024-01-31 12:30:00' for %s, found %s", x.String(), l.String())
		}
		return nanosIn(t.Unix(), int64(t.Nanosecond()), unitNs), nil
	}, nil
}

// clockConv returns the conversion of time-of-day literals to the unit of
// dt (a time32 or time64 type).
func clockConv(dt arrow.DataType, x *Operand) func(*Literal) (num, error) {
	var unitNs int64
	switch t := dt.(type) {
	case *arrow.Time32Type:
		unitNs = 1e9 / unitsPerSecond(t.Unit)
	case *arrow.Time64Type:
		unitNs = 1e9 / unitsPerSecond(t.Unit)
	}
	return func(l *Literal) (num, error) {
		ns, ok := parseClock(l.Text)
		if !ok {
			return num{}, errAt(l.At, "expected a time of day such as '12:30:00' for %s, found %s", x.String(), l.String())
		}
		return nanosIn(0, ns, unitNs), nil
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// intRange is the range of the integers that hold dt's values.
func intRange(dt arrow.DataType) (lo, hi *big.Int) {
	bits := dt.(arrow.FixedWidthDataType).BitWidth()
	if domainOf(dt) == dUint {
		return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1))
	}
	hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)), big.NewInt(1))
	if bits > 64 { // decimal128/256: FromBigInt takes ±(2^(bits-1)-1)
		return new(big.Int).Neg(hi), hi
	}
	return new(big.Int).Neg(new(big.Int).Add(hi, big.NewInt(1))), hi
}

// intTestFor converts big ranges to the Go type holding dt's values.
func intTestFor(dt arrow.DataType, r []rng[*big.Int]) valueTest {
	switch dt.ID() {
	case arrow.INT8:
		return ordTest[int8]{mergeOrdered(convRanges(r, func(b *big.Int) int8 { return int8(b.Int64()) }))}
	case arrow.INT16:
		return ordTest[int16]{mergeOrdered(convRanges(r, func(b *big.Int) int16 { return int16(b.Int64()) }))}
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.DECIMAL32:
		return ordTest[int32]{mergeOrdered(convRanges(r, func(b *big.Int) int32 { return int32(b.Int64()) }))}
	case arrow.INT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DECIMAL64:
		return ordTest[int64]{mergeOrdered(convRanges(r, func(b *big.Int) int64 { return b.Int64() }))}
	case arrow.UINT8:
		return ordTest[uint8]{mergeOrdered(convRanges(r, func(b *big.Int) uint8 { return uint8(b.Uint64()) }))}
	case arrow.UINT16:
		return ordTest[uint16]{mergeOrdered(convRanges(r, func(b *big.Int) uint16 { return uint16(b.Uint64()) }))}
	case arrow.UINT32:
		return ordTest[uint32]{mergeOrdered(convRanges(r, func(b *big.Int) uint32 { return uint32(b.Uint64()) }))}
	case arrow.UINT64:
		return ordTest[uint64]{mergeOrdered(convRanges(r, func(b *big.Int) uint64 { return b.Uint64() }))}
	case arrow.DECIMAL128:
		return decTest[decimal128.Num]{merge(convRanges(r, decimal128.FromBigInt), decimal128.Num.Cmp)}
	}
	return decTest[decimal256.Num]{merge(convRanges(r, decimal256.FromBigInt), decimal256.Num.Cmp)}
}

func convRanges[T any](r []rng[*big.Int], conv func(*big.Int) T) []rng[T] {
	out := make([]rng[T], len(r))
	for i, x := range r {
		out[i] = rng[T]{conv(x.lo), conv(x.hi)}
	}
	return out
}
