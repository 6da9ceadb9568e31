package query

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"sort"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/tensorview/tensorview/tensorext"
)

// Tensors reads the tensors of a batch's tensor and image columns: col is
// the column's index in the batch, row the row in the batch. Dialect
// tensors (Ray, Hugging Face, …) and decoded images come from the caller;
// ArrayTensors reads the canonical tensor extension arrays. A null row
// returns tensorext.ErrNullTensor.
type Tensors interface {
	Tensor(col, row int) (tensorext.Tensor, error)
}

// ImageSizes is implemented by a Tensors that knows an image's size
// without decoding its pixels; width() and height() then use it.
type ImageSizes interface {
	ImageSize(col, row int) (width, height int, err error)
}

// ArrayTensors reads the rows of a batch's tensorext.FixedShapeTensorArray
// and VariableShapeTensorArray columns.
type ArrayTensors struct{ Batch arrow.RecordBatch }

func (a ArrayTensors) Tensor(col, row int) (tensorext.Tensor, error) {
	switch c := a.Batch.Column(col).(type) {
	case *tensorext.FixedShapeTensorArray:
		return c.Tensor(row)
	case *tensorext.VariableShapeTensorArray:
		return c.Tensor(row)
	}
	return tensorext.Tensor{}, fmt.Errorf("column %q is no tensor extension array", a.Batch.ColumnName(col))
}

// Selection is the result of a filter over a range of a batch's rows.
type Selection struct {
	// Rows are the matching rows, as indices into the batch, ascending.
	Rows []int32
	// Unevaluated counts the rows that could not be evaluated (a tensor
	// that could not be read): they do not match. FirstError is the first
	// such row's error.
	Unevaluated int
	FirstError  string
}

// leaf is a bound predicate on one operand.
type leaf struct {
	op        operand
	test      valueTest // nil for is null
	isNull    bool
	neg       bool // swap true and false: !=, not in, not between, is not null
	nullFalse bool // a null value is false, not unknown (search)
}

// kernel evaluates a leaf on the rows [start, end) of a batch: it sets bit
// k of m when row start+k passes the test, and may clear bit k of v (the
// row's value is valid) when the value is null after all (a null dictionary
// value) or could not be read (then it also sets bit k of unk).
type kernel func(start, end int, m, v, unk []uint64)

// valueTest tests the values of an array.
type valueTest interface {
	prepare(arr arrow.Array) (kernel, error)
}

// BatchFilter evaluates a Filter on one record batch, in row ranges: the
// per-batch work (finding the columns, testing dictionaries) is done once.
// It is not safe for concurrent use.
type BatchFilter struct {
	f       *Filter
	batch   arrow.RecordBatch
	prep    map[*leaf]prepared
	words   [][]uint64 // scratch bitsets, a stack
	top     int
	unk     []uint64
	errText string
	errN    int
}

type prepared struct {
	arr arrow.Array
	k   kernel
}

// chunkRows is how many rows Range evaluates at a time (and how often it
// checks its context).
const chunkRows = 8192

// Batch prepares the evaluation of b, which must hold the columns of
// Needs with the types bound (other columns are ignored). ts reads its
// tensor columns; nil reads the tensor extension arrays (ArrayTensors).
func (f *Filter) Batch(b arrow.RecordBatch, ts Tensors) (*BatchFilter, error) {
	if ts == nil {
		ts = ArrayTensors{b}
	}
	bf := &BatchFilter{f: f, batch: b, prep: map[*leaf]prepared{}}
	var err error
	walk(f.root, func(l *leaf) {
		if err != nil {
			return
		}
		var p prepared
		p, err = bf.prepareLeaf(l, ts)
		bf.prep[l] = p
	})
	if err != nil {
		return nil, err
	}
	return bf, nil
}

func walk(n node, fn func(*leaf)) {
	switch n := n.(type) {
	case *andNode:
		for _, t := range n.terms {
			walk(t, fn)
		}
	case *orNode:
		for _, t := range n.terms {
			walk(t, fn)
		}
	case *notNode:
		walk(n.x, fn)
	case *leaf:
		fn(n)
	}
}

