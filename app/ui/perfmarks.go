//go:build perfmarks

package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// mark sets a performance mark named "tv:"+name (performance.mark), for
// bench/browser's breakdown of the time between opening a file and its
// first previews. Only builds with the tag perfmarks set marks: in others
// mark is empty (perfmarks_off.go) and costs nothing.
func mark(name string) {
	app.Window().Get("performance").Call("mark", "tv:"+name)
}
