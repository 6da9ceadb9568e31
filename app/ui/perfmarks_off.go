//go:build !perfmarks

package ui

// mark does nothing: performance marks are in builds with the tag
// perfmarks only (perfmarks.go).
func mark(string) {}