// column finds a bound column in b by name and checks its type.
func column(b arrow.RecordBatch, c Column) (int, arrow.Array, error) {
	idx := b.Schema().FieldIndices(c.Name)
	if len(idx) == 0 {
		return 0, nil, fmt.Errorf("query: the batch has no column %q", c.Name)
	}
	arr := b.Column(idx[0])
	if !arrow.TypeEqual(arr.DataType(), c.Type) {
		return 0, nil, fmt.Errorf("query: column %q is %s in this batch, not %s", c.Name, arr.DataType(), c.Type)
	}
	return idx[0], arr, nil
}

func (bf *BatchFilter) prepareLeaf(l *leaf, ts Tensors) (prepared, error) {
	c := bf.f.cols[l.op.col]
	col, arr, err := column(bf.batch, c)
	if err != nil {
		return prepared{}, err
	}
	p := prepared{arr: arr}
	switch {
	case l.isNull:
		p.k = func(int, int, []uint64, []uint64, []uint64) {}
		if d, ok := arr.(*array.Dictionary); ok {
			p.k, err = dictKernel(d, nil)
		}
	case l.op.fn != nil:
		p.k = bf.tensorKernel(l, col, ts)
	default:
		if d, ok := arr.(*array.Dictionary); ok {
			p.k, err = dictKernel(d, l.test)
		} else {
			p.k, err = l.test.prepare(arr)
		}
	}
	return p, err
}

// noteError records a row that could not be evaluated.
func (bf *BatchFilter) noteError(err error) {
	if bf.errText == "" {
		bf.errText = err.Error()
	}
}

// Eval evaluates the filter on every row of b (Batch, then Range).
func (f *Filter) Eval(ctx context.Context, b arrow.RecordBatch, ts Tensors) (Selection, error) {
	bf, err := f.Batch(b, ts)
	if err != nil {
		return Selection{}, err
	}
	return bf.Range(ctx, 0, int(b.NumRows()))
}

// Range evaluates the rows [start, end) of the batch: the browser calls it
// on slices of a batch small enough to keep each call short. It checks ctx
// every chunkRows rows.
func (bf *BatchFilter) Range(ctx context.Context, start, end int) (Selection, error) {
	if start < 0 || end > int(bf.batch.NumRows()) || start > end {
		return Selection{}, fmt.Errorf("query: rows [%d, %d) outside a batch of %d", start, end, bf.batch.NumRows())
	}
	var sel Selection
	bf.errText = ""
	for s := start; s < end; s += chunkRows {
		if err := ctx.Err(); err != nil {
			return Selection{}, err
		}
		e := min(end, s+chunkRows)
		n := (e - s + 63) / 64
		bf.top = 0
		bf.unk = bf.alloc(n)
		t, f := bf.alloc(n), bf.alloc(n)
		bf.eval(bf.f.root, s, e, t, f)
		for w, word := range t {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				sel.Rows = append(sel.Rows, int32(s+w*64+b))
				word &= word - 1
			}
		}
		for _, u := range bf.unk {
			sel.Unevaluated += bits.OnesCount64(u)
		}
	}
	sel.FirstError = bf.errText
	return sel, nil
}

// alloc returns n zeroed words from the scratch stack.
func (bf *BatchFilter) alloc(n int) []uint64 {
	if bf.top == len(bf.words) {
		bf.words = append(bf.words, make([]uint64, chunkRows/64))
	}
	w := bf.words[bf.top][:n]
	bf.top++
	clear(w)
	return w
}

// tailMask is the mask of the valid bits of the last word of n rows.
func tailMask(n int) uint64 {
	if n%64 == 0 {
		return ^uint64(0)
	}
	return 1<<(n%64) - 1
}

