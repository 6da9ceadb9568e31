package query

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/tensorext"
)

// vecKind is the kind of key vector a sort keeps.
type vecKind uint8

const (
	vec32    vecKind = iota // order-preserving uint32 keys
	vec64                   // order-preserving uint64 keys
	vecBytes                // byte strings (strings; decimal128/256 as big-endian bytes)
	vecDict                 // dictionary strings: ids into a table, ranked at Sort
)

// Sort is a bound sort key.
type Sort struct {
	key  SortKey
	op   operand
	col  Column
	kind vecKind
}

// BindSort binds a sort key to the columns. Sortable: integers, floats,
// decimals, strings, booleans, dates, times, timestamps, dictionaries of
// those, and the tensor functions but shape.
func BindSort(k SortKey, cols []Column) (*Sort, error) {
	k.X = cloneOperand(k.X)
	op, err := bindOperand(&k.X, cols)
	if err != nil {
		return nil, err
	}
	s := &Sort{key: k, op: op, col: cols[op.col]}
	switch {
	case op.fn != nil && op.fn.kind == fShape:
		return nil, errAt(k.X.At, "cannot sort by shape(): sort by size() or dim()")
	case op.fn != nil:
		s.kind = vec64
		return s, nil
	case s.col.Tensor || s.col.Image:
		return nil, errAt(k.X.At, "%s is %s: sort by one of its statistics, such as mean(%s)", ColumnName(s.col.Name), typeName(s.col), ColumnName(s.col.Name))
	}
	dt := valueType(s.col.Type)
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.FLOAT16, arrow.FLOAT32,
		arrow.DATE32, arrow.TIME32, arrow.DECIMAL32, arrow.BOOL:
		s.kind = vec32
	case arrow.INT64, arrow.UINT64, arrow.FLOAT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DECIMAL64:
		s.kind = vec64
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		s.kind = vecBytes
		if _, ok := s.col.Type.(*arrow.DictionaryType); ok {
			s.kind = vecDict
		}
	case arrow.DECIMAL128, arrow.DECIMAL256:
		s.kind = vecBytes
	default:
		return nil, errAt(k.X.At, "cannot sort by %s (%s)", ColumnName(s.col.Name), dt)
	}
	return s, nil
}

func cloneOperand(o Operand) Operand {
	if o.Dim != nil {
		d := *o.Dim
		o.Dim = &d
	}
	return o
}

// String prints the key as links carry it, with the column's own name.
func (s *Sort) String() string { return s.key.String() }

// Needs lists the column the key reads.
func (s *Sort) Needs() []string { return []string{s.col.Name} }

// Keys gathers a sort key's values, batch after batch, in row order: the
// rows are numbered by the order in which they are added. Its memory is
// the key vector (4 bytes a row for 32-bit types and dictionaries, 8 for
// 64-bit types and tensor statistics, the bytes plus 16 for strings and
// decimals) and 2 bits a row.
type Keys struct {
	s         *Sort
	n         int64
	null, nan []uint64 // bit r: row r is null (or could not be read), NaN
	u32       []uint32
	u64       []uint64
	arena     arena
	offs      []int64 // vecBytes: row r's key is arena.at(offs[r], offs[r+1])
	scratch   []byte
	dict      dictKeys          // the keys of the last dictionary's entries
	ids       map[string]uint32 // vecDict: the table of values
	values    []string
	// Unevaluated counts the rows whose value could not be read (they
	// sort with the nulls); FirstError is the first one's error.
	Unevaluated int64
	FirstError  string
}

// NewKeys starts gathering keys; rows is the expected number of rows (a
// hint for the vectors' capacity, 0 if unknown).
func (s *Sort) NewKeys(rows int64) *Keys {
	k := &Keys{s: s}
	switch s.kind {
	case vec32, vecDict:
		k.u32 = make([]uint32, 0, rows)
	case vec64:
		k.u64 = make([]uint64, 0, rows)
	case vecBytes:
		k.offs = make([]int64, 1, rows+1)
	}
	if s.kind == vecDict {
		k.ids = map[string]uint32{}
	}
	return k
}

// Len returns the number of rows added.
func (k *Keys) Len() int64 { return k.n }

