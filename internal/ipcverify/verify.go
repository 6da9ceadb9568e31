// Package ipcverify verifies Arrow IPC flatbuffer metadata (Footer and
// Message, format/File.fbs, Schema.fbs, Message.fbs) before arrow-go reads
// it. arrow-go reads IPC metadata with flatbuffers' generated accessors,
// which trust every offset and length: a footer, schema or message whose
// flatbuffer points outside itself makes them panic or, for vector lengths,
// allocate without bound (a fatal out-of-memory, which no recover catches).
// Message and Footer check, before arrow-go sees them, that every table,
// string and vector arrow-go may read lies within the bytes (the
// flatbuffers binary format: a table starts with a signed offset to its
// vtable; the vtable lists, per field, its offset in the table; references
// are unsigned offsets from where they are stored).
//
// The code is app/decode/verify.go's, exported for tensorext (arrow.turtle
// values and schemas); app/decode can call it instead of its copy.
package ipcverify

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Message header types (Message.fbs, union MessageHeader).
const (
	msgSchema          = 1
	msgDictionaryBatch = 2
	msgRecordBatch     = 3
)

var errFlatbuffer = errors.New("malformed IPC metadata (a flatbuffer offset or length points outside it)")

func kindName(kind int) string {
	switch kind {
	case msgSchema:
		return "schema"
	case msgDictionaryBatch:
		return "dictionary batch"
	}
	return "record batch"
}

// maxTables bounds the tables one verification visits (deeply nested or
// cyclic input); maxDepth bounds the nesting of fields.
const (
	maxTables = 1 << 20
	maxDepth  = 64
)

type verifier struct {
	buf   []byte
	steps int
}

// vtab is a verified table: its position, vtable and inline size.
type vtab struct {
	v           *verifier
	pos, vt     int
	vtLen, size int
}

func (v *verifier) u16(at int) int { return int(binary.LittleEndian.Uint16(v.buf[at:])) }

// table verifies the table at pos: its vtable and inline part lie in the
// buffer.
func (v *verifier) table(pos int) (vtab, error) {
	if v.steps++; v.steps > maxTables {
		return vtab{}, errors.New("malformed IPC metadata (too many tables)")
	}
	if pos < 0 || pos+4 > len(v.buf) {
		return vtab{}, errFlatbuffer
	}
	vt := pos - int(int32(binary.LittleEndian.Uint32(v.buf[pos:])))
	if vt < 0 || vt+4 > len(v.buf) {
		return vtab{}, errFlatbuffer
	}
	t := vtab{v: v, pos: pos, vt: vt, vtLen: v.u16(vt), size: v.u16(vt + 2)}
	if t.vtLen < 4 || t.vtLen%2 != 0 || vt+t.vtLen > len(v.buf) || t.size < 4 || pos+t.size > len(v.buf) {
		return vtab{}, errFlatbuffer
	}
	return t, nil
}

// off is field i's offset in the table, 0 when absent.
func (t vtab) off(i int) int {
	at := 4 + 2*i
	if at+2 > t.vtLen {
		return 0
	}
	return t.v.u16(t.vt + at)
}

// scalar verifies that field i, when present, holds n bytes in the table.
func (t vtab) scalar(i, n int) error {
	if o := t.off(i); o != 0 && o+n > t.size {
		return errFlatbuffer
	}
	return nil
}

// uint8 returns the byte field i (0 when absent).
func (t vtab) uint8(i int) (int, error) {
	if err := t.scalar(i, 1); err != nil {
		return 0, err
	}
	if o := t.off(i); o != 0 {
		return int(t.v.buf[t.pos+o]), nil
	}
	return 0, nil
}

// short returns the 16-bit field i and whether it is present.
func (t vtab) short(i int) (int, bool) {
	if o := t.off(i); o != 0 && o+2 <= t.size {
		return int(int16(binary.LittleEndian.Uint16(t.v.buf[t.pos+o:]))), true
	}
	return 0, false
}

