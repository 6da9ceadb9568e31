package testkit

import "testing"

// Masks is testdata/masks_expected.json, written by testdata/gen_masks.mjs
// beside the mask fixtures: the picture (Height × Width × 3, row-major
// uint8 samples), its mask of class ids (Height × Width) and the class
// names.
type Masks struct {
	Height, Width int
	Image, Mask   []int
	Names         []string
}

// ReadMasks reads testdata/masks_expected.json.
func ReadMasks(tb testing.TB) Masks {
	tb.Helper()
	var e Masks
	TestdataJSON(tb, "masks_expected.json", &e)
	return e
}