func setBit(bm *[]uint64, r int64) {
	for int64(len(*bm))*64 <= r {
		*bm = append(*bm, 0)
	}
	(*bm)[r/64] |= 1 << uint(r%64)
}

func hasBit(bm []uint64, r int64) bool {
	return r/64 < int64(len(bm)) && bm[r/64]&(1<<uint(r%64)) != 0
}

// Add adds every row of b (AddRange over the whole batch).
func (k *Keys) Add(ctx context.Context, b arrow.RecordBatch, ts Tensors) error {
	return k.AddRange(ctx, b, ts, 0, int(b.NumRows()))
}

// AddRange adds the rows [start, end) of b, which must hold the key's
// column (Needs); ts reads tensors as for Filter.Batch. Ranges of one
// batch are added in order, then the next batch's.
func (k *Keys) AddRange(ctx context.Context, b arrow.RecordBatch, ts Tensors, start, end int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	col, arr, err := column(b, k.s.col)
	if err != nil {
		return err
	}
	if start < 0 || end > arr.Len() || start > end {
		return fmt.Errorf("query: rows [%d, %d) outside a batch of %d", start, end, arr.Len())
	}
	base := k.n - int64(start)
	if k.s.op.fn != nil {
		if ts == nil {
			ts = ArrayTensors{b}
		}
		return k.addTensors(ctx, arr, col, ts, start, end, base)
	}
	if d, ok := arr.(*array.Dictionary); ok {
		return k.addDict(d, start, end, base)
	}
	if err := k.addValues(arr, start, end, base); err != nil {
		return err
	}
	k.n += int64(end - start)
	return nil
}

// addValues adds the keys of the rows [start, end) of arr (of the sort's
// column, not a dictionary), marking the null and NaN ones; row i is row
// base+i of the sort.
func (k *Keys) addValues(arr arrow.Array, start, end int, base int64) error {
	valid := func(i int) bool {
		if arr.IsNull(i) {
			setBit(&k.null, base+int64(i))
			return false
		}
		return true
	}
	var err error
	switch k.s.kind {
	case vec32:
		first := len(k.u32)
		if k.u32, err = keys32(k.u32, arr, start, end); err != nil {
			return err
		}
		for i, key := range k.u32[first:] {
			if valid(start+i) && isNaN32(arr, key) {
				setBit(&k.nan, base+int64(start+i))
			}
		}
	case vec64:
		first := len(k.u64)
		if k.u64, err = keys64(k.u64, arr, start, end); err != nil {
			return err
		}
		float := arr.DataType().ID() == arrow.FLOAT64
		for i, key := range k.u64[first:] {
			if valid(start+i) && float && key > nanKey64 {
				setBit(&k.nan, base+int64(start+i))
			}
		}
	case vecBytes:
		for i := start; i < end; i++ {
			if valid(i) {
				k.scratch = appendBytesKey(k.scratch[:0], arr, i)
				k.arena.add(k.scratch)
			}
			k.offs = append(k.offs, k.arena.n)
		}
	}
	return nil
}

// arena holds the byte keys of a sort in chunks of arenaChunk bytes (a
// key longer than that in a chunk of its own), so that gathering them
// never copies what it gathered so far (as growing one slice would: a
// copy of hundreds of MB in one step for 10M strings). The keys are
// numbered by their bytes' positions as if the chunks were one slice; no
// key spans two chunks.
type arena struct {
	chunks [][]byte
	starts []int64 // the position of each chunk's first byte
	n      int64   // the bytes held
}

const arenaChunk = 4 << 20

func (a *arena) add(b []byte) {
	last := len(a.chunks) - 1
	if last < 0 || len(a.chunks[last])+len(b) > cap(a.chunks[last]) {
		a.chunks = append(a.chunks, make([]byte, 0, max(arenaChunk, len(b))))
		a.starts = append(a.starts, a.n)
		last++
	}
	a.chunks[last] = append(a.chunks[last], b...)
	a.n += int64(len(b))
}

// at returns the key held at positions [start, end).
func (a *arena) at(start, end int64) []byte {
	if start == end {
		return nil
	}
	// The last chunk starting at or before start.
	lo, hi := 0, len(a.starts)
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if a.starts[mid] <= start {
			lo = mid
		} else {
			hi = mid
		}
	}
	off := a.starts[lo]
	return a.chunks[lo][start-off : end-off]
}

