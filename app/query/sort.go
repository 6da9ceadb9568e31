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
	arena     []byte
	offs      []int64
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
	valid := func(i int) bool {
		if arr.IsNull(i) {
			setBit(&k.null, base+int64(i))
			return false
		}
		return true
	}
	if d, ok := arr.(*array.Dictionary); ok {
		return k.addDict(d, start, end, base)
	}
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
				k.arena = appendBytesKey(k.arena, arr, i)
			}
			k.offs = append(k.offs, int64(len(k.arena)))
		}
	}
	k.n += int64(end - start)
	return nil
}

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
			out[i] = floatKey32(v.Float32())
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

// addDict adds dictionary-encoded rows: their values' keys, computed once
// per dictionary entry.
func (k *Keys) addDict(d *array.Dictionary, start, end int, base int64) error {
	dict := d.Dictionary()
	n := dict.Len()
	idx := make([]int, end-start)
	for i := range idx {
		idx[i] = -1
		if d.IsValid(start + i) {
			idx[i] = d.GetValueIndex(start + i)
		}
	}
	entryNull := func(j int) bool { return j < 0 || j >= n || dict.IsNull(j) }
	switch k.s.kind {
	case vecDict:
		sv := dict.(stringValues)
		ids := make([]uint32, n)
		for j := range ids {
			if !entryNull(j) {
				ids[j] = k.intern(sv.Value(j))
			}
		}
		for i, j := range idx {
			var id uint32
			if entryNull(j) {
				setBit(&k.null, base+int64(start+i))
			} else {
				id = ids[j]
			}
			k.u32 = append(k.u32, id)
		}
	case vec32, vec64:
		var e32 []uint32
		var e64 []uint64
		var err error
		if k.s.kind == vec32 {
			e32, err = keys32(nil, dict, 0, n)
		} else {
			e64, err = keys64(nil, dict, 0, n)
		}
		if err != nil {
			return err
		}
		for i, j := range idx {
			r := base + int64(start+i)
			null := entryNull(j)
			if null {
				setBit(&k.null, r)
				j = -1
			}
			if k.s.kind == vec32 {
				key := uint32(0)
				if j >= 0 {
					key = e32[j]
					if isNaN32(dict, key) {
						setBit(&k.nan, r)
					}
				}
				k.u32 = append(k.u32, key)
			} else {
				key := uint64(0)
				if j >= 0 {
					key = e64[j]
					if dict.DataType().ID() == arrow.FLOAT64 && key > nanKey64 {
						setBit(&k.nan, r)
					}
				}
				k.u64 = append(k.u64, key)
			}
		}
	case vecBytes:
		for i, j := range idx {
			if entryNull(j) {
				setBit(&k.null, base+int64(start+i))
			} else {
				k.arena = appendBytesKey(k.arena, dict, j)
			}
			k.offs = append(k.offs, int64(len(k.arena)))
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
// rows when there are fewer than 2^32, else int64.
type Perm struct {
	u32 []uint32
	i64 []int64
}

// Len returns the number of rows.
func (p Perm) Len() int { return len(p.u32) + len(p.i64) }

// At returns the row at position i of the order.
func (p Perm) At(i int) int64 {
	if p.u32 != nil {
		return int64(p.u32[i])
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
}

// did counts n elements of work and paces every 64Ki.
func (p *pacer) did(n int) error {
	p.work += n
	if p.work < 1<<16 {
		return nil
	}
	p.work = 0
	if err := p.ctx.Err(); err != nil {
		return err
	}
	if p.pace != nil {
		return p.pace()
	}
	return nil
}

type rowNum interface{ ~uint32 | ~int64 }

func sortRows[R rowNum](k *Keys, p *pacer) ([]R, error) {
	if err := p.ctx.Err(); err != nil {
		return nil, err
	}
	desc := k.s.key.Desc
	n := k.n
	// The valid rows, in order; then the NaN rows, then the nulls.
	rows := make([]R, 0, n)
	var nanRows, nullRows []R
	for r := int64(0); r < n; r++ {
		switch {
		case hasBit(k.null, r):
			nullRows = append(nullRows, R(r))
		case hasBit(k.nan, r):
			nanRows = append(nanRows, R(r))
		default:
			rows = append(rows, R(r))
		}
	}
	var err error
	switch k.s.kind {
	case vecDict:
		rank := rankStrings(k.values)
		for i, id := range k.u32 {
			k.u32[i] = rank[id]
		}
		fallthrough
	case vec32:
		err = sortFixed(k.u32, rows, desc, p)
		k.u32 = nil
	case vec64:
		err = sortFixed(k.u64, rows, desc, p)
		k.u64 = nil
	case vecBytes:
		err = sortBytes(k, rows, desc, p)
	}
	if err != nil {
		return nil, err
	}
	rows = append(rows, nanRows...)
	return append(rows, nullRows...), nil
}

// sortFixed sorts rows by their keys (one a row added), in place.
func sortFixed[K ~uint32 | ~uint64, R rowNum](keys []K, rows []R, desc bool, p *pacer) error {
	keys = compact(keys, rows)
	if desc {
		for i := range keys {
			keys[i] = ^keys[i]
		}
	}
	return radixSort(keys, rows, uint(8*unsafe.Sizeof(keys[0])-8), p)
}

// compact keeps the keys of rows (ascending), in place.
func compact[K any, R rowNum](keys []K, rows []R) []K {
	for i, r := range rows {
		keys[i] = keys[r]
	}
	return keys[:len(rows)]
}

// rankStrings returns each string's rank in sorted order.
func rankStrings(values []string) []uint32 {
	order := make([]int, len(values))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(values[a], values[b]) })
	rank := make([]uint32, len(values))
	for r, i := range order {
		rank[i] = uint32(r)
	}
	return rank
}

// radixSort sorts keys ascending, moving rows alongside, in place (MSD
// radix, "American flag" sort), from the byte at shift down; rows of
// equal keys come out ascending (they go in ascending, and each bucket of
// equal keys is sorted by row), so the order is stable.
func radixSort[K ~uint32 | ~uint64, R rowNum](keys []K, rows []R, shift uint, p *pacer) error {
	if len(keys) <= 64 {
		insertionSort(keys, rows)
		return nil
	}
	var count [256]int
	for _, k := range keys {
		count[byte(k>>shift)]++
	}
	if err := p.did(len(keys)); err != nil {
		return err
	}
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
	if buckets > 1 {
		for b := range 256 {
			for next[b] < end[b] {
				i := next[b]
				k, r := keys[i], rows[i]
				for c := byte(k >> shift); int(c) != b; c = byte(k >> shift) {
					j := next[c]
					next[c]++
					keys[j], k = k, keys[j]
					rows[j], r = r, rows[j]
				}
				keys[i], rows[i] = k, r
				next[b]++
			}
		}
		if err := p.did(len(keys)); err != nil {
			return err
		}
	}
	lo := 0
	for b := range 256 {
		hi := end[b]
		if hi-lo > 1 {
			var err error
			if shift == 0 {
				slices.Sort(rows[lo:hi]) // equal keys: by row
				err = p.did(hi - lo)
			} else {
				err = radixSort(keys[lo:hi], rows[lo:hi], shift-8, p)
			}
			if err != nil {
				return err
			}
		}
		lo = hi
	}
	return nil
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

// sortBytes sorts rows by byte-string keys: by their first 8 bytes with
// the radix sort, then each run of equal prefixes by the whole keys.
func sortBytes[R rowNum](k *Keys, rows []R, desc bool, p *pacer) error {
	key := func(r R) []byte { return k.arena[k.offs[r]:k.offs[r+1]] }
	prefix := make([]uint64, len(rows))
	for i, r := range rows {
		var buf [8]byte
		copy(buf[:], key(r))
		prefix[i] = binary.BigEndian.Uint64(buf[:])
		if desc {
			prefix[i] = ^prefix[i]
		}
	}
	if err := radixSort(prefix, rows, 56, p); err != nil {
		return err
	}
	for lo := 0; lo < len(rows); {
		hi := lo + 1
		for hi < len(rows) && prefix[hi] == prefix[lo] {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(rows[lo:hi], func(a, b R) int {
				c := bytes.Compare(key(a), key(b))
				if desc {
					c = -c
				}
				if c == 0 {
					return cmp.Compare(a, b)
				}
				return c
			})
			if err := p.did(hi - lo); err != nil {
				return err
			}
		}
		lo = hi
	}
	return nil
}
