package turtle

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/internal/extbase"
)

// Name is the extension name of the turtle type (arrow.turtle
// proposal, dev@arrow.apache.org, branch westonpace/arrow
// feat/turtle-extension-type). The proposal was never made canonical.
const Name = "arrow.turtle"

// ErrNull is returned by Array's Stream and Batch for a null row
// (the struct or its value field null).
var ErrNull = errors.New("turtle: turtle value is null")

func init() {
	if err := arrow.RegisterExtensionType(&Type{}); err != nil {
		panic(err)
	}
}

// Type is the arrow.turtle extension type: every row is a label and a
// whole record batch of a declared schema, stored as
// Struct<label: utf8, value: binary>, the value being the batch in the Arrow
// IPC streaming format. A batch may itself have turtle columns, so turtles
// nest to any depth (arrow.turtle proposal, dev@arrow.apache.org, branch
// westonpace/arrow feat/turtle-extension-type).
//
// Its one parameter is the schema of the batches, stored in the metadata as
// {"schema": "<base64 of the schema serialized as an IPC stream>"}.
//
// Read leniently (Deserialize, recorded for Validate, rows still readable):
// large_utf8 or utf8_view labels, large_binary or binary_view values, the
// struct's fields in another order or with extra fields, the schema in
// unpadded or URL-safe base64, and schema bytes with messages after the
// Schema message.
type Type struct {
	arrow.ExtensionBase
	schema      *arrow.Schema
	schemaMsg   ipcMessage // the declared schema's Schema message
	schemaFrame []byte     // schemaMsg framed: the first message of every Stream
	schemaIPC   []byte     // the schema as an IPC stream (Schema message, EOS)
	raw         string     // the metadata Deserialize read
	fromRaw     bool
	labelIdx    int
	valueIdx    int
	err         error // rows cannot be read: why
	note        error // rows are read, leniently: why the type does not conform
}

// turtleStorage is the proposal's storage type.
func turtleStorage() arrow.DataType {
	return arrow.StructOf(
		arrow.Field{Name: "label", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "value", Type: arrow.BinaryTypes.Binary, Nullable: true},
	)
}

// NewType returns the turtle type whose rows are record batches of
// schema, with storage Struct<label: utf8, value: binary>. It returns an
// error for a nil schema or one arrow-go's IPC writer cannot serialize.
func NewType(schema *arrow.Schema) (*Type, error) {
	if schema == nil {
		return nil, errors.New("turtle: schema must not be nil")
	}
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema))
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("turtle: cannot serialize schema: %w", err)
	}
	t := &Type{ExtensionBase: arrow.ExtensionBase{Storage: turtleStorage()}, valueIdx: 1}
	if err := t.setSchema(buf.Bytes()); err != nil {
		return nil, fmt.Errorf("turtle: %w", err)
	}
	t.schema = schema
	t.note = nil
	return t, nil
}

// ExtensionName returns "arrow.turtle".
func (*Type) ExtensionName() string { return Name }

// Schema returns the declared schema of the rows' record batches, or nil when
// the metadata could not be read (Validate says why).
func (t *Type) Schema() *arrow.Schema { return t.schema }

// Validate reports why the type does not conform to the proposal: metadata
// that is not a JSON object with a base64 "schema" string holding an IPC
// Schema message (the rows cannot be read), or something read leniently
// (see Type). It returns nil for a conforming type.
func (t *Type) Validate() error {
	if t.err != nil {
		return t.err
	}
	return t.note
}

// Serialize returns the extension metadata: the text Deserialize read, kept
// byte for byte, or for a type from NewType
// {"schema":"<standard padded base64 of the IPC stream: Schema message, end-of-stream marker>"}.
func (t *Type) Serialize() string {
	if t.fromRaw {
		return t.raw
	}
	return `{"schema":"` + base64.StdEncoding.EncodeToString(t.schemaIPC) + `"}`
}