// key returns row r's byte key (vecBytes).
func (k *Keys) key(r int64) []byte { return k.arena.at(k.offs[r], k.offs[r+1]) }

// The largest normalized float keys are NaN's: a float's key is above
// these only when it is NaN (of either sign, as both normalize to one).
const (
	nanKey32 = 0xff800000 // +Inf's key
	nanKey64 = 0xfff0000000000000
)

func isNaN32(arr arrow.Array, key uint32) bool {
	id := arr.DataType().ID()
	return (id == arrow.FLOAT32 || id == arrow.FLOAT16) && key > nanKey32
}

func floatKey32(f float32) uint32 {
	if f == 0 {
		f = 0 // -0 sorts as 0
	}
	if f != f {
		return math.MaxUint32
	}
	b := math.Float32bits(f)
	if b&(1<<31) != 0 {
		return ^b
	}
	return b | 1<<31
}

func floatKey64(f float64) uint64 {
	if f == 0 {
		f = 0
	}
	if f != f {
		return math.MaxUint64
	}
	b := math.Float64bits(f)
	if b&(1<<63) != 0 {
		return ^b
	}
	return b | 1<<63
}

// keys32 appends to dst the order-preserving keys of the rows [start,
// end) of a 32-bit-or-narrower array (nulls get whatever their slot
// holds).
func keys32(dst []uint32, arr arrow.Array, start, end int) ([]uint32, error) {
	dst = slices.Grow(dst, end-start)
	out := dst[len(dst) : len(dst)+end-start]
	switch a := arr.(type) {
	case *array.Int8:
		for i, v := range a.Int8Values()[start:end] {
			out[i] = uint32(int32(v)) ^ 1<<31
		}
	case *array.Int16:
		for i, v := range a.Int16Values()[start:end] {
			out[i] = uint32(int32(v)) ^ 1<<31
		}
	case *array.Uint8:
		for i, v := range a.Uint8Values()[start:end] {
			out[i] = uint32(v)
		}
	case *array.Uint16:
		for i, v := range a.Uint16Values()[start:end] {
			out[i] = uint32(v)
		}
	case *array.Uint32:
		copy(out, a.Uint32Values()[start:end])
	case *array.Float16:
		for i, v := range a.Values()[start:end] {
			out[i] = floatKey32(float32(tensorext.Float16ToFloat64(v)))
		}
	case *array.Float32:
		for i, v := range a.Float32Values()[start:end] {
			out[i] = floatKey32(v)
		}
	case *array.Boolean:
		for i := range out {
			out[i] = uint32(b2i(a.Value(start + i)))
		}
	default: // int32, date32, time32, decimal32
		if dataWidth(arr) != 4 {
			return dst, fmt.Errorf("query: cannot sort %s as 32-bit keys", arr.DataType())
		}
		for i, v := range fixedValues[int32](arr)[start:end] {
			out[i] = uint32(v) ^ 1<<31
		}
	}
	return dst[:len(dst)+end-start], nil
}

func dataWidth(arr arrow.Array) int {
	if fw, ok := arr.DataType().(arrow.FixedWidthDataType); ok {
		return fw.BitWidth() / 8
	}
	return 0
}

// keys64 is keys32 for 64-bit arrays.
func keys64(dst []uint64, arr arrow.Array, start, end int) ([]uint64, error) {
	dst = slices.Grow(dst, end-start)
	out := dst[len(dst) : len(dst)+end-start]
	switch a := arr.(type) {
	case *array.Uint64:
		copy(out, a.Uint64Values()[start:end])
	case *array.Float64:
		for i, v := range a.Float64Values()[start:end] {
			out[i] = floatKey64(v)
		}
	default: // int64, date64, time64, timestamp, decimal64
		if dataWidth(arr) != 8 {
			return dst, fmt.Errorf("query: cannot sort %s as 64-bit keys", arr.DataType())
		}
		for i, v := range fixedValues[int64](arr)[start:end] {
			out[i] = uint64(v) ^ 1<<63
		}
	}
	return dst[:len(dst)+end-start], nil
}

