package testkit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Compared is testdata/compare_expected.json, written by
// testdata/gen_compare.mjs beside compare.arrow: the tensors' logical
// values (row-major) and, per comparison ("target@0 - prediction@0"), what
// A − B must give.
type Compared struct {
	Slices, Height, Width, Channels int
	Values                          struct {
		Target, Prediction [][]JSONFloat
		Image              []int
		Reconstruction     []int
	}
	Diffs map[string]ComparedDiff
}

// ComparedDiff is what overlay.Diff must give for one comparison.
type ComparedDiff struct {
	Shape     []int
	Count     int
	Compared  int
	MaxAbs    float64 `json:"max_abs"`
	MaxIndex  []int   `json:"max_index"`
	MeanAbs   float64 `json:"mean_abs"`
	RMSE      float64
	Peak      float64
	PSNR      float64
	OtherInf  int            `json:"other_inf"`
	Differing map[string]int // by tolerance, as JavaScript's String writes it
	Diff      []JSONFloat    // A − B, row-major
}

// ReadCompared reads testdata/compare_expected.json, failing tb when it
// cannot.
func ReadCompared(tb testing.TB) Compared {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(root(), "testdata", "compare_expected.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var c Compared
	if err := json.Unmarshal(data, &c); err != nil {
		tb.Fatal(err)
	}
	return c
}

// JSONFloat is a number of a JSON file written by JavaScript, where
// non-finite numbers are written as strings ("-Infinity", "NaN").
type JSONFloat float64

// UnmarshalJSON reads a number, or a string JavaScript's String gives for
// a non-finite one.
func (f *JSONFloat) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch v := v.(type) {
	case float64:
		*f = JSONFloat(v)
	case string:
		p, err := strconv.ParseFloat(strings.TrimSuffix(v, "inity"), 64)
		*f = JSONFloat(p)
		return err
	default:
		return fmt.Errorf("testkit: not a number: %s", b)
	}
	return nil
}
