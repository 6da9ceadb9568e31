// Package flatbuf reads flatbuffers (flatbuffers.dev, "Internals") with
// every position checked against the buffer: tensorview's one flatbuffer
// table reader, under the Arrow IPC footer and message parsing of
// app/decode and app/turtle and the verifier internal/ipcverify. No offset
// or length in the input makes a read leave the buffer or panic: it is an
// error, ErrMalformed (or ErrTooManyTables).
//
// The format, as far as reading needs it:
//
//   - a buffer starts with a uoffset (uint32) to its root table;
//   - a table starts with a soffset (int32): its vtable is at the table's
//     position minus it;
//   - a vtable holds uint16s: its own length in bytes, the length of the
//     table's inline part, then per field (in .fbs declaration order, union
//     fields counting twice: the _type byte, then the value) the field's
//     offset in the table, 0 when absent;
//   - a reference field (table, string, vector) holds a uoffset from where it
//     is stored to its target; a string or vector starts with its uint32
//     length (a string's bytes follow, then a 0 byte); a vector of tables
//     holds one uoffset per element, each from where it is stored.
//
// What is checked: a table's position, its vtable's position, the vtable's
// length (at least 4, even, inside the buffer) and the table's inline size
// (at least 4, inside the buffer); each scalar, struct or reference field
// inside the table's inline part; each reference's target inside the
// buffer with 4 bytes there; each vector's elements inside the buffer; and
// at most MaxTables tables reached from one Root.
//
// Entry points:
//
//   - Root: the root table of a buffer; Table.TableAt, TableField,
//     VectorTable, Tables: the tables it reaches;
//   - Table.Scalars (check scalar fields), Uint8, Int16, Int32, Int64,
//     Inline (a scalar or struct's position): inline fields;
//   - Table.Ref, Vector, String: reference fields;
//   - Table.Bytes: the buffer, to read what Vector and Inline located.
package flatbuf