// appendBytesKey appends row i's key: a string's bytes, or a decimal as
// big-endian bytes with the sign bit flipped (so bytes order as numbers).
func appendBytesKey(dst []byte, arr arrow.Array, i int) []byte {
	switch a := arr.(type) {
	case *array.Decimal128:
		v := a.Value(i)
		dst = binary.BigEndian.AppendUint64(dst, uint64(v.HighBits())^1<<63)
		return binary.BigEndian.AppendUint64(dst, v.LowBits())
	case *array.Decimal256:
		w := a.Value(i).Array()
		dst = binary.BigEndian.AppendUint64(dst, w[3]^1<<63)
		for j := 2; j >= 0; j-- {
			dst = binary.BigEndian.AppendUint64(dst, w[j])
		}
		return dst
	case stringValues:
		return append(dst, a.Value(i)...)
	}
	return dst
}

// dictKeys are the keys of a dictionary's entries, computed once per
// dictionary (not once per range of its rows): ids into the table of
// values (vecDict), 32- or 64-bit keys, or byte keys (their start in
// bytes, len+1 offsets). null marks the entries that are null.
type dictKeys struct {
	of    arrow.Array
	ids   []uint32
	e32   []uint32
	e64   []uint64
	bytes []byte
	offs  []int
	null  []bool
}

func (k *Keys) dictKeys(dict arrow.Array) (*dictKeys, error) {
	dk := &k.dict
	if dk.of == dict {
		return dk, nil
	}
	n := dict.Len()
	*dk = dictKeys{of: dict, null: make([]bool, n)}
	for j := range n {
		dk.null[j] = dict.IsNull(j)
	}
	var err error
	switch k.s.kind {
	case vecDict:
		sv := dict.(stringValues)
		dk.ids = make([]uint32, n)
		for j := range dk.ids {
			if !dk.null[j] {
				dk.ids[j] = k.intern(sv.Value(j))
			}
		}
	case vec32:
		dk.e32, err = keys32(nil, dict, 0, n)
	case vec64:
		dk.e64, err = keys64(nil, dict, 0, n)
	case vecBytes:
		dk.offs = make([]int, n+1)
		for j := range n {
			if !dk.null[j] {
				dk.bytes = appendBytesKey(dk.bytes, dict, j)
			}
			dk.offs[j+1] = len(dk.bytes)
		}
	}
	if err != nil {
		dk.of = nil
		return nil, err
	}
	return dk, nil
}

// addDict adds dictionary-encoded rows: their values' keys, computed once
// per dictionary entry.
func (k *Keys) addDict(d *array.Dictionary, start, end int, base int64) error {
	dict := d.Dictionary()
	dk, err := k.dictKeys(dict)
	if err != nil {
		return err
	}
	n := dict.Len()
	float64s := dict.DataType().ID() == arrow.FLOAT64
	for i := start; i < end; i++ {
		r := base + int64(i)
		j := -1
		if d.IsValid(i) {
			j = d.GetValueIndex(i)
		}
		null := j < 0 || j >= n || dk.null[j]
		if null {
			setBit(&k.null, r)
		}
		switch k.s.kind {
		case vecDict:
			id := uint32(0)
			if !null {
				id = dk.ids[j]
			}
			k.u32 = append(k.u32, id)
		case vec32:
			key := uint32(0)
			if !null {
				key = dk.e32[j]
				if isNaN32(dict, key) {
					setBit(&k.nan, r)
				}
			}
			k.u32 = append(k.u32, key)
		case vec64:
			key := uint64(0)
			if !null {
				key = dk.e64[j]
				if float64s && key > nanKey64 {
					setBit(&k.nan, r)
				}
			}
			k.u64 = append(k.u64, key)
		case vecBytes:
			if !null {
				k.arena.add(dk.bytes[dk.offs[j]:dk.offs[j+1]])
			}
			k.offs = append(k.offs, k.arena.n)
		}
	}
	k.n += int64(end - start)
	return nil
}

func (k *Keys) intern(s string) uint32 {
	if id, ok := k.ids[s]; ok {
		return id
	}
	id := uint32(len(k.values))
	s = strings.Clone(s) // the batch's buffers go away
	k.ids[s] = id
	k.values = append(k.values, s)
	return id
}

