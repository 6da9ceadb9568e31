package ipcverify

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/tensorview/tensorview/internal/flatbuf"
)

// Message header types: the members of Message.fbs's union MessageHeader
// (a Message's field 1, header_type).
const (
	HeaderSchema          = 1
	HeaderDictionaryBatch = 2
	HeaderRecordBatch     = 3
	HeaderTensor          = 4
	HeaderSparseTensor    = 5
)

// HeaderName names a message by its header type, as errors say it:
// "schema", "dictionary batch", and "record batch" for any other kind.
func HeaderName(kind int) string {
	switch kind {
	case HeaderSchema:
		return "schema"
	case HeaderDictionaryBatch:
		return "dictionary batch"
	}
	return "record batch"
}

// MaxDepth bounds the nesting of Field tables (a field's children) that
// Footer and Message accept: a schema nested deeper is refused.
const MaxDepth = 64

// enums checks that the enum (short) fields of a type table hold one of
// the values Schema.fbs defines: arrow-go panics on others.
func enums(t flatbuf.Table, typ int) error {
	check := func(field, max int, what string) error {
		if v, ok := t.Int16(field); ok && (v < 0 || v > max) {
			return fmt.Errorf("malformed IPC schema: %s %d", what, v)
		}
		return nil
	}
	switch typ {
	case 2: // Int
		if w, ok := t.Int32(0); ok && w != 8 && w != 16 && w != 32 && w != 64 {
			return fmt.Errorf("malformed IPC schema: an integer of %d bits", w)
		}
	case 7: // Decimal: precision, scale, bitWidth (128 when absent)
		w, ok := t.Int32(2)
		if !ok {
			w = 128
		}
		maxPrec := map[int]int{32: 9, 64: 18, 128: 38, 256: 76}[w]
		p, _ := t.Int32(0)
		sc, _ := t.Int32(1)
		if maxPrec == 0 || p < 1 || p > maxPrec || sc < -maxPrec || sc > maxPrec {
			return fmt.Errorf("malformed IPC schema: a %d-bit decimal of precision %d and scale %d", w, p, sc)
		}
	case 15: // FixedSizeBinary
		if w, _ := t.Int32(0); w < 0 {
			return fmt.Errorf("malformed IPC schema: a fixed-size binary of %d bytes", w)
		}
	case 16: // FixedSizeList: arrow-go cannot make one of size 0
		if n, _ := t.Int32(0); n <= 0 {
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

// keyValues verifies a [KeyValue] field (custom_metadata).
func keyValues(t flatbuf.Table, i int) error {
	return tables(t, i, func(kv flatbuf.Table) error {
		if err := str(kv, 0); err != nil {
			return err
		}
		return str(kv, 1)
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
func field(f flatbuf.Table, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("malformed IPC schema: fields nested more than %d deep", MaxDepth)
	}
	if err := str(f, 0); err != nil { // name
		return err
	}
	if err := f.Scalars(0, 1); err != nil { // nullable
		return err
	}
	typ, err := f.Uint8(2)
	if err != nil {
		return err
	}
	sizes, known := typeFields[typ]
	if !known {
		return fmt.Errorf("malformed IPC schema: unknown type number %d", typ)
	}
	at, ok, err := f.Ref(3)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("malformed IPC schema: a field of type number %d has no type table", typ)
	}
	tt, err := f.TableAt(at)
	if err != nil {
		return err
	}
	if err := tt.Scalars(sizes...); err != nil {
		return err
	}
	if err := enums(tt, typ); err != nil {
		return err
	}
	switch typ {
	case typeTimestamp:
		err = str(tt, 1)
	case typeUnion:
		err = unionCodes(f, tt)
	}
	if err != nil {
		return err
	}
	err = sub(f, 4, func(d flatbuf.Table) error { // DictionaryEncoding
		if err := d.Scalars(8, 0, 1, 2); err != nil {
			return err
		}
		// indexType, an Int: the spec reads an absent one as int32, but
		// arrow-go cannot (it reads an empty table).
		if _, ok, err := d.Ref(1); err != nil {
			return err
		} else if !ok {
			return errors.New("malformed IPC schema: a dictionary-encoded field without an index type")
		}
		return sub(d, 1, func(it flatbuf.Table) error {
			if err := it.Scalars(4, 1); err != nil {
				return err
			}
			return enums(it, 2)
		})
	})
	if err != nil {
		return err
	}
	if err := tables(f, 5, func(c flatbuf.Table) error { return field(c, depth+1) }); err != nil {
		return err
	}
	return keyValues(f, 6)
}

// unionCodes checks a Union's type codes: one per child, each in 0..127,
// none twice (arrow-go panics otherwise).
func unionCodes(f, u flatbuf.Table) error {
	start, n, err := u.Vector(1, 4)
	if err != nil {
		return err
	}
	_, children, err := f.Vector(5, 4)
	if err != nil {
		return err
	}
	if start != 0 && n != children {
		return fmt.Errorf("malformed IPC schema: a union with %d type codes for %d children", n, children)
	}
	var seen [128]bool
	for k := 0; k < n; k++ {
		c := int32(binary.LittleEndian.Uint32(u.Bytes()[start+4*k:]))
		if c < 0 || c > 127 || seen[c] {
			return fmt.Errorf("malformed IPC schema: union type code %d (codes are 0..127, each once)", c)
		}
		seen[c] = true
	}
	return nil
}

// schema verifies a Schema table.
func schema(s flatbuf.Table) error {
	if err := s.Scalars(2); err != nil { // endianness
		return err
	}
	if e, ok := s.Int16(0); ok && (e < 0 || e > 1) {
		return fmt.Errorf("malformed IPC schema: endianness %d", e)
	}
	if err := tables(s, 1, func(f flatbuf.Table) error { return field(f, 0) }); err != nil {
		return err
	}
	if err := keyValues(s, 2); err != nil {
		return err
	}
	_, _, err := s.Vector(3, 8) // features
	return err
}

// recordBatch verifies a RecordBatch table.
func recordBatch(r flatbuf.Table) error {
	if err := r.Scalars(8); err != nil { // length
		return err
	}
	if _, _, err := r.Vector(1, 16); err != nil { // nodes
		return err
	}
	_, nbufs, err := r.Vector(2, 16) // buffers
	if err != nil {
		return err
	}
	err = sub(r, 3, func(c flatbuf.Table) error { // compression: LZ4_FRAME or ZSTD, by BUFFER
		if err := c.Scalars(1, 1); err != nil {
			return err
		}
		if codec, _ := c.Uint8(0); codec > 1 {
			return fmt.Errorf("malformed IPC message: compression codec %d", codec)
		}
		if method, _ := c.Uint8(1); method != 0 {
			return fmt.Errorf("malformed IPC message: compression method %d", method)
		}
		return nil
	})
	if err != nil {
		return err
	}
	start, n, err := r.Vector(4, 8) // variadicBufferCounts
	if err != nil {
		return err
	}
	for k := 0; k < n; k++ {
		if c := int64(binary.LittleEndian.Uint64(r.Bytes()[start+8*k:])); c < 0 || c > int64(nbufs) {
			return fmt.Errorf("malformed IPC message: a variadic buffer count of %d for %d buffers", c, nbufs)
		}
	}
	return nil
}

// Footer verifies a Footer flatbuffer (File.fbs): its schema, its
// dictionaries and recordBatches vectors of Block structs, its
// custom_metadata.
func Footer(b []byte) error {
	f, err := flatbuf.Root(b)
	if err != nil {
		return err
	}
	if err := f.Scalars(2); err != nil { // version
		return err
	}
	if err := sub(f, 1, schema); err != nil {
		return err
	}
	if _, _, err := f.Vector(2, 24); err != nil { // dictionaries
		return err
	}
	if _, _, err := f.Vector(3, 24); err != nil { // recordBatches
		return err
	}
	return keyValues(f, 4)
}

// Message verifies a Message flatbuffer (Message.fbs) whose header is a
// Schema, DictionaryBatch or RecordBatch; other headers (Tensor,
// SparseTensor) are not looked into: their readers verify them with flatbuf.Table.
// It also checks that a record batch's variadic buffer counts do not exceed
// its buffers (arrow-go sizes a slice by them).
func Message(b []byte) error {
	m, err := flatbuf.Root(b)
	if err != nil {
		return err
	}
	if err := m.Scalars(2, 1, 0, 8); err != nil { // version, header_type, bodyLength
		return err
	}
	kind, err := m.Uint8(1)
	if err != nil {
		return err
	}
	if _, ok, err := m.Ref(2); err != nil {
		return err
	} else if !ok && kind >= HeaderSchema && kind <= HeaderRecordBatch {
		return fmt.Errorf("malformed IPC message: a %s message without its header", HeaderName(kind))
	}
	switch kind {
	case HeaderSchema:
		err = sub(m, 2, schema)
	case HeaderDictionaryBatch:
		err = sub(m, 2, func(d flatbuf.Table) error {
			if err := d.Scalars(8, 0, 1); err != nil { // id, isDelta
				return err
			}
			return sub(d, 1, recordBatch)
		})
	case HeaderRecordBatch:
		err = sub(m, 2, recordBatch)
	}
	if err != nil {
		return err
	}
	return keyValues(m, 4)
}

// ErrFlatbuffer is the error of a flatbuffer offset or length that points
// outside the buffer (or of a table too short for the field it declares):
// flatbuf.ErrMalformed.
var ErrFlatbuffer = flatbuf.ErrMalformed

// str verifies string field i of t.
func str(t flatbuf.Table, i int) error {
	_, _, err := t.Vector(i, 1)
	return err
}

// sub verifies table field i of t with check, when present.
func sub(t flatbuf.Table, i int, check func(flatbuf.Table) error) error {
	s, ok, err := t.TableField(i)
	if !ok || err != nil {
		return err
	}
	return check(s)
}

// tables verifies vector field i of t, of tables, each with check.
func tables(t flatbuf.Table, i int, check func(flatbuf.Table) error) error {
	return t.Tables(i, func(_ int, e flatbuf.Table) error { return check(e) })
}
