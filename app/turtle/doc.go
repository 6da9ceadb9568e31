// Package turtle implements arrow.turtle for arrow-go: an extension type
// whose every row is a label and a whole record batch of a declared schema,
// stored as Struct<label: utf8, value: binary>, the value being the batch in
// the Arrow IPC streaming format. A batch may have turtle columns of its
// own, so turtles nest to any depth.
//
// arrow.turtle is a proposal made on the Arrow dev list
// (dev@arrow.apache.org; draft on branch westonpace/arrow
// feat/turtle-extension-type) that was never made canonical, which is why it
// lives apart from tensorext (the canonical tensor types). In short: the
// storage is a struct of a utf8 label and a binary value; each value is one
// record batch in the IPC streaming format, conforming to the schema the
// type's metadata declares; the metadata is a JSON object whose "schema"
// key holds that schema, IPC-serialized and base64-encoded.
//
// Importing the package registers Type with arrow.RegisterExtensionType, so
// arrow-go's IPC readers return Array columns for fields named
// arrow.turtle. The viewer's reader (app/decode) imports it for that.
//
// Entry points:
//
//   - Name: the extension name, "arrow.turtle".
//   - Type, NewType(schema): the extension type; Type.Schema is the declared
//     schema, Type.Validate says how metadata read leniently departs from the
//     proposal (Deserialize never fails: arrow-go would fail the whole
//     schema).
//   - Array: a turtle column; Type, Label(i), Value(i) (the raw IPC bytes),
//     Stream(i) (the value re-framed as a complete IPC stream under the
//     declared schema, every length checked first), Batch(mem, i) (the
//     decoded record batch), ValidateStorage; ErrNull for a null row.
//   - Builder, NewBuilder(mem, typ): Append(label, batch), AppendBytes,
//     AppendNull, NewTurtleArray.
//
// Before arrow-go reads a value, every IPC message in it is checked
// (ipcframe.go): message and body sizes against the bytes present, every
// flatbuffer by internal/ipcverify (read with internal/flatbuf), and the
// uncompressed sizes compressed buffers declare.
package turtle