// Deserialize returns the type described by storage and metadata. It never
// returns an error, because arrow-go fails a whole IPC schema read on one:
// problems are recorded for Validate, and a type whose schema could not be
// read has rows whose Label and Value still work but whose Stream and Batch
// return the error.
func (*Type) Deserialize(storage arrow.DataType, data string) (arrow.ExtensionType, error) {
	t := &Type{ExtensionBase: arrow.ExtensionBase{Storage: storage}, raw: data, fromRaw: true, valueIdx: 1}
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.schema, t.err = nil, fmt.Errorf("schema cannot be decoded: %v", r)
			}
		}()
		t.err = t.parse(storage, data)
	}()
	return t, nil
}

func (t *Type) parse(storage arrow.DataType, data string) error {
	if err := t.parseStorage(storage); err != nil {
		return err
	}
	obj, err := extbase.MetadataObject(data)
	if err != nil {
		return err
	}
	raw, ok := obj["schema"]
	if !ok || extbase.IsNull(raw) {
		return errors.New(`extension metadata has no "schema"`)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf("schema must be a base64 string, got %s", extbase.Clip(raw))
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			if alt, altErr := enc.DecodeString(s); altErr == nil {
				b, err = alt, nil
				t.addNote(errors.New("schema is not padded standard base64 (RFC 4648 section 4)"))
				break
			}
		}
		if err != nil {
			return fmt.Errorf("schema is not base64: %v", err)
		}
	}
	return t.setSchema(b)
}

// parseStorage finds the label and value fields.
func (t *Type) parseStorage(storage arrow.DataType) error {
	want := fmt.Errorf("storage type must be Struct<label: utf8, value: binary>, got %s", storage)
	st, ok := storage.(*arrow.StructType)
	if !ok {
		return want
	}
	li, ok1 := st.FieldIdx("label")
	vi, ok2 := st.FieldIdx("value")
	if !ok1 || !ok2 {
		return want
	}
	t.labelIdx, t.valueIdx = li, vi
	switch st.Field(li).Type.ID() {
	case arrow.STRING:
	case arrow.LARGE_STRING, arrow.STRING_VIEW:
		t.addNote(fmt.Errorf("label field must be utf8, got %s (read leniently)", st.Field(li).Type))
	default:
		return want
	}
	switch st.Field(vi).Type.ID() {
	case arrow.BINARY:
	case arrow.LARGE_BINARY, arrow.BINARY_VIEW:
		t.addNote(fmt.Errorf("value field must be binary, got %s (read leniently)", st.Field(vi).Type))
	default:
		return want
	}
	if st.NumFields() != 2 || li != 0 {
		t.addNote(fmt.Errorf("storage fields must be label, value in that order, got %s (read leniently)", storage))
	}
	return nil
}

func (t *Type) addNote(err error) {
	if t.note == nil {
		t.note = err
	}
}

// setSchema reads the schema stream b: its first message must be a Schema.
func (t *Type) setSchema(b []byte) error {
	var first ipcMessage
	n := 0
	err := eachIPCMessage(b, func(m ipcMessage) error {
		if n == 0 {
			first = m
		}
		n++
		return nil
	})
	switch {
	case err != nil:
		return fmt.Errorf("schema is not an IPC stream: %v", err)
	case n == 0:
		return errors.New("schema holds no IPC message")
	case first.kind != msgSchema:
		return fmt.Errorf("schema's first IPC message is a %s, not a Schema", msgKindName(first.kind))
	case n > 1:
		t.addNote(fmt.Errorf("schema holds %d more IPC message(s) after the Schema (ignored)", n-1))
	}
	s, err := decodeSchema(first)
	if err != nil {
		return fmt.Errorf("schema cannot be decoded: %v", err)
	}
	t.schema, t.schemaMsg, t.schemaIPC = s, first, b
	t.schemaFrame = appendFramed(nil, first)
	return nil
}

// decodeSchema decodes one Schema message with arrow-go (metadata only: a
// Schema message has no body to allocate).
func decodeSchema(m ipcMessage) (s *arrow.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("%v", r)
		}
	}()
	if len(m.meta) > math.MaxInt32-7 {
		return nil, fmt.Errorf("schema message of %d bytes is too large", len(m.meta))
	}
	stream := append(appendFramed(nil, ipcMessage{meta: m.meta}), ipcEOS...)
	r, err := ipc.NewReader(bytes.NewReader(stream))
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.Schema(), nil
}

