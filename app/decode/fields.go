package decode

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/dialect"
	"github.com/tensorview/tensorview/app/turtle"
	"github.com/tensorview/tensorview/tensorext"
)

// FieldInfo describes one column of the schema as the viewer shows it (what
// arrow-go says of it is f.Schema.Field(Index)).
type FieldInfo struct {
	Index    int
	Name     string
	Type     string // the Arrow type; for an extension type, its storage type
	Nullable bool
	// Extension is the extension name, registered with arrow-go or not.
	Extension string
	// ExtensionMetadata is the extension's metadata string: as serialized by
	// the registered type, or raw from the field metadata for unregistered
	// ones.
	ExtensionMetadata string
	// Tensor is set for a column read as tensors: a canonical tensor
	// extension type, or another layout a dialect adapter reads (Dialect).
	Tensor *TensorField
	// Dialect names the layout of a tensor column that is not a canonical
	// tensor type (package dialect: "Ray tensor (ray.data.arrow_tensor)",
	// "nested FixedSizeList", …) and DialectWhy says what made it so;
	// both are empty for canonical tensor columns and plain columns.
	Dialect, DialectWhy string
	// Note says why a column that looks like tensors is shown as its
	// storage (Ray metadata that is a pickle, say); empty otherwise.
	Note string
	// Nested is set for an arrow.turtle column: each value is a labelled
	// record batch (Cell.Nested; File.Nested opens it).
	Nested bool
	// Images is set for a column whose values may be encoded images (a
	// binary column, or Hugging Face's Image struct {bytes, path}): a
	// value whose bytes are a PNG, JPEG, GIF or WebP image (told by its
	// magic numbers) shows as an image tensor, any other as its text.
	Images bool
	// Err is why the column cannot be decoded as its extension type (its
	// storage values are shown instead), or, in File.Fields, the first
	// error arrow-go's validation found in the column of a record batch
	// read so far (its cells show it).
	Err      string
	Metadata []KV // other field metadata
}

// TensorField describes a tensor column's type parameters.
type TensorField struct {
	ValueType    string
	Value        arrow.DataType // the value type ValueType names
	Shape        []int          // fixed shape only: physical shape
	NDim         int
	DimNames     []string
	Permutation  []int
	UniformShape string // variable shape only: like [null,null,3]; empty if absent
}

// describeField describes field i of a schema whose custom metadata is
// schemaMeta, and returns how its rows are read as tensors (nil for a
// column that is not a tensor column).
func describeField(i int, fld arrow.Field, schemaMeta arrow.Metadata) (FieldInfo, tensorReader) {
	in := dialect.NewInput(fld, schemaMeta)
	out := FieldInfo{Index: i, Name: fld.Name, Type: fld.Type.String(), Nullable: fld.Nullable,
		Extension: in.Extension, ExtensionMetadata: in.Metadata}
	if ext, ok := fld.Type.(arrow.ExtensionType); ok {
		out.Type = ext.StorageType().String()
	}
	for k, key := range fld.Metadata.Keys() {
		if key != dialect.ExtensionNameKey && key != dialect.ExtensionMetadataKey {
			out.Metadata = append(out.Metadata, KV{key, fld.Metadata.Values()[k]})
		}
	}
	switch t := fld.Type.(type) {
	case *tensorext.FixedShapeTensorType:
		if err := t.Validate(); err != nil {
			out.Err = err.Error()
			break
		}
		out.Tensor = &TensorField{ValueType: t.ValueType().String(), Value: t.ValueType(), Shape: t.Shape(), NDim: t.NDim(),
			DimNames: t.DimNames(), Permutation: t.Permutation()}
	case *tensorext.VariableShapeTensorType:
		if err := t.Validate(); err != nil {
			out.Err = err.Error()
			break
		}
		tf := &TensorField{ValueType: t.ValueType().String(), Value: t.ValueType(), NDim: t.NDim(), DimNames: t.DimNames(), Permutation: t.Permutation()}
		if u := t.UniformShape(); u != nil {
			tf.UniformShape = strings.ReplaceAll(tensorext.FormatShape(u), "-1", "null")
		}
		out.Tensor = tf
	}
	if out.Tensor != nil {
		return out, canonicalTensor
	}
	if t, ok := fld.Type.(*turtle.Type); ok {
		if err := t.Validate(); err != nil && t.Schema() == nil {
			out.Err = err.Error()
		} else {
			out.Nested = true
			if err != nil {
				out.Note = err.Error() // read leniently
			}
		}
		return out, nil
	}
	if out.Err != "" {
		return out, nil
	}
	col, err := dialect.Detect(in)
	if err != nil {
		out.Note = err.Error()
	}
	if col == nil {
		return out, nil
	}
	out.Dialect, out.DialectWhy = col.Dialect, col.Why
	out.Tensor = &TensorField{ValueType: col.ValueType.String(), Value: col.ValueType, Shape: col.Shape, NDim: col.NDim, DimNames: col.DimNames}
	return out, col.Tensor
}

// tensorReader reads row i of a column's array as a tensor view in
// physical order (tensorext.ErrNullTensor for a null row).
type tensorReader func(arr arrow.Array, i int) (tensorext.Tensor, error)

// canonicalTensor reads the canonical tensor extension arrays.
func canonicalTensor(arr arrow.Array, i int) (tensorext.Tensor, error) {
	ta, ok := arr.(tensorArray)
	if !ok {
		return tensorext.Tensor{}, fmt.Errorf("a %s column is not a tensor array", arr.DataType())
	}
	return ta.Tensor(i)
}

// clone returns a copy of the field that shares nothing with it.
func (fld FieldInfo) clone() FieldInfo {
	fld.Metadata = slices.Clone(fld.Metadata)
	if fld.Tensor != nil {
		t := *fld.Tensor
		t.Shape, t.DimNames, t.Permutation = slices.Clone(t.Shape), slices.Clone(t.DimNames), slices.Clone(t.Permutation)
		fld.Tensor = &t
	}
	return fld
}