// eval sets t (rows for which n is true) and f (false) over [start, end);
// rows in neither are unknown (null). t and f come zeroed.
func (bf *BatchFilter) eval(n node, start, end int, t, f []uint64) {
	top := bf.top
	defer func() { bf.top = top }()
	switch n := n.(type) {
	case *notNode:
		bf.eval(n.x, start, end, f, t)
	case *andNode:
		bf.conj(n.terms, start, end, t, f, false)
	case *orNode:
		bf.conj(n.terms, start, end, f, t, true)
	case *leaf:
		p := bf.prep[n]
		m, v := bf.alloc(len(t)), bf.alloc(len(t))
		validity(p.arr, start, end, v)
		p.k(start, end, m, v, bf.unk)
		last := len(t) - 1
		mask := tailMask(end - start)
		if n.isNull {
			for i := range t {
				t[i], f[i] = ^v[i], v[i]
			}
			t[last] &= mask
		} else {
			for i := range t {
				t[i], f[i] = v[i]&m[i], v[i]&^m[i]
			}
			if n.nullFalse {
				for i := range f {
					f[i] |= ^v[i] &^ bf.unk[i]
				}
				f[last] &= mask
			}
		}
		if n.neg {
			for i := range t {
				t[i], f[i] = f[i], t[i]
			}
		}
	}
}

// conj combines terms: a is the and of their a sides, b the or of their b
// sides, a term's sides being its (true, false) rows, or (false, true)
// when swap. An and is conj(t, f); an or, by De Morgan, conj(f, t, swap).
func (bf *BatchFilter) conj(terms []node, start, end int, a, b []uint64, swap bool) {
	eval := func(n node, x, y []uint64) {
		if swap {
			x, y = y, x
		}
		bf.eval(n, start, end, x, y)
	}
	eval(terms[0], a, b)
	x, y := bf.alloc(len(a)), bf.alloc(len(a))
	for _, term := range terms[1:] {
		clear(x)
		clear(y)
		eval(term, x, y)
		for i := range a {
			a[i] &= x[i]
			b[i] |= y[i]
		}
	}
}

// validity sets v's bits for the valid rows of arr in [start, end).
func validity(arr arrow.Array, start, end int, v []uint64) {
	n := end - start
	if arr.NullN() == 0 {
		for i := range v {
			v[i] = ^uint64(0)
		}
		v[len(v)-1] &= tailMask(n)
		return
	}
	bm := arr.NullBitmapBytes()
	off := arr.Data().Offset() + start
	for i := range v {
		v[i] = bitsAt(bm, off+64*i)
	}
	v[len(v)-1] &= tailMask(n)
}

// bitsAt returns the 64 bits of an LSB-first bitmap from bit pos on
// (zeros past its end).
func bitsAt(bm []byte, pos int) uint64 {
	b, shift := pos/8, uint(pos%8)
	var buf [9]byte
	copy(buf[:], bm[min(b, len(bm)):])
	w := binary.LittleEndian.Uint64(buf[:8]) >> shift
	if shift > 0 {
		w |= uint64(buf[8]) << (64 - shift)
	}
	return w
}

// fixedValues returns the values of a fixed-width array as a []T (T of the
// same width as the type's values), without copying.
func fixedValues[T any](arr arrow.Array) []T {
	d := arr.Data()
	buf := d.Buffers()[1]
	if buf == nil || d.Len() == 0 {
		return nil
	}
	all := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf.Bytes()))), buf.Len()/int(unsafe.Sizeof(*new(T))))
	return all[d.Offset() : d.Offset()+d.Len()]
}

// ordTest passes values in any of its closed ranges (sorted, disjoint).
type ordTest[T cmp.Ordered] struct{ r []rng[T] }

func (t ordTest[T]) has(v T) bool {
	i := sort.Search(len(t.r), func(i int) bool { return t.r[i].hi >= v })
	return i < len(t.r) && t.r[i].lo <= v
}

