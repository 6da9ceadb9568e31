package decode

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/internal/flatbuf"
	"github.com/tensorview/tensorview/internal/ipcverify"
)

// This file reads just enough of the Arrow IPC flatbuffers (Footer, Message,
// RecordBatch; format/File.fbs, Message.fbs) to locate record batches and
// count their rows without decoding them. Decoding stays with arrow-go.
// Footers and messages are verified first by internal/ipcverify (every
// offset and length arrow-go may follow); the reads here, with
// internal/flatbuf, check again what they read.

// errFlatbuffer is ipcverify's error for a flatbuffer offset or length
// that points outside the metadata.
var errFlatbuffer = ipcverify.ErrFlatbuffer

// maxDepth bounds the nesting of schema fields: ipcverify refuses schemas
// nested deeper, the readers here expect no more.
const maxDepth = ipcverify.MaxDepth

// block is a Block of the IPC file footer: where one message is.
type block struct {
	offset  int64 // of the message's prefix
	metaLen int64 // prefix + metadata + padding
	bodyLen int64
}

// parseFooter returns the dictionary and record batch blocks of a Footer.
func parseFooter(b []byte) (dicts, batches []block, err error) {
	if err := ipcverify.Footer(b); err != nil {
		return nil, nil, err
	}
	root, err := flatbuf.Root(b)
	if err != nil {
		return nil, nil, err
	}
	read := func(field int) ([]block, error) {
		start, n, err := root.Vector(field, 24)
		if err != nil {
			return nil, err
		}
		out := make([]block, n)
		for k := range out {
			p := start + 24*k
			out[k] = block{
				offset:  int64(binary.LittleEndian.Uint64(b[p:])),
				metaLen: int64(int32(binary.LittleEndian.Uint32(b[p+8:]))),
				bodyLen: int64(binary.LittleEndian.Uint64(b[p+16:])),
			}
		}
		return out, nil
	}
	if dicts, err = read(2); err != nil {
		return nil, nil, err
	}
	batches, err = read(3)
	return dicts, batches, err
}

// Message header types (Message.fbs, union MessageHeader).
const (
	msgSchema          = ipcverify.HeaderSchema
	msgDictionaryBatch = ipcverify.HeaderDictionaryBatch
	msgRecordBatch     = ipcverify.HeaderRecordBatch
	msgTensor          = ipcverify.HeaderTensor
	msgSparseTensor    = ipcverify.HeaderSparseTensor
)

// messageInfo is what the Message flatbuffer says about one message.
type messageInfo struct {
	kind    uint8
	bodyLen int64
	rows    int64 // record batches: the batch's length
	// compressed is set by File.readBlock when the body is compressed.
	compressed bool
}

// parseMessage reads a Message flatbuffer (the metadata, without prefix).
// It also rejects vector lengths that run past the metadata, which would
// make arrow-go allocate without bound (a fatal out-of-memory no recover
// can catch).
func parseMessage(b []byte) (messageInfo, error) {
	if err := ipcverify.Message(b); err != nil {
		return messageInfo{}, err
	}
	root, err := flatbuf.Root(b)
	if err != nil {
		return messageInfo{}, err
	}
	var m messageInfo
	kind, err := root.Uint8(1)
	if err != nil {
		return m, err
	}
	m.kind = uint8(kind)
	if m.bodyLen, err = root.Int64(3); err != nil {
		return m, err
	}
	if m.kind == msgRecordBatch {
		rb, ok, err := root.TableField(2)
		if err != nil {
			return m, err
		}
		if ok {
			if m.rows, err = rb.Int64(0); err != nil {
				return m, err
			}
		}
	}
	if m.bodyLen < 0 || m.rows < 0 {
		return m, fmt.Errorf("negative length in IPC message metadata")
	}
	if m.rows > maxLength {
		return m, fmt.Errorf("a record batch claims %d rows", m.rows)
	}
	return m, nil
}

// messagePrefix decodes an encapsulated message's prefix: the continuation
// marker 0xFFFFFFFF and the metadata size, or (before Arrow 0.15) the size
// alone. It returns the prefix length and the metadata size; size 0 is the
// end-of-stream marker.
func messagePrefix(b []byte) (prefix int, size int64, err error) {
	if len(b) < 4 {
		return 0, 0, errors.New("truncated message prefix")
	}
	v := binary.LittleEndian.Uint32(b)
	if v != 0xFFFFFFFF {
		return 4, int64(int32(v)), nil
	}
	if len(b) < 8 {
		return 0, 0, errors.New("truncated message prefix")
	}
	return 8, int64(int32(binary.LittleEndian.Uint32(b[4:]))), nil
}

// fieldNode and ipcBuffer are the FieldNode and Buffer structs of a
// RecordBatch message (Message.fbs).
type fieldNode struct{ length, nulls int64 }
type ipcBuffer struct{ offset, length int64 }

// batchLayout is a RecordBatch message's description of its body (for a
// DictionaryBatch message, of its data).
type batchLayout struct {
	version    int // the message's MetadataVersion (Schema.fbs: V1 = 0 … V5 = 4)
	rows       int64
	nodes      []fieldNode
	buffers    []ipcBuffer
	variadic   []int64
	compressed bool
	codec      byte  // compressed bodies: BodyCompression's codec (0 LZ4_FRAME, 1 ZSTD)
	legacy     bool  // compressed the Arrow 0.17 way (see legacy.go)
	dictID     int64 // dictionary batches: the dictionary's id
	delta      bool  // dictionary batches: adds to the dictionary
}

