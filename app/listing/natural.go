package listing

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// NaturalLess orders file names as people do: runs of ASCII digits compare
// by their numeric value (part-2 before part-10, train-00002-of-00042
// before train-00010-of-00042, at any length: no overflow), other
// characters one by one, case-insensitively (by Unicode simple case
// folding, lowercase, then code point: "_" before letters, letters in code
// point order, not a locale's collation). Names equal so compare, by these rules in turn: fewer
// leading zeros first at the first number that differs by them (1 before
// 01), then by bytes (uppercase before lowercase: "A" before "a"). So it
// is a strict total order: NaturalLess(a, b) and NaturalLess(b, a) are
// both false only when a == b.
func NaturalLess(a, b string) bool { return naturalCompare(a, b) < 0 }

// SortNatural sorts names by NaturalLess, in place; equal names keep their
// order.
func SortNatural(names []string) {
	slices.SortStableFunc(names, naturalCompare)
}

// naturalCompare is -1, 0 or +1 as a sorts before, as or after b.
func naturalCompare(a, b string) int {
	zeros := 0 // the first difference in leading zeros, the second key
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			da, db := a[si:i], b[sj:j]
			ta, tb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if len(ta) != len(tb) {
				return sign(len(ta) - len(tb))
			}
			if c := strings.Compare(ta, tb); c != 0 {
				return c
			}
			if zeros == 0 && len(da) != len(db) {
				zeros = sign(len(da) - len(db))
			}
			continue
		}
		ra, na := utf8.DecodeRuneInString(a[i:])
		rb, nb := utf8.DecodeRuneInString(b[j:])
		if ra != rb {
			if fa, fb := fold(ra), fold(rb); fa != fb {
				return sign(int(fa) - int(fb))
			}
		}
		i += na
		j += nb
	}
	if c := sign((len(a) - i) - (len(b) - j)); c != 0 {
		return c // the one that ended first
	}
	if zeros != 0 {
		return zeros
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// fold is r's case-folded form: the lowercase of the smallest rune of its
// simple case folding orbit, so "K", "k" and the Kelvin sign fold alike.
func fold(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return unicode.ToLower(least)
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
