package tensorext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tensorview/tensorview/internal/extbase"
)

// parseLayout reads the keys both tensor types share from their metadata
// object (spec "Canonical Extension Types": permutation and dim_names, both
// optional; arrow-rs writes "permutations", accepted too).
func parseLayout(obj map[string]json.RawMessage) (perm []int, names []string, err error) {
	raw, ok := obj["permutation"]
	if !ok {
		raw = obj["permutations"]
	}
	if !extbase.IsNull(raw) {
		if perm, err = parseIntList("permutation", raw); err != nil {
			return nil, nil, err
		}
	}
	if raw := obj["dim_names"]; !extbase.IsNull(raw) {
		if names, err = parseStringList("dim_names", raw); err != nil {
			return nil, nil, err
		}
	}
	return perm, names, nil
}

// parseIntList decodes a JSON array of integers. Entries must be JSON
// numbers with integral values: strings ("2"), nulls, fractions and values
// beyond int64 are rejected.
func parseIntList(key string, raw json.RawMessage) ([]int, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, fmt.Errorf("%s must be an array of integers, got %s", key, extbase.Clip(raw))
	}
	out := make([]int, len(items))
	for i, it := range items {
		v, err := parseInt(it)
		if err != nil {
			return nil, fmt.Errorf("%s must be an array of integers, got %s", key, extbase.Clip(it))
		}
		out[i] = v
	}
	return out, nil
}

// parseInt decodes one JSON number with an integral value.
func parseInt(raw json.RawMessage) (int, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || (t[0] != '-' && (t[0] < '0' || t[0] > '9')) {
		return 0, errors.New("not a number")
	}
	v, err := strconv.ParseInt(string(t), 10, 64)
	if err != nil {
		return 0, err
	}
	if v != int64(int(v)) {
		return 0, errors.New("out of range")
	}
	return int(v), nil
}

// parseOptionalIntList decodes a JSON array whose entries are integers or
// null (as uniform_shape); a null entry becomes -1 (VaryingDim), and an
// explicit negative number is an error.
func parseOptionalIntList(key string, raw json.RawMessage) ([]int, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, fmt.Errorf("%s must be an array of integers and nulls, got %s", key, extbase.Clip(raw))
	}
	vals := make([]int, len(items))
	for i, it := range items {
		if extbase.IsNull(it) {
			vals[i] = VaryingDim
			continue
		}
		v, err := parseInt(it)
		if err != nil {
			return nil, fmt.Errorf("%s must be an array of integers and nulls, got %s", key, extbase.Clip(it))
		}
		if v < 0 {
			return nil, fmt.Errorf("%s must have non-negative values or null, got %d", key, v)
		}
		vals[i] = v
	}
	return vals, nil
}

// parseStringList decodes a JSON array of strings; null entries are
// rejected (encoding/json would turn them into "").
func parseStringList(key string, raw json.RawMessage) ([]string, error) {
	var items []*string
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, fmt.Errorf("%s must be an array of strings, got %s", key, extbase.Clip(raw))
	}
	out := make([]string, len(items))
	for i, it := range items {
		if it == nil {
			return nil, fmt.Errorf("%s must be an array of strings, got null at %d", key, i)
		}
		out[i] = *it
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
				ndim, ndim-1, FormatShape(perm))
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

// writeJSONStrings writes a JSON array of strings as Arrow C++ (rapidjson)
// does: no HTML escaping of <, > and &.
func writeJSONStrings(b *strings.Builder, v []string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // []string never fails
	s := b.String()
	if strings.HasSuffix(s, "\n") { // Encode ends with a newline
		b.Reset()
		b.WriteString(s[:len(s)-1])
	}
}

// permuteInts returns v[perm[i]] for each i, or a copy of v when perm is
// nil or not a permutation of v's indices (an invalid type's parameters).
func permuteInts(v, perm []int) []int { return permute(v, perm) }

// permuteStrings is permuteInts for dim names; nil stays nil.
func permuteStrings(v []string, perm []int) []string {
	if v == nil {
		return nil
	}
	return permute(v, perm)
}

func permute[T any](v []T, perm []int) []T {
	out := make([]T, len(v))
	if perm == nil || checkPermutation(perm, len(v)) != nil {
		copy(out, v)
		return out
	}
	for i, p := range perm {
		out[i] = v[p]
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
