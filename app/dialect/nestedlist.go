package dialect

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Plain nested List columns: a List or LargeList of lists (List,
// LargeList or FixedSizeList, nested) around numbers, with no extension
// type. A FixedSizeList column written to Parquet without its
// Arrow schema (ARROW:schema, which pyarrow and arrow-rs store unless told
// not to) reads back this way: the Parquet format has no fixed-size list,
// so every level becomes a LIST of its own length (Parquet format
// specification, LogicalTypes.md "Lists"). Ragged arrays (lists of
// sentences of token ids, say) look the same; they are told apart row by
// row: a row whose lists at each depth all have one length is the tensor
// of those lengths, outer first; any other row is its cell's error.

type nestedListAdapter struct{}

func init() { Register(nestedListAdapter{}) }

func (nestedListAdapter) Name() string { return "nested lists" }

// Priority places it after the nested FixedSizeList rule (100), which
// takes the columns that are FixedSizeLists all the way down, and before
// the plain list rule (110), which reads one level.
func (nestedListAdapter) Priority() int { return 105 }

// Match recognises a field without an extension name whose type is a List
// or LargeList nesting one or more levels of List, LargeList or
// FixedSizeList (at most maxNDim levels in all) around a numeric value
// type: List<List<float32>>, LargeList<List<int64>>, List<FixedSizeList<
// float32>[3]> (points of a cloud). The
// column has NDim the number of levels and Shape nil; row i is the tensor
// whose shape is the lengths of its lists at each depth (a FixedSizeList
// level has its fixed size), outer first, its values in row-major order.
// A row whose lists at one depth differ in length (ragged) or hold a null
// list below the row is that row's error; a null row is null. An empty
// row has the shape [0, …] with 0 for each List level below it.
func (nestedListAdapter) Match(in Input) (*Column, error) {
	if in.Extension != "" {
		return nil, nil
	}
	switch in.Field.Type.(type) {
	case *arrow.ListType, *arrow.LargeListType:
	default:
		return nil, nil // FixedSizeList outside: the nested FixedSizeList rule's, or no tensor
	}
	var want []int
	dt := in.Field.Type
	for {
		switch t := dt.(type) {
		case *arrow.ListType:
			want, dt = append(want, -1), t.Elem()
			continue
		case *arrow.LargeListType:
			want, dt = append(want, -1), t.Elem()
			continue
		case *arrow.FixedSizeListType:
			want, dt = append(want, int(t.Len())), t.Elem()
			continue
		}
		break
	}
	if len(want) < 2 || !isNumericType(dt) {
		return nil, nil
	}
	if len(want) > maxNDim {
		return nil, fmt.Errorf("nested lists: %d levels of nesting, more than the %d dimensions tensorview reads", len(want), maxNDim)
	}
	vt := dt
	return &Column{
		Dialect: "nested lists",
		Why: fmt.Sprintf("plain %s, no extension type (a FixedSizeList written to Parquet without its Arrow schema reads back so): a row whose lists at each depth have one length is the tensor of those lengths, outer first",
			typeString(in.Field.Type)),
		ValueType: vt,
		NDim:      len(want),
		Tensor:    nestedRowTensor(want),
	}, nil
}