// ExtensionEquals reports whether other is a turtle type with the same
// storage and an equal declared schema (arrow.Schema.Equal: field names,
// types, nullability and field metadata); two types whose schema could not
// be read are equal when their metadata is.
func (t *Type) ExtensionEquals(other arrow.ExtensionType) bool {
	o, ok := other.(*Type)
	if !ok || !arrow.TypeEqual(t.Storage, o.Storage) {
		return false
	}
	if t.schema == nil || o.schema == nil {
		return t.schema == nil && o.schema == nil && t.Serialize() == o.Serialize()
	}
	return t.schema.Equal(o.schema)
}

// String returns the type with its declared fields, for example
// extension<arrow.turtle[schema=<id: int32, image: extension<arrow.fixed_shape_tensor[...]>>]>,
// with schema=? when the schema could not be read.
func (t *Type) String() string {
	if t.schema == nil {
		return "extension<" + Name + "[schema=?]>"
	}
	return "extension<" + Name + "[schema=" + schemaFields(t.schema) + "]>"
}

// schemaFields prints a schema on one line: <name: type, ...>.
func schemaFields(s *arrow.Schema) string {
	var b strings.Builder
	b.WriteByte('<')
	for i, f := range s.Fields() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Name + ": " + f.Type.String())
	}
	b.WriteByte('>')
	return b.String()
}

// ArrayType returns the type of Array.
func (*Type) ArrayType() reflect.Type { return reflect.TypeOf(Array{}) }

// NewBuilder returns a Builder (array.CustomExtensionBuilder).
func (t *Type) NewBuilder(mem memory.Allocator) array.Builder {
	return NewBuilder(mem, t)
}

// Array is an array of arrow.turtle: one labelled record batch per
// row, kept as IPC bytes until Batch decodes one or Stream re-frames it.
type Array struct {
	array.ExtensionArrayBase
	storage extbase.StorageCheck
}

// Type returns the array's extension type.
func (a *Array) Type() *Type { return a.DataType().(*Type) }

// check returns an error when the storage cannot be read: a storage type the
// type does not accept, or buffers too small for its rows. It looks once.
func (a *Array) check() error {
	return a.storage.Do(func() error {
		if _, ok := a.columns(); !ok {
			return fmt.Errorf("storage type must be Struct<label: utf8, value: binary>, got %s", a.Storage().DataType())
		}
		return extbase.CheckStorage(a.Storage())
	})
}

type turtleColumns struct {
	label interface {
		arrow.Array
		Value(int) string
	}
	value interface {
		arrow.Array
		Value(int) []byte
	}
}

// columns returns the storage's label and value arrays, ok false when the
// storage is not a struct with a string-like label and a binary-like value.
func (a *Array) columns() (c turtleColumns, ok bool) {
	typ := a.Type()
	st, isStruct := a.Storage().(*array.Struct)
	if !isStruct || typ.labelIdx >= st.NumField() || typ.valueIdx >= st.NumField() {
		return c, false
	}
	var ok1, ok2 bool
	c.label, ok1 = st.Field(typ.labelIdx).(interface {
		arrow.Array
		Value(int) string
	})
	c.value, ok2 = st.Field(typ.valueIdx).(interface {
		arrow.Array
		Value(int) []byte
	})
	return c, ok1 && ok2
}

// Label returns row i's label: "" for a null row, a null label, or storage
// that cannot be read (ValidateStorage says why). i must be in [0, Len()).
func (a *Array) Label(i int) string {
	c, ok := a.columns()
	if !ok || a.check() != nil || a.IsNull(i) || c.label.IsNull(i) {
		return ""
	}
	return c.label.Value(i)
}

