// Package ipcverify verifies Arrow IPC flatbuffer metadata before arrow-go
// reads it. It is tensorview's one verifier, used by app/decode (IPC files,
// streams and Tensor messages) and app/turtle (arrow.turtle values and
// schemas).
//
// arrow-go reads IPC metadata with flatbuffers' generated accessors, which
// trust every offset and length: a footer, schema or message whose
// flatbuffer points outside itself makes them panic or, for vector lengths,
// allocate without bound (a fatal out-of-memory, which no recover catches).
// Footer and Message check, before arrow-go sees them, that every table,
// string and vector arrow-go may read lies within the bytes, following the
// tables of Arrow's format/File.fbs (Footer, Block), Schema.fbs (Schema,
// Field, the Type union, DictionaryEncoding, KeyValue) and Message.fbs
// (Message, RecordBatch, DictionaryBatch, BodyCompression), and that the
// enums and widths arrow-go indexes tables by hold values Schema.fbs
// defines.
//
// They are written with internal/flatbuf's checked table reader, which
// app/decode also uses for the headers Message does not look into (a
// Tensor message, Tensor.fbs).
//
// Entry points: Footer (an IPC file's footer), Message (a Schema,
// DictionaryBatch or RecordBatch message's metadata), HeaderName and the
// Header* constants (Message.fbs's MessageHeader union), MaxDepth (the
// deepest nesting of types it accepts), ErrFlatbuffer (what its errors
// wrap).
package ipcverify
