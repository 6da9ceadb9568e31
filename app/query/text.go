package query

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// folded is a pattern for case-insensitive matching (Unicode simple case
// folding, as strings.EqualFold).
type folded struct {
	p     string
	lower string // p in ASCII lower case, when p is ASCII
	ascii bool   // p is ASCII
	ks    bool   // p holds k or s, which non-ASCII runes fold to (K, ſ)
	runes []rune
}

func newFolded(p string) *folded {
	f := &folded{p: p, ascii: isASCII(p), runes: []rune(p)}
	if f.ascii {
		f.lower = strings.ToLower(p)
		f.ks = strings.ContainsAny(f.lower, "ks")
	}
	return f
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// fast reports whether s can be matched byte by byte in ASCII lower case.
func (f *folded) fast(s string) bool { return f.ascii && (!f.ks || isASCII(s)) }

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefix reports whether s starts with the pattern, ignoring case.
func (f *folded) hasPrefix(s string) bool {
	if f.fast(s) {
		if len(s) < len(f.lower) {
			return false
		}
		for i := 0; i < len(f.lower); i++ {
			if lowerASCII(s[i]) != f.lower[i] {
				return false
			}
		}
		return true
	}
	return prefixRunes(s, f.runes)
}

// contains reports whether s holds the pattern, ignoring case.
func (f *folded) contains(s string) bool {
	if f.p == "" {
		return true
	}
	if f.fast(s) {
		lp := f.lower
		c0 := lp[0]
		u0 := c0
		if 'a' <= c0 && c0 <= 'z' {
			u0 = c0 - 'a' + 'A'
		}
	next:
		for i := 0; i+len(lp) <= len(s); i++ {
			if s[i] != c0 && s[i] != u0 {
				continue
			}
			for j := 1; j < len(lp); j++ {
				if lowerASCII(s[i+j]) != lp[j] {
					continue next
				}
			}
			return true
		}
		return false
	}
	for i := range s { // each rune start
		if prefixRunes(s[i:], f.runes) {
			return true
		}
	}
	return false
}

// prefixRunes reports whether s starts with the runes p, ignoring case.
func prefixRunes(s string, p []rune) bool {
	for _, r := range p {
		if s == "" {
			return false
		}
		c, size := utf8.DecodeRuneInString(s)
		if !equalFold(c, r) {
			return false
		}
		s = s[size:]
	}
	return true
}

func equalFold(a, b rune) bool {
	if a == b {
		return true
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}