func (k *Keys) addTensors(ctx context.Context, arr arrow.Array, col int, ts Tensors, start, end int, base int64) error {
	sizes, _ := ts.(ImageSizes)
	if !k.s.col.Image {
		sizes = nil
	}
	fn := k.s.op.fn
	for i := start; i < end; i++ {
		if (i-start)%chunkRows == chunkRows-1 {
			if err := ctx.Err(); err != nil {
				k.u64 = k.u64[:k.n]
				return err
			}
		}
		r := base + int64(i)
		key := uint64(0)
		if arr.IsNull(i) {
			setBit(&k.null, r)
			k.u64 = append(k.u64, key)
			continue
		}
		x, err := tensorValue(fn, ts, sizes, col, i)
		switch {
		case errors.Is(err, tensorext.ErrNullTensor):
			setBit(&k.null, r)
		case err != nil:
			setBit(&k.null, r)
			k.Unevaluated++
			if k.FirstError == "" {
				k.FirstError = err.Error()
			}
		case x != x:
			setBit(&k.nan, r)
		default:
			key = floatKey64(x)
		}
		k.u64 = append(k.u64, key)
	}
	k.n += int64(end - start)
	return nil
}

// tensorValue reads row's tensor (or image size) and computes fn.
func tensorValue(fn *tensorFn, ts Tensors, sizes ImageSizes, col, row int) (float64, error) {
	if sizes != nil && (fn.kind == fWidth || fn.kind == fHeight) {
		w, h, err := sizes.ImageSize(col, row)
		if err != nil {
			return 0, rowErr(row, err)
		}
		if fn.kind == fHeight {
			return float64(h), nil
		}
		return float64(w), nil
	}
	t, err := ts.Tensor(col, row)
	if err != nil {
		if errors.Is(err, tensorext.ErrNullTensor) {
			return 0, err
		}
		return 0, rowErr(row, err)
	}
	x, err := fn.value(t)
	if err != nil {
		return 0, rowErr(row, err)
	}
	return x, nil
}

// Pacer is called between slices of a long computation (about every 64Ki
// elements): in the browser it yields to the event loop (Go's wasm is one
// thread), and an error it returns stops the computation.
type Pacer func() error

// Perm is a permutation of row numbers: the sorted order. It holds uint32
// rows when there are fewer than 2^32, else int64; a filter's matches
// (Matches) grow in parts of partRows uint32 rows, so that adding one
// never copies those before.
type Perm struct {
	u32   []uint32
	i64   []int64
	parts [][]uint32
	nPart int // the rows in parts
}

// partRows is the size of Matches' parts (a power of two).
const partRows = 1 << 16

// Len returns the number of rows.
func (p Perm) Len() int { return len(p.u32) + len(p.i64) + p.nPart }

// At returns the row at position i of the order.
func (p Perm) At(i int) int64 {
	switch {
	case p.u32 != nil:
		return int64(p.u32[i])
	case p.parts != nil:
		if i >= p.nPart {
			panic(fmt.Sprintf("query: position %d of %d rows", i, p.nPart))
		}
		return int64(p.parts[i/partRows][i%partRows])
	}
	return p.i64[i]
}

// Rows returns the permutation as int64s (a copy, for tests and small
// results).
func (p Perm) Rows() []int64 {
	out := make([]int64, p.Len())
	for i := range out {
		out[i] = p.At(i)
	}
	return out
}

// Sort orders the rows added: by the key, ascending or descending; ties
// in the order added (stable); NaN after every number and nulls (with the
// rows that could not be read) after those, in both directions. The key
// vectors are consumed: Keys cannot be used again. pace may be nil.
func (k *Keys) Sort(ctx context.Context, pace Pacer) (Perm, error) {
	p := &pacer{ctx: ctx, pace: pace}
	if k.n < 1<<32 {
		rows, err := sortRows[uint32](k, p)
		return Perm{u32: rows}, err
	}
	rows, err := sortRows[int64](k, p)
	return Perm{i64: rows}, err
}

type pacer struct {
	ctx  context.Context
	pace Pacer
	work int
	// most is the most work counted between two calls of pace (for the
	// tests: every loop counts its work and paces at least every
	// paceStep elements of it).
	most int
}

