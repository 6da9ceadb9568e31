package decode

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/app/imagebytes"
	"github.com/tensorview/tensorview/tensorext"
)

// imageColumn reports whether a column of type dt may hold encoded images
// and returns how to find a row's bytes: a binary column (Binary,
// LargeBinary, BinaryView), or a struct with a binary field "bytes" (and,
// as Hugging Face's Image feature has, a string "path").
func imageColumn(dt arrow.DataType) (bytesOf func(arr arrow.Array, i int) ([]byte, bool), ok bool) {
	switch dt.ID() {
	case arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW:
		return binaryValue, true
	case arrow.STRUCT:
		st := dt.(*arrow.StructType)
		k, found := st.FieldIdx("bytes")
		if !found {
			return nil, false
		}
		if _, ok := imageColumn(st.Field(k).Type); !ok || st.Field(k).Type.ID() == arrow.STRUCT {
			return nil, false
		}
		return func(arr arrow.Array, i int) ([]byte, bool) {
			s, ok := arr.(*array.Struct)
			if !ok || s.IsNull(i) {
				return nil, false
			}
			return binaryValue(s.Field(k), i)
		}, true
	}
	return nil, false
}

// binaryValue is row i of a binary array, false for a null row.
func binaryValue(arr arrow.Array, i int) ([]byte, bool) {
	if arr.IsNull(i) {
		return nil, false
	}
	switch a := arr.(type) {
	case *array.Binary:
		return a.Value(i), true
	case *array.LargeBinary:
		return a.Value(i), true
	case *array.BinaryView:
		return a.Value(i), true
	}
	return nil, false
}

// encodedImage returns the bytes b and what their header says when they
// are an encoded image; nil bytes and no error when they are not one (the
// value shows as its text); an error when they are one that cannot be
// shown (a header that does not parse, or an image past
// imagebytes.DefaultLimits).
func encodedImage(b []byte) ([]byte, imagebytes.Info, error) {
	if imagebytes.Sniff(b) == imagebytes.None {
		return nil, imagebytes.Info{}, nil
	}
	info, err := imagebytes.Config(b)
	if err != nil {
		return nil, info, err
	}
	if err := imagebytes.CheckLimits(b, info, imagebytes.DefaultLimits); err != nil {
		return nil, info, err
	}
	return b, info, nil
}

// imageTensor decodes the image in row i of an image column as a height ×
// width × channel uint8 tensor (imagebytes.Decode).
func imageTensor(bytesOf func(arrow.Array, int) ([]byte, bool)) tensorReader {
	return func(arr arrow.Array, i int) (tensorext.Tensor, error) {
		b, ok := bytesOf(arr, i)
		if !ok {
			return tensorext.Tensor{}, tensorext.ErrNullTensor
		}
		if imagebytes.Sniff(b) == imagebytes.None {
			return tensorext.Tensor{}, fmt.Errorf("row %d holds %s that are not a PNG, JPEG, GIF or WebP image", i, HumanBytes(int64(len(b))))
		}
		return imagebytes.Decode(b, imagebytes.DefaultLimits)
	}
}
