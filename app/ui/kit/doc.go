// Package kit is what every feature of the page uses: typed go-app
// actions (Action, Signal), the progress bar (ProgressBar), canvas
// drawing, the after-paint hook (AfterPaint) and the row counts' text
// (RowCount).
package kit
