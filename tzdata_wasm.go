//go:build js && wasm

package main

import (
	"time"
	_ "unsafe" // go:linkname

	"github.com/tensorview/tensorview/internal/tzload"
)

// The zone database, fetched when first needed: a browser has none for Go's
// time package, and a timestamp column of a named zone ("Europe/Paris") is
// read in its zone, its filters' literals too (app/query, arrow-go's
// TimestampType.GetZone: time.LoadLocation), which fail without it
// ("unknown time zone"). time/tzdata would embed it in the wasm (0.41 MB,
// 59 kB of brotli 11); instead time.LoadLocation asks tzdata.Load, which
// fetches web/tzdata.zip (`make wasm` copies Go's own) the first time, its
// caller waiting. go-app runs the page's handlers and renders on its own
// goroutine, never in a JavaScript callback, so that wait cannot deadlock.
var tzdata = tzload.Loader{Fetch: tzload.FetchURL("web/tzdata.zip", 30*time.Second)}

// registerLoadFromEmbeddedTZData is the hook time/tzdata itself uses: the
// loader time.LoadLocation tries after the system's zone directories.
//
//go:linkname registerLoadFromEmbeddedTZData time.registerLoadFromEmbeddedTZData
func registerLoadFromEmbeddedTZData(func(string) (string, error))

func init() { registerLoadFromEmbeddedTZData(tzdata.Load) }
