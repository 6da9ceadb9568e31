//go:build wasm

package site

// Run does nothing in the browser, where the app runs instead.
func Run(args []string) error { return nil }
