package tensorext

import (
	"reflect"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
)

// sliceLen returns the length of a slice given as any, or -1.
func sliceLen(values any) int {
	v := reflect.ValueOf(values)
	if v.Kind() != reflect.Slice {
		return -1
	}
	return v.Len()
}

// appendValues appends a Go slice of the builder's native element type; it
// reports false, appending nothing, when the types do not match.
func appendValues(vb array.Builder, values any) bool {
	switch b := vb.(type) {
	case *array.Uint8Builder:
		return appendAs(b.AppendValues, values)
	case *array.Int8Builder:
		return appendAs(b.AppendValues, values)
	case *array.Uint16Builder:
		return appendAs(b.AppendValues, values)
	case *array.Int16Builder:
		return appendAs(b.AppendValues, values)
	case *array.Uint32Builder:
		return appendAs(b.AppendValues, values)
	case *array.Int32Builder:
		return appendAs(b.AppendValues, values)
	case *array.Uint64Builder:
		return appendAs(b.AppendValues, values)
	case *array.Int64Builder:
		return appendAs(b.AppendValues, values)
	case *array.Float16Builder:
		return appendAs[float16.Num](b.AppendValues, values)
	case *array.Float32Builder:
		return appendAs(b.AppendValues, values)
	case *array.Float64Builder:
		return appendAs(b.AppendValues, values)
	case *array.BooleanBuilder:
		return appendAs(b.AppendValues, values)
	}
	return false
}

func appendAs[T any](appendFn func([]T, []bool), values any) bool {
	v, ok := values.([]T)
	if ok {
		appendFn(v, nil)
	}
	return ok
}

// canAppend reports whether appendValues would accept values.
func canAppend(vb array.Builder, values any) bool {
	switch vb.(type) {
	case *array.Uint8Builder, *array.Int8Builder, *array.Uint16Builder, *array.Int16Builder,
		*array.Uint32Builder, *array.Int32Builder, *array.Uint64Builder, *array.Int64Builder,
		*array.Float16Builder, *array.Float32Builder, *array.Float64Builder, *array.BooleanBuilder:
	default:
		return false
	}
	// Every supported builder has AppendValues([]T, []bool) for its native T.
	m := reflect.ValueOf(vb).MethodByName("AppendValues")
	return m.IsValid() && m.Type().NumIn() == 2 && reflect.TypeOf(values) == m.Type().In(0)
}