// Value returns row i's value, the raw IPC bytes of its record batch, shared
// with the array (do not modify them); nil for a null row or storage that
// cannot be read. i must be in [0, Len()).
func (a *Array) Value(i int) []byte {
	c, ok := a.columns()
	if !ok || a.check() != nil || a.IsNull(i) || c.value.IsNull(i) {
		return nil
	}
	return c.value.Value(i)
}

// ValidateStorage reports storage that cannot be read: a storage type the
// type does not accept, or buffers too small for the array's rows (a
// malformed file). Rows are checked by Stream and Batch.
func (a *Array) ValidateStorage() error { return a.check() }

// Stream returns row i as a complete Arrow IPC stream that any IPC stream
// reader opens: the declared schema's Schema message, the row's dictionary
// and record batch messages in their order, and the end-of-stream marker.
// It does not decode the batch, it re-frames the value's messages: each one
// gets the continuation marker 0xFFFFFFFF and its metadata size, its
// metadata is zero-padded to a multiple of 8 bytes so that its body starts
// 8-byte aligned (given bodies of whole 8-byte words, as writers make them),
// and the body is copied as is (the output is less than
// twice the value's size plus the declared Schema message).
//
// The value may be a whole IPC stream (a Schema message, the batch, an
// optional end-of-stream marker), the messages without the Schema message
// (a lone record batch message), either in the pre-0.15 framing without
// continuation markers, or an IPC file. A Schema message in the value must
// equal the declared schema (arrow.Schema.Equal), else the row's bytes are
// laid out for another schema and Stream returns an error. Stream also
// returns an error, prefixed "row i:", for bytes that are not IPC messages
// (a truncated message, a length past the end, a flatbuffer pointing outside
// itself: internal/ipcverify), for a Tensor, SparseTensor
// or second Schema message, for no record batch at all, and for a compressed
// batch declaring more than 2 GiB uncompressed. It passes on every record
// batch when the value holds more than one (Batch takes exactly one).
// It returns ErrNull for a null row and the type's Validate error when
// the declared schema could not be read. i must be in [0, Len()).
func (a *Array) Stream(i int) ([]byte, error) {
	out, _, err := a.stream(i)
	return out, err
}

func (a *Array) stream(i int) (out []byte, batches int, err error) {
	typ := a.Type()
	if typ.schema == nil {
		return nil, 0, typ.err
	}
	if err := a.check(); err != nil {
		return nil, 0, err
	}
	c, _ := a.columns()
	if a.IsNull(i) || c.value.IsNull(i) {
		return nil, 0, ErrNull
	}
	v := c.value.Value(i)
	out = make([]byte, 0, len(typ.schemaFrame)+len(v)+16)
	out = append(out, typ.schemaFrame...)
	k := 0
	err = eachIPCMessage(v, func(m ipcMessage) error {
		defer func() { k++ }()
		if len(m.meta) > math.MaxInt32-7 {
			return fmt.Errorf("message %d has %d bytes of metadata, too many for an IPC stream", k, len(m.meta))
		}
		switch m.kind {
		case msgSchema:
			if k != 0 {
				return fmt.Errorf("message %d is a Schema; only the first message may be one", k)
			}
			if bytes.Equal(m.meta, typ.schemaMsg.meta) {
				return nil
			}
			s, err := decodeSchema(m)
			if err != nil {
				return fmt.Errorf("the value's Schema message cannot be decoded: %v", err)
			}
			if !s.Equal(typ.schema) {
				return fmt.Errorf("the value's schema %s does not match the declared schema %s", schemaFields(s), schemaFields(typ.schema))
			}
		case msgRecordBatch:
			batches++
			out = appendFramed(out, m)
		case msgDictionaryBatch:
			out = appendFramed(out, m)
		default:
			return fmt.Errorf("message %d is a %s message; record batches were expected", k, msgKindName(m.kind))
		}
		return nil
	})
	if err != nil {
		return nil, 0, rowError(i, "value is not a record batch of the declared schema: %v", err)
	}
	if batches == 0 {
		return nil, 0, rowError(i, "value holds no record batch")
	}
	return append(out, ipcEOS...), batches, nil
}

