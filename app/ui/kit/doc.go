// Package kit is what every feature of the page uses: typed go-app
// actions (Action, Signal), the progress bar (ProgressBar), canvas
// drawing, the after-paint hook (AfterPaint), moving the keyboard focus
// (Focus), the row counts' text (RowCount) and small texts (Plural,
// NamesSuffix).
package kit