// int32 returns the 32-bit field i and whether it is present.
func (t vtab) int32(i int) (int, bool) {
	if o := t.off(i); o != 0 && o+4 <= t.size {
		return int(int32(binary.LittleEndian.Uint32(t.v.buf[t.pos+o:]))), true
	}
	return 0, false
}

// enums checks that the enum (short) fields of a type table hold one of
// the values Schema.fbs defines: arrow-go panics on others.
func enums(t vtab, typ int) error {
	check := func(field, max int, what string) error {
		if v, ok := t.short(field); ok && (v < 0 || v > max) {
			return fmt.Errorf("malformed IPC schema: %s %d", what, v)
		}
		return nil
	}
	switch typ {
	case 2: // Int
		if w, ok := t.int32(0); ok && w != 8 && w != 16 && w != 32 && w != 64 {
			return fmt.Errorf("malformed IPC schema: an integer of %d bits", w)
		}
	case 7: // Decimal: precision, scale, bitWidth (128 when absent)
		w, ok := t.int32(2)
		if !ok {
			w = 128
		}
		maxPrec := map[int]int{32: 9, 64: 18, 128: 38, 256: 76}[w]
		p, _ := t.int32(0)
		sc, _ := t.int32(1)
		if maxPrec == 0 || p < 1 || p > maxPrec || sc < -maxPrec || sc > maxPrec {
			return fmt.Errorf("malformed IPC schema: a %d-bit decimal of precision %d and scale %d", w, p, sc)
		}
	case 15: // FixedSizeBinary
		if w, _ := t.int32(0); w < 0 {
			return fmt.Errorf("malformed IPC schema: a fixed-size binary of %d bytes", w)
		}
	case 16: // FixedSizeList: arrow-go cannot make one of size 0
		if n, _ := t.int32(0); n <= 0 {
			return fmt.Errorf("a fixed-size list of size %d, which arrow-go (the Arrow library tensorview uses) cannot read", n)
		}
	case 3: // FloatingPoint: HALF, SINGLE, DOUBLE
		return check(0, 2, "floating point precision")
	case 8: // Date: DAY, MILLISECOND
		return check(0, 1, "date unit")
	case 9, 10, 18: // Time, Timestamp, Duration: SECOND … NANOSECOND
		return check(0, 3, "time unit")
	case 11: // Interval: YEAR_MONTH, DAY_TIME, MONTH_DAY_NANO
		return check(0, 2, "interval unit")
	case typeUnion: // Sparse, Dense
		return check(0, 1, "union mode")
	}
	return nil
}

// ref returns where reference field i points; ok is false when absent.
func (t vtab) ref(i int) (at int, ok bool, err error) {
	o := t.off(i)
	if o == 0 {
		return 0, false, nil
	}
	if o+4 > t.size {
		return 0, false, errFlatbuffer
	}
	p := t.pos + o
	at = p + int(binary.LittleEndian.Uint32(t.v.buf[p:]))
	if at < 0 || at+4 > len(t.v.buf) {
		return 0, false, errFlatbuffer
	}
	return at, true, nil
}

// vec verifies vector field i of elements of n bytes; it returns where the
// elements start and how many there are (0, 0 when absent).
func (t vtab) vec(i, n int) (start, count int, err error) {
	at, ok, err := t.ref(i)
	if !ok || err != nil {
		return 0, 0, err
	}
	count = int(binary.LittleEndian.Uint32(t.v.buf[at:]))
	if int64(at)+4+int64(count)*int64(n) > int64(len(t.v.buf)) {
		return 0, 0, errFlatbuffer
	}
	return at + 4, count, nil
}

// str verifies string field i.
func (t vtab) str(i int) error {
	_, _, err := t.vec(i, 1)
	return err
}

// sub verifies table field i with check, when present.
func (t vtab) sub(i int, check func(vtab) error) error {
	at, ok, err := t.ref(i)
	if !ok || err != nil {
		return err
	}
	s, err := t.v.table(at)
	if err != nil {
		return err
	}
	return check(s)
}