func (t ordTest[T]) prepare(arr arrow.Array) (kernel, error) {
	var vals []T
	switch a := arr.(type) {
	case *array.Float16:
		f32 := make([]float32, a.Len())
		for i, v := range a.Values() {
			f32[i] = float32(tensorext.Float16ToFloat64(v)) // exact, subnormals too
		}
		vals = any(f32).([]T)
	case *array.Boolean, *array.String, *array.LargeString, *array.StringView:
		return nil, fmt.Errorf("query: %s is not a number", arr.DataType())
	default:
		vals = fixedValues[T](arr)
	}
	return ordKernel(vals, t), nil
}

func ordKernel[T cmp.Ordered](vals []T, t ordTest[T]) kernel {
	switch len(t.r) {
	case 0:
		return func(int, int, []uint64, []uint64, []uint64) {}
	case 1:
		lo, hi := t.r[0].lo, t.r[0].hi
		return func(start, end int, m, _, _ []uint64) {
			vs := vals[start:end]
			for w := range m {
				chunk := vs[w*64 : min(len(vs), w*64+64)]
				var word uint64
				for b, x := range chunk {
					if x >= lo && x <= hi {
						word |= 1 << uint(b)
					}
				}
				m[w] = word
			}
		}
	}
	return func(start, end int, m, _, _ []uint64) {
		for i := start; i < end; i++ {
			if t.has(vals[i]) {
				k := i - start
				m[k/64] |= 1 << uint(k%64)
			}
		}
	}
}

// decTest passes decimals in any of its closed ranges.
type decTest[T interface{ Cmp(T) int }] struct{ r []rng[T] }

func (t decTest[T]) prepare(arr arrow.Array) (kernel, error) {
	a, ok := arr.(interface{ Values() []T })
	if !ok {
		return nil, fmt.Errorf("query: %s is no decimal", arr.DataType())
	}
	vals := a.Values()
	return func(start, end int, m, _, _ []uint64) {
		for i := start; i < end; i++ {
			v := vals[i]
			for _, r := range t.r {
				if v.Cmp(r.lo) >= 0 && v.Cmp(r.hi) <= 0 {
					k := i - start
					m[k/64] |= 1 << uint(k%64)
					break
				}
			}
		}
	}, nil
}

var (
	_ valueTest = decTest[decimal128.Num]{}
	_ valueTest = decTest[decimal256.Num]{}
	_           = float16.Num{}
)

type stringValues interface {
	arrow.Array
	Value(int) string
}

// strTest passes strings in any of its ranges.
type strTest struct{ r []strRange }

func (t strTest) prepare(arr arrow.Array) (kernel, error) {
	a, ok := arr.(stringValues)
	if !ok {
		return nil, fmt.Errorf("query: %s is no string", arr.DataType())
	}
	return func(start, end int, m, _, _ []uint64) {
		for i := start; i < end; i++ {
			v := a.Value(i)
			for _, r := range t.r {
				if r.has(v) {
					k := i - start
					m[k/64] |= 1 << uint(k%64)
					break
				}
			}
		}
	}, nil
}

// matchTest is contains or starts with, case-insensitive.
type matchTest struct {
	kind    MatchKind
	pattern string
}

func (t matchTest) prepare(arr arrow.Array) (kernel, error) {
	a, ok := arr.(stringValues)
	if !ok {
		return nil, fmt.Errorf("query: %s is no string", arr.DataType())
	}
	pat := newFolded(t.pattern)
	match := pat.contains
	if t.kind == StartsWith {
		match = pat.hasPrefix
	}
	return func(start, end int, m, _, _ []uint64) {
		for i := start; i < end; i++ {
			if match(a.Value(i)) {
				k := i - start
				m[k/64] |= 1 << uint(k%64)
			}
		}
	}, nil
}

// boolTest passes false when [0] is set, true when [1] is.
type boolTest [2]bool

func (t boolTest) prepare(arr arrow.Array) (kernel, error) {
	a, ok := arr.(*array.Boolean)
	if !ok {
		return nil, fmt.Errorf("query: %s is no boolean", arr.DataType())
	}
	return func(start, end int, m, _, _ []uint64) {
		for i := start; i < end; i++ {
			if t[b2i(a.Value(i))] {
				k := i - start
				m[k/64] |= 1 << uint(k%64)
			}
		}
	}, nil
}

