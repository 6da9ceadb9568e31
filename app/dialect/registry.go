package dialect

import (
	"fmt"
	"sort"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/tensorext"
)

// Input is what an adapter sees of one field.
type Input struct {
	// Field is the field as arrow-go read it. For an extension type that
	// is not registered with arrow-go, Field.Type is its storage type and
	// Field.Metadata holds ARROW:extension:name and ARROW:extension:metadata.
	Field arrow.Field
	// Extension and Metadata are the field's extension name and metadata,
	// registered with arrow-go or not ("" when absent).
	Extension, Metadata string
	// Schema is the schema's custom metadata (Hugging Face keeps its
	// features under the key "huggingface").
	Schema arrow.Metadata
}

// Column is how one column's values are read as tensors.
type Column struct {
	// Dialect names the layout the column was read as, for people: for
	// example "Ray tensor (ray.data.arrow_tensor)" or "nested FixedSizeList".
	Dialect string
	// Why says what in the field made it that dialect: for example
	// `extension name "ray.data.arrow_tensor", shape [28,28] from its JSON
	// metadata`.
	Why string
	// ValueType is the tensors' element type.
	ValueType arrow.DataType
	// Shape is the physical shape shared by every row, or nil when rows
	// may differ.
	Shape []int
	// NDim is the number of dimensions, or -1 when only rows tell.
	NDim int
	// DimNames names the physical dimensions when the producer does; nil
	// otherwise.
	DimNames []string
	// Tensor returns row i of arr, the column's array as arrow-go decoded
	// it (the storage array for unregistered extension types), as a view
	// in physical order. It returns an error wrapping tensorext.ErrNullTensor
	// for a null row, and a descriptive error for a row it cannot read
	// (a length that does not match the shape, say). It never panics on a
	// valid array.
	Tensor func(arr arrow.Array, i int) (tensorext.Tensor, error)
}

// Adapter recognises one dialect.
type Adapter interface {
	// Name is the dialect's short name, for errors and tests.
	Name() string
	// Priority orders adapters: lower first. Adapters keyed on an
	// extension name use 0..99; structural rules (plain nested lists)
	// 100 and up, so that a named dialect wins over the shape of its
	// storage.
	Priority() int
	// Match returns the column's reading; (nil, nil) when in is not of
	// this dialect; (nil, err) when it is, but cannot be read as tensors
	// (err says why, and the column is shown as its storage).
	Match(in Input) (*Column, error)
}

var (
	mu       sync.RWMutex
	adapters []Adapter
)

// Register adds an adapter to the registry. Each dialect file registers
// its adapter in an init function.
func Register(a Adapter) {
	mu.Lock()
	defer mu.Unlock()
	adapters = append(adapters, a)
	sort.SliceStable(adapters, func(i, j int) bool { return adapters[i].Priority() < adapters[j].Priority() })
}

// Detect returns how in's field is read as tensors by the first adapter
// (in order of Priority) that recognises it. col is nil when no adapter
// does; then err, if not nil, says why a column of a recognised dialect is
// shown as its storage (pickled metadata, say). An adapter that panics is
// treated as one that refuses the column.
func Detect(in Input) (col *Column, err error) {
	mu.RLock()
	list := adapters
	mu.RUnlock()
	for _, a := range list {
		c, e := match(a, in)
		if c != nil || e != nil {
			return c, e
		}
	}
	return nil, nil
}

func match(a Adapter, in Input) (c *Column, err error) {
	defer func() {
		if r := recover(); r != nil {
			c, err = nil, fmt.Errorf("%s: %v", a.Name(), r)
		}
	}()
	return a.Match(in)
}