// paceStep is how many elements of work (a key read, moved or compared)
// go between two calls of the pacer at most: each loop over the rows
// goes in steps of this many.
const paceStep = 1 << 16

// did counts n elements of work and paces every paceStep.
func (p *pacer) did(n int) error {
	p.work += n
	if p.work < paceStep {
		return nil
	}
	p.most = max(p.most, p.work)
	p.work = 0
	if err := p.ctx.Err(); err != nil {
		return err
	}
	if p.pace != nil {
		return p.pace()
	}
	return nil
}

// steps calls fn on [lo, hi) ranges of [0, n) of paceStep elements,
// counting each as work.
func (p *pacer) steps(n int, fn func(lo, hi int)) error {
	for lo := 0; lo < n; lo += paceStep {
		hi := min(n, lo+paceStep)
		fn(lo, hi)
		if err := p.did(hi - lo); err != nil {
			return err
		}
	}
	return nil
}

type rowNum interface{ ~uint32 | ~int64 }

func sortRows[R rowNum](k *Keys, p *pacer) ([]R, error) {
	if err := p.ctx.Err(); err != nil {
		return nil, err
	}
	desc := k.s.key.Desc
	n := int(k.n)
	// The valid rows, in order; then the NaN rows, then the nulls.
	rows := make([]R, 0, n)
	var nanRows, nullRows []R
	err := p.steps(n, func(lo, hi int) {
		if k.null == nil && k.nan == nil {
			for r := lo; r < hi; r++ {
				rows = append(rows, R(r))
			}
			return
		}
		for r := lo; r < hi; r++ {
			switch {
			case hasBit(k.null, int64(r)):
				nullRows = append(nullRows, R(r))
			case hasBit(k.nan, int64(r)):
				nanRows = append(nanRows, R(r))
			default:
				rows = append(rows, R(r))
			}
		}
	})
	if err != nil {
		return nil, err
	}
	switch k.s.kind {
	case vecDict:
		if err = k.rankDictKeys(p); err != nil {
			return nil, err
		}
		fallthrough
	case vec32:
		err = sortFixed(k.u32, rows, desc, p)
		k.u32 = nil
	case vec64:
		err = sortFixed(k.u64, rows, desc, p)
		k.u64 = nil
	case vecBytes:
		err = sortByBytes(rows, func(r R) []byte { return k.key(int64(r)) }, desc, p)
	}
	if err != nil {
		return nil, err
	}
	rows = append(rows, nanRows...)
	return append(rows, nullRows...), nil
}

// rankDictKeys replaces the dictionary indices in k.u32 with the ranks of
// their values in string order, so that they sort as the values.
func (k *Keys) rankDictKeys(p *pacer) error {
	rank, err := rankStrings(k.values, p)
	if err != nil {
		return err
	}
	keys := k.u32
	return p.steps(len(keys), func(lo, hi int) {
		for i, id := range keys[lo:hi] {
			keys[lo+i] = rank[id]
		}
	})
}

// sortFixed sorts rows by their keys (one a row added), in place.
func sortFixed[K ~uint32 | ~uint64, R rowNum](keys []K, rows []R, desc bool, p *pacer) error {
	// Keep the keys of rows (ascending, so in place), complemented to
	// sort descending.
	var flip K
	if desc {
		flip = ^flip
	}
	err := p.steps(len(rows), func(lo, hi int) {
		for i, r := range rows[lo:hi] {
			keys[lo+i] = keys[r] ^ flip
		}
	})
	if err != nil {
		return err
	}
	keys = keys[:len(rows)]
	x := radix[K, R]{p: p}
	return x.sort(keys, rows, uint(8*unsafe.Sizeof(keys[0])-8))
}

// rankStrings returns each string's rank in sorted order.
func rankStrings(values []string, p *pacer) ([]uint32, error) {
	order := make([]uint32, len(values))
	err := p.steps(len(order), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			order[i] = uint32(i)
		}
	})
	if err != nil {
		return nil, err
	}
	key := func(i uint32) []byte { return unsafe.Slice(unsafe.StringData(values[i]), len(values[i])) }
	if err := sortByBytes(order, key, false, p); err != nil {
		return nil, err
	}
	rank := make([]uint32, len(values))
	err = p.steps(len(order), func(lo, hi int) {
		for r, i := range order[lo:hi] {
			rank[i] = uint32(lo + r)
		}
	})
	return rank, err
}