// dictKernel tests a dictionary's values once, then each row by its
// index: a row whose value is null counts as null. test nil tests nothing
// (is null).
func dictKernel(d *array.Dictionary, test valueTest) (kernel, error) {
	dict := d.Dictionary()
	n := dict.Len()
	words := (n + 63) / 64
	pass, valid := make([]uint64, words), make([]uint64, words)
	if n > 0 {
		validity(dict, 0, n, valid)
		if test != nil {
			k, err := test.prepare(dict)
			if err != nil {
				return nil, err
			}
			k(0, n, pass, valid, make([]uint64, words))
		}
	}
	// Indices by width: a negative index reads as a huge one, out of the
	// dictionary's range like any bad index (a null).
	idx := d.Indices()
	switch dataWidth(idx) {
	case 1:
		return dictRows(fixedValues[uint8](idx), pass, valid), nil
	case 2:
		return dictRows(fixedValues[uint16](idx), pass, valid), nil
	case 4:
		return dictRows(fixedValues[uint32](idx), pass, valid), nil
	case 8:
		return dictRows(fixedValues[uint64](idx), pass, valid), nil
	}
	return nil, fmt.Errorf("query: dictionary indices of type %s", idx.DataType())
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

func dictRows[I integer](idx []I, pass, valid []uint64) kernel {
	n := uint64(len(valid) * 64)
	entries := 0 // the dictionary's entries are valid up to here
	for entries < len(valid)*64 && valid[entries/64]&(1<<uint(entries%64)) != 0 {
		entries++
	}
	return func(start, end int, m, v, _ []uint64) {
		for w := range m {
			lo := start + 64*w
			chunk := idx[lo:min(end, lo+64)]
			// The fast path: every index in the chunk (null rows' too) names
			// a valid entry, so m is read off pass without branches.
			top := uint64(0)
			for _, j := range chunk {
				top = max(top, uint64(j))
			}
			if top < uint64(entries) {
				var word uint64
				for b, j := range chunk {
					word |= (pass[uint64(j)/64] >> (uint64(j) % 64) & 1) << uint(b)
				}
				m[w] = word
				continue
			}
			for b, jj := range chunk {
				bit := uint64(1) << uint(b)
				if v[w]&bit == 0 {
					continue
				}
				j := uint64(jj)
				if j >= n || valid[j/64]&(1<<(j%64)) == 0 { // a null value (or a bad index)
					v[w] &^= bit
					continue
				}
				if pass[j/64]&(1<<(j%64)) != 0 {
					m[w] |= bit
				}
			}
		}
	}
}

// Matches gathers a filter's matching rows over a file, batch after batch,
// as file row numbers (4 bytes a match while they fit in uint32, else 8).
type Matches struct {
	Perm // the matching rows, ascending
	// Unevaluated and FirstError sum up the selections' own.
	Unevaluated int64
	FirstError  string
}

// Add adds a selection of the batch whose first row is the file's row
// base. Batches are added in file order.
func (m *Matches) Add(base int64, sel Selection) {
	for _, r := range sel.Rows {
		m.append(base + int64(r))
	}
	m.Unevaluated += int64(sel.Unevaluated)
	if m.FirstError == "" {
		m.FirstError = sel.FirstError
	}
}

func (p *Perm) append(r int64) {
	if p.i64 == nil && r < 1<<32 {
		last := len(p.parts) - 1
		if last < 0 || len(p.parts[last]) == partRows {
			p.parts = append(p.parts, make([]uint32, 0, partRows))
			last++
		}
		p.parts[last] = append(p.parts[last], uint32(r))
		p.nPart++
		return
	}
	if p.i64 == nil {
		p.i64 = make([]int64, p.nPart, 2*p.nPart+1)
		for i := range p.nPart {
			p.i64[i] = int64(p.parts[i/partRows][i%partRows])
		}
		p.parts, p.nPart = nil, 0
	}
	p.i64 = append(p.i64, r)
}