// tables verifies vector field i of tables, each with check.
func (t vtab) tables(i int, check func(vtab) error) error {
	start, n, err := t.vec(i, 4)
	if err != nil {
		return err
	}
	for k := 0; k < n; k++ {
		p := start + 4*k
		s, err := t.v.table(p + int(binary.LittleEndian.Uint32(t.v.buf[p:])))
		if err != nil {
			return err
		}
		if err := check(s); err != nil {
			return err
		}
	}
	return nil
}

// scalars verifies fields of the given sizes, in field order.
func (t vtab) scalars(sizes ...int) error {
	for i, n := range sizes {
		if n > 0 {
			if err := t.scalar(i, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// keyValues verifies a [KeyValue] field (custom_metadata).
func keyValues(t vtab, i int) error {
	return t.tables(i, func(kv vtab) error {
		if err := kv.str(0); err != nil {
			return err
		}
		return kv.str(1)
	})
}

// The Type union of Schema.fbs: the scalar fields of each member's table
// (bytes per field, in field order). Members without fields are empty
// tables. Timestamp's timezone string and Union's typeIds vector are
// checked apart.
var typeFields = map[int][]int{
	1: nil, 2: {4, 1}, 3: {2}, 4: nil, 5: nil, 6: nil, 7: {4, 4, 4}, 8: {2}, 9: {2, 4},
	10: {2}, 11: {2}, 12: nil, 13: nil, 14: {2}, 15: {4}, 16: {4}, 17: {1}, 18: {2},
	19: nil, 20: nil, 21: nil, 22: nil, 23: nil, 24: nil, 25: nil, 26: nil,
}

const (
	typeTimestamp = 10
	typeUnion     = 14
)

// field verifies a Field table and its children.
func field(f vtab, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("malformed IPC schema: fields nested more than %d deep", maxDepth)
	}
	if err := f.str(0); err != nil { // name
		return err
	}
	if err := f.scalars(0, 1); err != nil { // nullable
		return err
	}
	typ, err := f.uint8(2)
	if err != nil {
		return err
	}
	sizes, known := typeFields[typ]
	if !known {
		return fmt.Errorf("malformed IPC schema: unknown type number %d", typ)
	}
	at, ok, err := f.ref(3)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("malformed IPC schema: a field of type number %d has no type table", typ)
	}
	tt, err := f.v.table(at)
	if err != nil {
		return err
	}
	if err := tt.scalars(sizes...); err != nil {
		return err
	}
	if err := enums(tt, typ); err != nil {
		return err
	}
	switch typ {
	case typeTimestamp:
		err = tt.str(1)
	case typeUnion:
		err = unionCodes(f, tt)
	}
	if err != nil {
		return err
	}
	err = f.sub(4, func(d vtab) error { // DictionaryEncoding
		if err := d.scalars(8, 0, 1, 2); err != nil {
			return err
		}
		// indexType, an Int: the spec reads an absent one as int32, but
		// arrow-go cannot (it reads an empty table).
		if _, ok, err := d.ref(1); err != nil {
			return err
		} else if !ok {
			return errors.New("malformed IPC schema: a dictionary-encoded field without an index type")
		}
		return d.sub(1, func(it vtab) error {
			if err := it.scalars(4, 1); err != nil {
				return err
			}
			return enums(it, 2)
		})
	})
	if err != nil {
		return err
	}
	if err := f.tables(5, func(c vtab) error { return field(c, depth+1) }); err != nil {
		return err
	}
	return keyValues(f, 6)
}

// unionCodes checks a Union's type codes: one per child, each in 0..127,
// none twice (arrow-go panics otherwise).
func unionCodes(f, u vtab) error {
	start, n, err := u.vec(1, 4)
	if err != nil {
		return err
	}
	_, children, err := f.vec(5, 4)
	if err != nil {
		return err
	}
	if start != 0 && n != children {
		return fmt.Errorf("malformed IPC schema: a union with %d type codes for %d children", n, children)
	}
	var seen [128]bool
	for k := 0; k < n; k++ {
		c := int32(binary.LittleEndian.Uint32(u.v.buf[start+4*k:]))
		if c < 0 || c > 127 || seen[c] {
			return fmt.Errorf("malformed IPC schema: union type code %d (codes are 0..127, each once)", c)
		}
		seen[c] = true
	}
	return nil
}

// schema verifies a Schema table.
func schema(s vtab) error {
	if err := s.scalars(2); err != nil { // endianness
		return err
	}
	if e, ok := s.short(0); ok && (e < 0 || e > 1) {
		return fmt.Errorf("malformed IPC schema: endianness %d", e)
	}
	if err := s.tables(1, func(f vtab) error { return field(f, 0) }); err != nil {
		return err
	}
	if err := keyValues(s, 2); err != nil {
		return err
	}
	_, _, err := s.vec(3, 8) // features
	return err
}

// recordBatch verifies a RecordBatch table.
func recordBatch(r vtab) error {
	if err := r.scalars(8); err != nil { // length
		return err
	}
	if _, _, err := r.vec(1, 16); err != nil { // nodes
		return err
	}
	_, nbufs, err := r.vec(2, 16) // buffers
	if err != nil {
		return err
	}
	err = r.sub(3, func(c vtab) error { // compression: LZ4_FRAME or ZSTD, by BUFFER
		if err := c.scalars(1, 1); err != nil {
			return err
		}
		if codec, _ := c.uint8(0); codec > 1 {
			return fmt.Errorf("malformed IPC message: compression codec %d", codec)
		}
		if method, _ := c.uint8(1); method != 0 {
			return fmt.Errorf("malformed IPC message: compression method %d", method)
		}
		return nil
	})
	if err != nil {
		return err
	}
	start, n, err := r.vec(4, 8) // variadicBufferCounts
	if err != nil {
		return err
	}
	for k := 0; k < n; k++ {
		if c := int64(binary.LittleEndian.Uint64(r.v.buf[start+8*k:])); c < 0 || c > int64(nbufs) {
			return fmt.Errorf("malformed IPC message: a variadic buffer count of %d for %d buffers", c, nbufs)
		}
	}
	return nil
}

// root verifies the root table of a flatbuffer with check.
func root(b []byte, check func(vtab) error) error {
	if len(b) < 4 {
		return errFlatbuffer
	}
	v := &verifier{buf: b}
	t, err := v.table(int(binary.LittleEndian.Uint32(b)))
	if err != nil {
		return err
	}
	return check(t)
}

// Footer verifies a Footer flatbuffer (File.fbs).
func Footer(b []byte) error {
	return root(b, func(f vtab) error {
		if err := f.scalars(2); err != nil { // version
			return err
		}
		if err := f.sub(1, schema); err != nil {
			return err
		}
		if _, _, err := f.vec(2, 24); err != nil { // dictionaries
			return err
		}
		if _, _, err := f.vec(3, 24); err != nil { // recordBatches
			return err
		}
		return keyValues(f, 4)
	})
}

// Message verifies a Message flatbuffer (Message.fbs) whose header is a
// Schema, DictionaryBatch or RecordBatch; other headers are not looked into.
// It also checks that a record batch's variadic buffer counts do not exceed
// its buffers (arrow-go sizes a slice by them).
func Message(b []byte) error {
	return root(b, func(m vtab) error {
		if err := m.scalars(2, 1, 0, 8); err != nil { // version, header_type, bodyLength
			return err
		}
		kind, err := m.uint8(1)
		if err != nil {
			return err
		}
		if _, ok, err := m.ref(2); err != nil {
			return err
		} else if !ok && kind >= msgSchema && kind <= msgRecordBatch {
			return fmt.Errorf("malformed IPC message: a %s message without its header", kindName(kind))
		}
		switch kind {
		case msgSchema:
			err = m.sub(2, schema)
		case msgDictionaryBatch:
			err = m.sub(2, func(d vtab) error {
				if err := d.scalars(8, 0, 1); err != nil { // id, isDelta
					return err
				}
				return d.sub(1, recordBatch)
			})
		case msgRecordBatch:
			err = m.sub(2, recordBatch)
		}
		if err != nil {
			return err
		}
		return keyValues(m, 4)
	})
}
