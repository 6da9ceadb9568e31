package testkit

import (
	"strings"
	"testing"
)

// Internal reports whether an error text tells of a panic: one recovered
// by package decode or summary (decode.ErrPanic's text, "internal error
// while decoding"), or one inside arrow-go's readers (which recover their
// own and return them as errors with these words). arrow-go's own panics
// about corrupt data with a message of their own ("arrow/array: string
// offsets out of bounds of data buffer") are errors, not bugs: they say
// what is wrong.
func Internal(s string) bool {
	for _, w := range []string{"internal error while decoding", "runtime error", "error reading record batch:", "unknown error while reading", "invalid message metadata:"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// NoPanic fails t when err tells of a panic (Internal); what says what
// returned it.
func NoPanic(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil && Internal(err.Error()) {
		t.Fatalf("%s: %v", what, err)
	}
}