// radix sorts keys ascending, moving rows alongside, in place (MSD radix,
// "American flag" sort), pacing every paceStep keys counted or moved.
// Each run of equal keys goes to ties when set; else (and for the runs
// of 64 keys or fewer when ties is nil) it is ordered by row, so that the
// order is stable: rows come in ascending.
type radix[K ~uint32 | ~uint64, R rowNum] struct {
	p    *pacer
	ties func(keys []K, rows []R) error
}

// sort sorts from the byte at shift down.
func (x *radix[K, R]) sort(keys []K, rows []R, shift uint) error {
	if len(keys) <= 64 {
		return x.sortSmall(keys, rows)
	}
	count, err := x.countBytes(keys, shift)
	if err != nil {
		return err
	}
	end, err := x.permute(keys, rows, shift, &count)
	if err != nil {
		return err
	}
	lo := 0
	for b := range 256 {
		hi := end[b]
		if hi-lo > 1 {
			switch {
			case shift > 0:
				err = x.sort(keys[lo:hi], rows[lo:hi], shift-8)
			case x.ties != nil:
				err = x.ties(keys[lo:hi], rows[lo:hi])
			default:
				err = sortAsc(rows[lo:hi], asUint32(keys[lo:hi]), x.p)
			}
			if err != nil {
				return err
			}
		}
		lo = hi
	}
	return nil
}

// sortSmall sorts a few keys by insertion, then hands each run of equal
// keys to ties, if set.
func (x *radix[K, R]) sortSmall(keys []K, rows []R) error {
	insertionSort(keys, rows)
	if err := x.p.did(len(keys)); err != nil || x.ties == nil {
		return err
	}
	for lo := 0; lo < len(keys); {
		hi := lo + 1
		for hi < len(keys) && keys[hi] == keys[lo] {
			hi++
		}
		if hi-lo > 1 {
			if err := x.ties(keys[lo:hi], rows[lo:hi]); err != nil {
				return err
			}
		}
		lo = hi
	}
	return nil
}

// countBytes counts the keys by their byte at shift.
func (x *radix[K, R]) countBytes(keys []K, shift uint) ([256]int, error) {
	var count [256]int
	for lo := 0; lo < len(keys); lo += paceStep {
		hi := min(len(keys), lo+paceStep)
		for _, k := range keys[lo:hi] {
			count[byte(k>>shift)]++
		}
		if err := x.p.did(hi - lo); err != nil {
			return count, err
		}
	}
	return count, nil
}

// permute moves the keys (and rows alongside) into their buckets by the
// byte at shift, whose sizes are count, in place; it returns the end of
// each bucket.
func (x *radix[K, R]) permute(keys []K, rows []R, shift uint, count *[256]int) ([256]int, error) {
	p := x.p
	var next, end [256]int
	pos, buckets := 0, 0
	for b, c := range count {
		next[b] = pos
		pos += c
		end[b] = pos
		if c > 0 {
			buckets++
		}
	}
	if buckets <= 1 {
		return end, nil
	}
	moved := 0
	for b := range 256 {
		for next[b] < end[b] {
			i := next[b]
			k, r := keys[i], rows[i]
			for c := byte(k >> shift); int(c) != b; c = byte(k >> shift) {
				j := next[c]
				next[c]++
				keys[j], k = k, keys[j]
				rows[j], r = r, rows[j]
				if moved++; moved >= paceStep {
					if err := p.did(moved); err != nil {
						return end, err
					}
					moved = 0
				}
			}
			keys[i], rows[i] = k, r
			next[b]++
			if moved++; moved >= paceStep {
				if err := p.did(moved); err != nil {
					return end, err
				}
				moved = 0
			}
		}
	}
	return end, p.did(moved)
}

