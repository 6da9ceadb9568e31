// Package compare is the inspector's comparison of two tensors, in plain
// Go: which tensors the inspected one (A) can be compared with, B read and
// A − B computed (on overlay.Diff), and the pictures of A, B and A − B for
// one view, side by side or swiped. package overlay holds the rules; the
// ui's compare state and controls hold the state. The grid's selection
// names its cells with Side.
//
// Entry points: Choices and OtherRow (what to compare with), Pair (a
// Comparison), Range, DiffPicture and Swiped (the pictures), Side and
// Describe (names).
package compare