// parseBatchLayout reads the nodes and buffers of a RecordBatch or
// DictionaryBatch Message flatbuffer (the metadata, without prefix).
func parseBatchLayout(b []byte) (batchLayout, error) {
	var l batchLayout
	root, err := flatbuf.Root(b)
	if err != nil {
		return l, err
	}
	if v, ok := root.Int16(0); ok {
		l.version = v // arrow-go reads a signed short
	}
	kind, err := root.Uint8(1)
	if err != nil || (kind != msgRecordBatch && kind != msgDictionaryBatch) {
		return l, orErr(err, "not a record batch message")
	}
	rb, ok, err := root.TableField(2)
	if err != nil || !ok {
		return l, orErr(err, "record batch message without a header")
	}
	if kind == msgDictionaryBatch {
		if l.dictID, err = rb.Int64(0); err != nil {
			return l, err
		}
		d, err := rb.Uint8(2)
		if err != nil {
			return l, err
		}
		l.delta = d != 0
		if rb, ok, err = rb.TableField(1); err != nil || !ok {
			return l, orErr(err, "dictionary batch message without data")
		}
	}
	if l.rows, err = rb.Int64(0); err != nil {
		return l, err
	}
	start, n, err := rb.Vector(1, 16)
	if err != nil {
		return l, err
	}
	for k := 0; k < n; k++ {
		p := start + 16*k
		l.nodes = append(l.nodes, fieldNode{int64(binary.LittleEndian.Uint64(b[p:])), int64(binary.LittleEndian.Uint64(b[p+8:]))})
	}
	if start, n, err = rb.Vector(2, 16); err != nil {
		return l, err
	}
	for k := 0; k < n; k++ {
		p := start + 16*k
		l.buffers = append(l.buffers, ipcBuffer{int64(binary.LittleEndian.Uint64(b[p:])), int64(binary.LittleEndian.Uint64(b[p+8:]))})
	}
	if start, n, err = rb.Vector(4, 8); err != nil {
		return l, err
	}
	for k := 0; k < n; k++ {
		l.variadic = append(l.variadic, int64(binary.LittleEndian.Uint64(b[start+8*k:])))
	}
	c, ok, err := rb.TableField(3)
	if err != nil {
		return l, err
	}
	if ok {
		codec, err := c.Uint8(0)
		if err != nil {
			return l, err
		}
		l.compressed, l.codec = true, byte(codec)
	}
	if codec, legacy, err := legacyCodec(b); legacy {
		l.compressed, l.codec, l.legacy = true, codec, true
	} else if err != nil {
		return l, err
	}
	return l, nil
}

func orErr(err error, msg string) error {
	if err != nil {
		return err
	}
	return errors.New(msg)
}

// footerWithoutDictionaries returns a copy of an IPC file's Footer
// flatbuffer (verified) whose dictionaries vector is empty, verified again:
// the copy is what arrow-go reads the schema from.
func footerWithoutDictionaries(footer []byte) ([]byte, error) {
	root, err := flatbuf.Root(footer)
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), footer...)
	start, n, err := root.Vector(2, 24)
	if err != nil || n == 0 {
		return out, err
	}
	binary.LittleEndian.PutUint32(out[start-4:], 0)
	// A hostile footer can lay other tables over the vector's length
	// (flatbuffers do not forbid overlaps): verify what arrow-go will read.
	if err := ipcverify.Footer(out); err != nil {
		return nil, err
	}
	return out, nil
}

// Where a Schema table is: field 1 of a Footer (File.fbs), field 2 of a
// Message (Message.fbs: its header, a Schema in a schema message).
const (
	footerSchema  = 1
	messageHeader = 2
)

// dictValueTypes maps each dictionary id of a schema to its value type: it
// walks the Field tables of the Schema flatbuffer (a Footer or a schema
// Message, verified; whose schema field is given by which) beside the
// fields arrow-go read from it. which is footerSchema or messageHeader.
func dictValueTypes(fb []byte, which int, schema *arrow.Schema) (map[int64]arrow.DataType, error) {
	root, err := flatbuf.Root(fb)
	if err != nil {
		return nil, err
	}
	sc, ok, err := root.TableField(which)
	if err != nil || !ok {
		return nil, orErr(err, "no schema")
	}
	out := map[int64]arrow.DataType{}
	var walk func(t flatbuf.Table, vec int, fields []arrow.Field, depth int) error
	walk = func(t flatbuf.Table, vec int, fields []arrow.Field, depth int) error {
		start, n, err := t.Vector(vec, 4)
		if err != nil {
			return err
		}
		if n != len(fields) || depth > maxDepth {
			return fmt.Errorf("the schema's fields do not match arrow-go's reading of them")
		}
		for k := 0; k < n; k++ {
			ft, err := t.VectorTable(start, k)
			if err != nil {
				return err
			}
			typ := fields[k].Type
			if ext, ok := typ.(arrow.ExtensionType); ok {
				typ = ext.StorageType()
			}
			if d, ok, err := ft.TableField(4); err != nil {
				return err
			} else if ok {
				id, err := d.Int64(0)
				if err != nil {
					return err
				}
				dt, isDict := typ.(*arrow.DictionaryType)
				if !isDict {
					return fmt.Errorf("the schema's fields do not match arrow-go's reading of them")
				}
				out[id] = dt.ValueType
				typ = dt.ValueType
				if ext, ok := typ.(arrow.ExtensionType); ok {
					typ = ext.StorageType()
				}
			}
			var children []arrow.Field
			if nt, ok := typ.(arrow.NestedType); ok {
				children = nt.Fields()
			}
			if err := walk(ft, 5, children, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return out, walk(sc, 1, schema.Fields(), 0)
}
