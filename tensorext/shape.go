package tensorext

import "strconv"

// FormatShape formats a shape, strides, a permutation or an index as the
// spec's JSON metadata writes lists of integers: "[2,3,4]" ("[]" when
// empty). Error messages and the viewer use it for every such list.
func FormatShape[T ~int | ~int64](v []T) string {
	return "[" + JoinShape(v) + "]"
}

// JoinShape formats a list of integers without brackets: "2,3,4", as the
// viewer's data-shape attributes hold it.
func JoinShape[T ~int | ~int64](v []T) string {
	b := make([]byte, 0, 4*len(v))
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(b)
}
