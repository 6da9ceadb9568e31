//go:build js && wasm

package main

// The zone database, embedded: a browser has none for Go's time package,
// and a timestamp column of a named zone ("Europe/Paris") is read in its
// zone, its filters' literals too (app/query: time.LoadLocation), which
// fail without it ("unknown time zone"). About 450 kB of wasm.
import _ "time/tzdata"
