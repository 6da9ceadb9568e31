package tensorext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// parseMetadataObject decodes extension metadata into its top-level keys.
// The empty string (the spec's minimal metadata) decodes to no keys.
func parseMetadataObject(data string) (map[string]json.RawMessage, error) {
	if strings.TrimSpace(data) == "" {
		return map[string]json.RawMessage{}, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(data), &obj); err != nil {
		return nil, fmt.Errorf("extension metadata is not a JSON object: %v", err)
	}
	if obj == nil { // the literal null
		return nil, fmt.Errorf("extension metadata is not a JSON object: null")
	}
	return obj, nil
}

// isNull reports whether a raw JSON value is absent or the literal null;
// arrow-rs writes absent parameters as null.
func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// parseIntList decodes a JSON array of integers. Values must be integral.
func parseIntList(key string, raw json.RawMessage) ([]int, error) {
	var nums []json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&nums); err != nil {
		return nil, fmt.Errorf("%s must be an array of integers: %v", key, err)
	}
	out := make([]int, len(nums))
	for i, n := range nums {
		v, err := strconv.ParseInt(n.String(), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s must be an array of integers, got %s", key, n)
		}
		out[i] = int(v)
	}
	return out, nil
}

// parseOptionalIntList decodes a JSON array whose entries are integers or
// null (as uniform_shape); a null entry becomes -1 and is reported in known.
func parseOptionalIntList(key string, raw json.RawMessage) (vals []int, known []bool, err error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, nil, fmt.Errorf("%s must be an array of integers and nulls: %v", key, err)
	}
	vals = make([]int, len(items))
	known = make([]bool, len(items))
	for i, it := range items {
		if isNull(it) {
			vals[i] = -1
			continue
		}
		v, err := strconv.ParseInt(string(bytes.TrimSpace(it)), 10, 64)
		if err != nil {
			return nil, nil, fmt.Errorf("%s must be an array of integers and nulls, got %s", key, it)
		}
		vals[i], known[i] = int(v), true
	}
	return vals, known, nil
}

func parseStringList(key string, raw json.RawMessage) ([]string, error) {
	var out []string
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("%s must be an array of strings: %v", key, err)
	}
	return out, nil
}

// checkPermutation reports whether perm is a permutation of [0, ndim), with
// Arrow C++'s wording.
func checkPermutation(perm []int, ndim int) error {
	if perm == nil {
		return nil
	}
	if len(perm) != ndim {
		return fmt.Errorf("permutation size must match shape size. Expected: %d Got: %d", ndim, len(perm))
	}
	seen := make([]bool, ndim)
	for _, p := range perm {
		if p < 0 || p >= ndim || seen[p] {
			return fmt.Errorf("Permutation indices for %d dimensional tensors must be unique and within [0, %d] range. Got: %s",
				ndim, ndim-1, formatInts(perm))
		}
		seen[p] = true
	}
	return nil
}

func checkDimNames(names []string, ndim int) error {
	if names != nil && len(names) != ndim {
		return fmt.Errorf("dim_names size must match shape size. Expected: %d Got: %d", ndim, len(names))
	}
	return nil
}

func isIdentity(perm []int) bool {
	for i, p := range perm {
		if p != i {
			return false
		}
	}
	return true
}

// formatInts formats a list as [a,b,c] (the JSON spelling).
func formatInts(v []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(']')
	return b.String()
}

func writeJSONStrings(b *strings.Builder, v []string) {
	enc, _ := json.Marshal(v) // []string never fails
	b.Write(enc)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// permuteInts returns v[perm[i]] for each i, or a copy of v when perm is nil.
func permuteInts(v, perm []int) []int {
	out := make([]int, len(v))
	for i := range out {
		if perm == nil {
			out[i] = v[i]
		} else {
			out[i] = v[perm[i]]
		}
	}
	return out
}

func permuteStrings(v []string, perm []int) []string {
	if v == nil {
		return nil
	}
	out := make([]string, len(v))
	for i := range out {
		if perm == nil {
			out[i] = v[i]
		} else {
			out[i] = v[perm[i]]
		}
	}
	return out
}

// rowMajorStrides returns the element strides of a C-contiguous tensor.
func rowMajorStrides(shape []int) []int {
	strides := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		strides[i] = s
		s *= shape[i]
	}
	return strides
}

// product returns the number of elements of shape (1 for 0-D) and whether
// the product fits in an int.
func product(shape []int) (int, bool) {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return 0, false
		}
		if d != 0 && n > math.MaxInt/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}
