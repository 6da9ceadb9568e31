package dialect

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/tensorext"
)

// Plain List<numeric> and LargeList<numeric> columns with no extension
// type (a ragged column of vectors: token ids, audio samples, variable
// length embeddings): each row is a 1-D tensor of its own length.

type listAdapter struct{}

func init() { Register(listAdapter{}) }

func (listAdapter) Name() string  { return "list" }
func (listAdapter) Priority() int { return 110 }

// Match recognises a field without an extension name whose type is
// List<T> or LargeList<T> with T numeric (integer, float16/32/64 or
// boolean). The column has NDim 1 and Shape nil; row i is the 1-D tensor
// of shape [len(row i)].
func (listAdapter) Match(in Input) (*Column, error) {
	if in.Extension != "" {
		return nil, nil
	}
	var vt arrow.DataType
	switch t := in.Field.Type.(type) {
	case *arrow.ListType:
		vt = t.Elem()
	case *arrow.LargeListType:
		vt = t.Elem()
	default:
		return nil, nil
	}
	if !isNumericType(vt) {
		return nil, nil
	}
	return &Column{
		Dialect:   "plain list",
		Why:       fmt.Sprintf("plain %s, no extension type: each row is a vector of its own length", typeString(in.Field.Type)),
		ValueType: vt,
		NDim:      1,
		Tensor: func(arr arrow.Array, i int) (tensorext.Tensor, error) {
			values, start, end, dims, err := nestedRow(storageOf(arr), i, []int{-1})
			if err != nil {
				return tensorext.Tensor{}, err
			}
			return RowMajor(values, start, end, dims, nil)
		},
	}, nil
}
