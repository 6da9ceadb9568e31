//go:build perfmarks && js && wasm

// Package perfmark sets the page's performance marks for bench/browser's
// breakdown of the time between opening a file and its first previews:
// Mark(name) calls performance.mark("tv:" + name). Only builds with the
// tag perfmarks set marks (make static TAGS=arrow_json_stdlib,perfmarks);
// in others, and natively, Mark is empty (off.go) and costs nothing.
package perfmark

import "syscall/js"

// On is whether this build sets marks (for work done only to name one).
const On = true

// Mark sets the performance mark "tv:"+name (performance.mark).
func Mark(name string) {
	js.Global().Get("performance").Call("mark", "tv:"+name)
}