// Batch decodes row i's record batch with arrow-go, with the declared schema:
// the value must hold exactly one record batch (none, or more than one, is
// an error naming the count; Stream passes several on). Every buffer of the
// batch is allocated from mem (memory.DefaultAllocator when nil): without
// compression at most the value's size, with compression each buffer's
// declared uncompressed size (at most 2 GiB in all, checked first); an
// allocator that panics to refuse an allocation makes Batch return an error,
// so a bounded allocator bounds Batch. The decoded columns are checked
// (buffer sizes, offsets, arrow-go's ValidateFull), so a value whose bytes
// do not match the declared schema is this row's error, never a panic later.
// Errors are Stream's, and "row i: ..." for bytes arrow-go cannot decode.
// The caller releases the batch.
func (a *Array) Batch(mem memory.Allocator, i int) (rec arrow.RecordBatch, err error) {
	s, n, err := a.stream(i)
	if err != nil {
		return nil, err
	}
	if n != 1 {
		return nil, rowError(i, "value holds %d record batches; a turtle value is one record batch", n)
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	track := &trackingAllocator{Allocator: mem, live: map[*byte][]byte{}}
	defer func() {
		if r := recover(); r != nil {
			if rec != nil {
				rec.Release()
			}
			rec, err = nil, rowError(i, "record batch cannot be decoded: %v", r)
		}
		track.finish(err == nil)
	}()
	r, err := ipc.NewReader(bytes.NewReader(s), ipc.WithAllocator(track))
	if err != nil {
		return nil, rowError(i, "record batch cannot be decoded: %v", err)
	}
	defer r.Release()
	if !r.Next() {
		if r.Err() != nil {
			return nil, rowError(i, "record batch cannot be decoded: %v", r.Err())
		}
		return nil, rowError(i, "value holds no record batch")
	}
	rec = r.RecordBatch()
	rec.Retain()
	for k, col := range rec.Columns() {
		if int64(col.Len()) != rec.NumRows() {
			rec.Release()
			return nil, rowError(i, "column %q has %d rows, the batch %d", rec.ColumnName(k), col.Len(), rec.NumRows())
		}
		if err := extbase.CheckStorage(col); err != nil {
			rec.Release()
			return nil, rowError(i, "column %q: %v", rec.ColumnName(k), err)
		}
	}
	return rec, nil
}

// trackingAllocator records what Batch allocates while decoding: arrow-go's
// IPC reader does not free every buffer when it fails half way (a
// decompression error leaves its buffer allocated), so after a failure
// finish hands them back to the caller's allocator, whose accounting (a
// bound, memory.CheckedAllocator) stays right.
type trackingAllocator struct {
	memory.Allocator
	mu   sync.Mutex
	live map[*byte][]byte // nil once finished
}

func (t *trackingAllocator) Allocate(n int) []byte {
	b := t.Allocator.Allocate(n)
	t.add(b)
	return b
}

func (t *trackingAllocator) Reallocate(n int, b []byte) []byte {
	t.remove(b)
	nb := t.Allocator.Reallocate(n, b)
	t.add(nb)
	return nb
}

func (t *trackingAllocator) Free(b []byte) {
	t.remove(b)
	t.Allocator.Free(b)
}

func (t *trackingAllocator) add(b []byte) {
	if cap(b) == 0 {
		return
	}
	t.mu.Lock()
	if t.live != nil {
		t.live[&b[:1][0]] = b
	}
	t.mu.Unlock()
}

func (t *trackingAllocator) remove(b []byte) {
	if cap(b) == 0 {
		return
	}
	t.mu.Lock()
	if t.live != nil {
		delete(t.live, &b[:1][0])
	}
	t.mu.Unlock()
}

// finish stops tracking; after a failure it frees what is still allocated
// (nothing references it: the reader and the batch are released).
func (t *trackingAllocator) finish(ok bool) {
	t.mu.Lock()
	live := t.live
	t.live = nil
	t.mu.Unlock()
	if !ok {
		for _, b := range live {
			t.Allocator.Free(b)
		}
	}
}

// ValueStr returns row i as {label: "…", value: N bytes}, or "(null)".
func (a *Array) ValueStr(i int) string {
	if a.IsNull(i) || a.check() != nil {
		if a.IsNull(i) {
			return array.NullValueStr
		}
		return "(invalid: " + a.check().Error() + ")"
	}
	return fmt.Sprintf("{label: %q, value: %d bytes}", a.Label(i), len(a.Value(i)))
}

// String returns all rows, as ValueStr does, between brackets.
func (a *Array) String() string { return extbase.ArrayString(a) }

// Builder builds a Array row by row.
type Builder struct {
	*array.ExtensionBuilder
	typ *Type
	mem memory.Allocator
}

// NewBuilder returns a builder for arrays of typ; mem also backs the
// IPC writer of Append.
func NewBuilder(mem memory.Allocator, typ *Type) *Builder {
	return &Builder{ExtensionBuilder: array.NewExtensionBuilder(mem, typ), typ: typ, mem: mem}
}

// Append appends a row: label and rec serialized as a complete IPC stream
// (the declared schema's Schema message, the batch, the end-of-stream
// marker) by arrow-go's IPC writer. It returns an error, appending nothing,
// when rec's schema does not equal the declared one (arrow.Schema.Equal),
// the type's schema could not be read, or the writer fails.
func (b *Builder) Append(label string, rec arrow.RecordBatch) error {
	if b.typ.schema == nil {
		return fmt.Errorf("turtle: %w", b.typ.err)
	}
	if rec == nil {
		return errors.New("turtle: record batch must not be nil")
	}
	if !rec.Schema().Equal(b.typ.schema) {
		return fmt.Errorf("turtle: record batch schema %s does not match the declared schema %s",
			schemaFields(rec.Schema()), schemaFields(b.typ.schema))
	}
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(b.typ.schema), ipc.WithAllocator(b.mem))
	if err := w.Write(rec); err != nil {
		_ = w.Close()
		return fmt.Errorf("turtle: cannot serialize record batch: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("turtle: cannot serialize record batch: %w", err)
	}
	return b.AppendBytes(label, buf.Bytes())
}

// AppendBytes appends a row whose value is the given bytes, unchecked: they
// should be a record batch of the declared schema in the IPC streaming
// format. It returns an error, appending nothing, only when the type's
// storage is not one the builder can fill (a leniently read type with
// another storage).
func (b *Builder) AppendBytes(label string, value []byte) error {
	st, ok := b.ExtensionBuilder.Builder.(*array.StructBuilder)
	if !ok || b.typ.labelIdx >= st.NumField() || b.typ.valueIdx >= st.NumField() {
		return fmt.Errorf("turtle: cannot append to storage %s", b.typ.Storage)
	}
	lb, ok1 := st.FieldBuilder(b.typ.labelIdx).(interface{ Append(string) })
	vb, ok2 := st.FieldBuilder(b.typ.valueIdx).(interface{ Append([]byte) })
	if !ok1 || !ok2 {
		return fmt.Errorf("turtle: cannot append to storage %s", b.typ.Storage)
	}
	st.Append(true)
	lb.Append(label)
	vb.Append(value)
	for k := 0; k < st.NumField(); k++ {
		if k != b.typ.labelIdx && k != b.typ.valueIdx {
			st.FieldBuilder(k).AppendNull()
		}
	}
	return nil
}

// AppendNull appends a null row.
func (b *Builder) AppendNull() { b.ExtensionBuilder.AppendNull() }

// NewArray returns the built array and resets the builder.
func (b *Builder) NewTurtleArray() *Array {
	return b.NewExtensionArray().(*Array)
}

var (
	_ arrow.ExtensionType          = (*Type)(nil)
	_ array.CustomExtensionBuilder = (*Type)(nil)
	_ array.ExtensionArray         = (*Array)(nil)
	_ array.Builder                = (*Builder)(nil)
)

func rowError(row int, format string, args ...any) error {
	return fmt.Errorf("row %d: %s", row, fmt.Sprintf(format, args...))
}
