//go:build !perfmarks || !js || !wasm

package perfmark

// On is whether this build sets marks: not this one.
const On = false

// Mark does nothing: performance marks are set in builds for the browser
// with the tag perfmarks only (perfmark.go).
func Mark(string) {}
