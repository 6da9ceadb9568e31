package decode

import (
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/tensorext"
)

// Arrow's field metadata keys for extension types.
const (
	extNameKey = "ARROW:extension:name"
	extMetaKey = "ARROW:extension:metadata"
)

// Field describes one column of the schema as the viewer shows it.
type Field struct {
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
	// Tensor is set for a column decoded as a tensor extension type.
	Tensor *TensorField
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
	Shape        []int // fixed shape only: physical shape
	NDim         int
	DimNames     []string
	Permutation  []int
	UniformShape string // variable shape only: like [null,null,3]; empty if absent
}

func describeField(i int, fld arrow.Field) Field {
	out := Field{Index: i, Name: fld.Name, Type: fld.Type.String(), Nullable: fld.Nullable}
	if ext, ok := fld.Type.(arrow.ExtensionType); ok {
		out.Extension = ext.ExtensionName()
		out.Type = ext.StorageType().String()
		out.ExtensionMetadata = safeSerialize(ext)
	}
	if fld.HasMetadata() {
		for k, key := range fld.Metadata.Keys() {
			val := fld.Metadata.Values()[k]
			switch key {
			case extNameKey:
				out.Extension = val
			case extMetaKey:
				out.ExtensionMetadata = val
			default:
				out.Metadata = append(out.Metadata, KV{key, val})
			}
		}
	}
	switch t := fld.Type.(type) {
	case *tensorext.FixedShapeTensorType:
		if err := t.Validate(); err != nil {
			out.Err = err.Error()
			break
		}
		out.Tensor = &TensorField{ValueType: t.ValueType().String(), Shape: t.Shape(), NDim: t.NDim(),
			DimNames: t.DimNames(), Permutation: t.Permutation()}
	case *tensorext.VariableShapeTensorType:
		if err := t.Validate(); err != nil {
			out.Err = err.Error()
			break
		}
		tf := &TensorField{ValueType: t.ValueType().String(), NDim: t.NDim(), DimNames: t.DimNames(), Permutation: t.Permutation()}
		if u := t.UniformShape(); u != nil {
			tf.UniformShape = strings.ReplaceAll(tensorext.FormatShape(u), "-1", "null")
		}
		out.Tensor = tf
	}
	return out
}

func safeSerialize(ext arrow.ExtensionType) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	return ext.Serialize()
}

// clone returns a copy of the field that shares nothing with it.
func (fld Field) clone() Field {
	fld.Metadata = slices.Clone(fld.Metadata)
	if fld.Tensor != nil {
		t := *fld.Tensor
		t.Shape, t.DimNames, t.Permutation = slices.Clone(t.Shape), slices.Clone(t.DimNames), slices.Clone(t.Permutation)
		fld.Tensor = &t
	}
	return fld
}