// sortAsc sorts rows ascending (distinct row numbers): by the radix sort
// with scratch (as long, its contents lost) as the rows moved alongside.
func sortAsc[R rowNum](rows []R, scratch []uint32, p *pacer) error {
	sorted := true
	err := p.steps(len(rows), func(lo, hi int) {
		for i := max(lo, 1); i < hi && sorted; i++ {
			sorted = rows[i-1] < rows[i]
		}
	})
	if err != nil || sorted {
		return err
	}
	switch rs := any(rows).(type) {
	case []uint32:
		x := radix[uint32, uint32]{p: p}
		return x.sort(rs, scratch, 24)
	case []int64: // row numbers are not negative: they sort as unsigned
		x := radix[uint64, uint32]{p: p}
		return x.sort(unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(rs))), len(rs)), scratch, 56)
	}
	panic(fmt.Sprintf("query: rows of type %T", rows))
}

// asUint32 is keys' memory as as many uint32 (the first half of it for
// uint64 keys): scratch for sortAsc.
func asUint32[K ~uint32 | ~uint64](keys []K) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(keys))), len(keys))
}

func insertionSort[K ~uint32 | ~uint64, R rowNum](keys []K, rows []R) {
	for i := 1; i < len(keys); i++ {
		k, r := keys[i], rows[i]
		j := i
		for ; j > 0 && (keys[j-1] > k || keys[j-1] == k && rows[j-1] > r); j-- {
			keys[j], rows[j] = keys[j-1], rows[j-1]
		}
		keys[j], rows[j] = k, r
	}
}

// sortByBytes sorts rows by byte-string keys (key(r), bytes.Compare; a
// decimal's big-endian bytes), ties by row: by the radix sort of windows
// of their bytes, 7 at a time, each with a last byte telling how many of
// the key's bytes remain (8: more than 7), so that a key sorts before
// those it is a prefix of; the runs of keys equal in a window and going
// on past it are sorted by the next window, and so on. Past maxDepth
// bytes, a run left is sorted by comparing its keys.
func sortByBytes[R rowNum](rows []R, key func(R) []byte, desc bool, p *pacer) error {
	var flip uint64
	if desc {
		flip = ^flip
	}
	window := func(b []byte, depth int) uint64 {
		var buf [8]byte
		rest := len(b) - depth
		if rest > 0 {
			copy(buf[:7], b[depth:])
		}
		buf[7] = byte(min(max(rest, 0), 8))
		return binary.BigEndian.Uint64(buf[:]) ^ flip
	}
	fill := func(keys []uint64, rows []R, depth int) error {
		return p.steps(len(rows), func(lo, hi int) {
			for i, r := range rows[lo:hi] {
				keys[lo+i] = window(key(r), depth)
			}
		})
	}
	var ties func(depth int) func(keys []uint64, rows []R) error
	ties = func(depth int) func(keys []uint64, rows []R) error {
		return func(keys []uint64, rows []R) error {
			if byte(keys[0]^flip) < 8 { // equal keys, ended in this window
				return sortAsc(rows, asUint32(keys), p)
			}
			if depth+7 > maxDepth {
				return sortCompared(rows, key, depth+7, desc, p)
			}
			if err := fill(keys, rows, depth+7); err != nil {
				return err
			}
			x := radix[uint64, R]{p: p, ties: ties(depth + 7)}
			return x.sort(keys, rows, 56)
		}
	}
	keys := make([]uint64, len(rows))
	if err := fill(keys, rows, 0); err != nil {
		return err
	}
	x := radix[uint64, R]{p: p, ties: ties(0)}
	return x.sort(keys, rows, 56)
}

// maxDepth is how deep into byte keys sortByBytes goes by windows (each
// a level of recursion) before it compares the keys of the runs left.
const maxDepth = 256

// sortCompared sorts rows by their keys' bytes from depth on, ties by
// row, by comparisons: for the few runs of keys equal in their first
// maxDepth bytes.
func sortCompared[R rowNum](rows []R, key func(R) []byte, depth int, desc bool, p *pacer) error {
	tail := func(r R) []byte {
		b := key(r)
		return b[min(depth, len(b)):]
	}
	slices.SortFunc(rows, func(a, b R) int {
		c := bytes.Compare(tail(a), tail(b))
		if desc {
			c = -c
		}
		if c == 0 {
			return cmp.Compare(a, b)
		}
		return c
	})
	return p.did(len(rows))
}
