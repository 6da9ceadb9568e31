package listing

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNaturalLess: pairs in order (a before b), so b is not before a.
func TestNaturalLess(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"part-2", "part-10"},
		{"part-9.parquet", "part-10.parquet"},
		{"train-00002-of-00042.parquet", "train-00010-of-00042.parquet"},
		{"train-00041-of-00042.parquet", "train-00042-of-00042.parquet"},
		{"test-00000-of-00001.parquet", "train-00000-of-00042.parquet"},
		{"a", "a1"},
		{"", "a"},
		{"a1", "a1b"},
		{"x1", "x01"},           // equal numbers: fewer leading zeros first
		{"x01b", "x1c"},         // but the text after decides first
		{"x1y01", "x01y1"},      // the first number differing by zeros decides
		{"a", "B"},              // case-insensitive
		{"B", "c"},              // case-insensitive
		{"A", "a"},              // equal but case: bytes, uppercase first
		{"File10", "file11"},    // case-insensitive numbers
		{"_x", "a"},             // "_" before letters
		{"1", "a"},              // digits before letters
		{"z9", "z10"},           // at the end
		{"v1.9", "v1.10"},       // versions
		{"écrit-2", "écrit-10"}, // after multi-byte runes
		{"Émile", "émile"},      // case of non-ASCII letters: uppercase first
		{"émile", "ø"},          // code point order after folding
		{"\u212a1", "k2"},       // the Kelvin sign folds as k
		{"k2", "\u212a3"},
		{"n99999999999999999999999", "n100000000000000000000000"}, // past int64
		{"n0000000000000000000000000009", "n10"},
		{"shard-٣", "shard-٤"}, // non-ASCII digits are text, by code point
	} {
		if !NaturalLess(c.a, c.b) {
			t.Errorf("NaturalLess(%q, %q) = false", c.a, c.b)
		}
		if NaturalLess(c.b, c.a) {
			t.Errorf("NaturalLess(%q, %q) = true", c.b, c.a)
		}
	}
	for _, s := range []string{"", "a", "part-01", "é"} {
		if NaturalLess(s, s) {
			t.Errorf("NaturalLess(%q, %q) = true", s, s)
		}
	}
}

// TestSortNatural: a shuffled list sorts to the expected order, equal
// names keep their order (a stable sort), and the order is a strict weak
// order over random names (checked by the sort's consistency: sorting any
// permutation gives the same result).
func TestSortNatural(t *testing.T) {
	want := []string{
		"data/part-1.parquet", "data/part-2.parquet", "data/part-10.parquet", "data/Part-11.parquet",
		"train-00000-of-00003.parquet", "train-00001-of-00003.parquet", "train-00002-of-00003.parquet",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		got := slices.Clone(want)
		rng.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
		SortNatural(got)
		if !slices.Equal(got, want) {
			t.Fatalf("SortNatural = %q", got)
		}
	}
	// Stable: names equal under the order are the same string, so check
	// with identical strings told apart by their original index.
	type item struct {
		name string
		i    int
	}
	items := []item{{"b", 0}, {"a", 1}, {"b", 2}, {"a", 3}}
	slices.SortStableFunc(items, func(x, y item) int { return naturalCompare(x.name, y.name) })
	if fmt.Sprint(items) != "[{a 1} {a 3} {b 0} {b 2}]" {
		t.Errorf("stable sort: %v", items)
	}
	// Random names of digits, letters of both cases and separators.
	alphabet := []rune("0019aAbB_-.é\u212ak")
	names := make([]string, 300)
	for i := range names {
		r := make([]rune, rng.IntN(7))
		for k := range r {
			r[k] = alphabet[rng.IntN(len(alphabet))]
		}
		names[i] = string(r)
	}
	sorted := slices.Clone(names)
	SortNatural(sorted)
	for range 5 {
		rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		again := slices.Clone(names)
		SortNatural(again)
		if !slices.Equal(again, sorted) {
			t.Fatal("sorting a permutation gave another order: not a total order")
		}
	}
	for i := 1; i < len(sorted); i++ {
		if NaturalLess(sorted[i], sorted[i-1]) {
			t.Errorf("%q before %q", sorted[i-1], sorted[i])
		}
		for _, k := range []int{0, i / 2} { // transitivity, sampled
			if sorted[k] != sorted[i] && !NaturalLess(sorted[k], sorted[i]) {
				t.Errorf("%q not before %q", sorted[k], sorted[i])
			}
		}
	}
}
