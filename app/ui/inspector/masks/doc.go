// Package masks is the inspector's masks over pictures, in plain Go: which
// columns of a row can be drawn over the inspected picture and why
// (RowColumns, Choices, ChoiceIndex, Fields), one row's mask read for
// drawing (Read, Tensor), its view over the picture as the inspector shows
// it (Align), the blend (Blend) and the readout under the pointer
// (Readout, Probe). package overlay holds the rules (pairing, colours,
// void, the blend); the ui's overlay controls hold the state.
//
// Entry points: RowColumns, Choices, Read, Align, Blend, Probe.
package masks
