package tensorext

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// storageStr is the storage's text (ValueStr: float16 exact) for row i of
// an array whose tensors cannot be viewed (err says why); for malformed
// storage, whose text would panic, it is err's text.
func storageStr(storage arrow.Array, i int, err error) (s string) {
	defer func() {
		if recover() != nil {
			s = "(invalid: " + err.Error() + ")"
		}
	}()
	return ValueStr(storage, i)
}

// rowStr is the tensor arrays' ValueStr: row i's values nested in physical
// order, "(null)", or the storage's text when the row has no view.
func rowStr(a array.ExtensionArray, tensor func(int) (Tensor, error), i int) string {
	t, err := tensor(i)
	if err == ErrNullTensor {
		return array.NullValueStr
	}
	if err != nil {
		return storageStr(a.Storage(), i, err)
	}
	return t.String()
}
