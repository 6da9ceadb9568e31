package tensorext

import (
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
)

// sliceAppender is the bulk append method every primitive builder has.
type sliceAppender[T any] interface {
	AppendValues(v []T, valid []bool)
}

// tryAppend appends values to vb when values is a []T and vb takes []T. It
// reports the slice length (-1 when values is not a []T) and whether vb
// takes it; with dryRun it only checks.
func tryAppend[T any](vb array.Builder, values any, dryRun bool) (n int, ok bool) {
	v, isT := values.([]T)
	if !isT {
		return -1, false
	}
	b, takes := vb.(sliceAppender[T])
	if takes && !dryRun {
		b.AppendValues(v, nil)
	}
	return len(v), takes
}

// appendValues appends a Go slice of the builder's native element type
// ([]uint8 to a Uint8Builder, []float16.Num to a Float16Builder, []bool to a
// BooleanBuilder, ...). It returns the slice's length (-1 for an unsupported
// Go type) and whether the builder takes it; with dryRun nothing is appended.
func appendValues(vb array.Builder, values any, dryRun bool) (int, bool) {
	for _, try := range appenders {
		if n, ok := try(vb, values, dryRun); n >= 0 {
			return n, ok
		}
	}
	return -1, false
}

var appenders = []func(array.Builder, any, bool) (int, bool){
	tryAppend[uint8], tryAppend[int8], tryAppend[uint16], tryAppend[int16],
	tryAppend[uint32], tryAppend[int32], tryAppend[uint64], tryAppend[int64],
	tryAppend[float16.Num], tryAppend[float32], tryAppend[float64], tryAppend[bool],
}
