package overlay

import (
	"fmt"
	"image"
	"math"

	"github.com/tensorview/tensorview/tensorext"
)

// Layer paints a mask's classes, as Blend would draw them with style s, at
// w×h pixels: layer pixel (x, y) shows mask element (y·H/h, x·W/w) (integer
// division; H×W the mask's size by MaskAxes), the nearest-neighbour rule
// by which raster.PreviewIn samples a picture down to its thumbnail, so a
// thumbnail pixel and the layer pixel over it come from the same pixel of
// the image. A pixel whose class is drawn (not hidden; in Outline mode an
// edge of its class in the mask: see Blend) holds the class's colour with
// alpha 255; any other pixel is transparent (all zero). Over blends the
// layer into a picture.
//
// At the mask's own size, Over(dst, Layer(mask, s, W, H), s.Opacity) is
// Blend(dst, mask, s). It returns an error for a mask Blend refuses, or w
// or h below 1.
func Layer(mask tensorext.Tensor, s Style, w, h int) (*image.RGBA, error) {
	if w < 1 || h < 1 {
		return nil, fmt.Errorf("overlay: a layer of %d×%d pixels", w, h)
	}
	g, err := newGrid(mask, s.Threshold)
	if err != nil {
		return nil, err
	}
	if g.h < 1 || g.w < 1 {
		return nil, fmt.Errorf("overlay: the mask is %d×%d (height × width): nothing to draw", g.h, g.w)
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	pal := s.palette()
	cols := make([]int, w)
	for x := range cols {
		cols[x] = x * g.w / w
	}
	for y := range h {
		my := y * g.h / h
		row := out.Pix[y*out.Stride : y*out.Stride+4*w]
		for x, mx := range cols {
			id, ok := g.class(mx, my)
			if !ok || s.Hidden[id] || (s.Outline && !g.edge(mx, my, id)) {
				continue
			}
			c := pal(id)
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = c.R, c.G, c.B, 255
		}
	}
	return out, nil
}

// Over blends layer (from Layer) into dst at opacity α (clamped to 0..1):
// where a layer pixel is not transparent, each of dst's R, G and B becomes
// floor((1−α)·img + α·colour + 0.5), as Blend computes it; alpha and the
// other pixels are left as they are. Layer pixel (x, y) lies over dst
// pixel (Min.X+x, Min.Y+y); only the pixels both cover are drawn.
func Over(dst, layer *image.RGBA, opacity float64) {
	a := math.Max(0, math.Min(1, opacity))
	if a != a {
		a = 0
	}
	db, lb := dst.Bounds(), layer.Bounds()
	w, h := min(db.Dx(), lb.Dx()), min(db.Dy(), lb.Dy())
	for y := range h {
		lo := layer.PixOffset(lb.Min.X, lb.Min.Y+y)
		do := dst.PixOffset(db.Min.X, db.Min.Y+y)
		lrow, drow := layer.Pix[lo:lo+4*w], dst.Pix[do:do+4*w]
		for x := 0; x < 4*w; x += 4 {
			if lrow[x+3] == 0 {
				continue
			}
			drow[x] = mix(drow[x], lrow[x], a)
			drow[x+1] = mix(drow[x+1], lrow[x+1], a)
			drow[x+2] = mix(drow[x+2], lrow[x+2], a)
		}
	}
}
