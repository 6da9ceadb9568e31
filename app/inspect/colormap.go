package inspect

import (
	"image/color"
	"math"
	"strings"
)

// Default colours of the elements a colormap cannot show. They are fixed
// colours, the same for every built-in colormap, so that a legend can name
// them; change them on a copy of a Colormap if they clash with the data.
// Note that NegInfColor and PosInfColor coincide with the ends of "gray".
var (
	// NaNColor is the colour of NaN elements: opaque magenta #ff00ff.
	NaNColor = color.RGBA{R: 0xff, G: 0x00, B: 0xff, A: 0xff}
	// PosInfColor is the colour of +Inf elements: opaque white #ffffff.
	PosInfColor = color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	// NegInfColor is the colour of -Inf elements: opaque black #000000.
	NegInfColor = color.RGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xff}
	// NullColor is the colour of null elements: fully transparent (0,0,0,0),
	// so the page background shows through.
	NullColor = color.RGBA{}
)

// Colormap maps a value, normalised to 0..1 by a Range, to a colour through a
// 256-entry lookup table, and gives fixed colours to the elements that have
// no place on the scale.
type Colormap struct {
	// Name is the colormap's name as ColormapByName takes it, e.g. "viridis".
	Name string
	// Diverging reports a colormap meant for signed data centred on a
	// neutral middle value (use it with a Range symmetric about 0).
	Diverging bool
	// LUT is the colour of each of the 256 equal bins of the normalised
	// value: LUT[0] for the lowest values, LUT[255] for the highest. All
	// built-in entries are opaque.
	LUT [256]color.RGBA
	// NaN, PosInf, NegInf and Null are the colours of NaN, +Inf, -Inf and
	// null elements (NaNColor, PosInfColor, NegInfColor and NullColor for
	// the built-in colormaps).
	NaN, PosInf, NegInf, Null color.RGBA
}

// At returns the colour of the normalised value f in 0..1: LUT[floor(256*f)],
// clamped to LUT[0] below 0 and LUT[255] from 1 up. NaN gives c.NaN.
func (c *Colormap) At(f float64) color.RGBA {
	if f != f {
		return c.NaN
	}
	return c.LUT[lutIndex(f*256)]
}

// lutIndex returns the LUT entry of a value already scaled to 0..256.
func lutIndex(f float64) int {
	switch {
	case f < 0:
		return 0
	case f >= 255:
		return 255
	}
	return int(f)
}

// Colormaps lists the built-in colormaps: "gray", "viridis", "magma",
// "inferno", "plasma", "turbo" (sequential) and "coolwarm" (diverging). The
// slice is shared: do not modify it; copy an entry to change its colours.
var Colormaps = []Colormap{
	grayMap(),
	hexMap("viridis", viridisHex),
	hexMap("magma", magmaHex),
	hexMap("inferno", infernoHex),
	hexMap("plasma", plasmaHex),
	hexMap("turbo", turboHex),
	coolwarmMap(),
}

// ColormapByName returns the built-in colormap of the given name, matched
// case-insensitively ("grey" is accepted for "gray"); ok is false for an
// unknown name.
func ColormapByName(name string) (Colormap, bool) {
	name = strings.TrimSpace(name)
	if strings.EqualFold(name, "grey") {
		name = "gray"
	}
	for _, c := range Colormaps {
		if strings.EqualFold(c.Name, name) {
			return c, true
		}
	}
	return Colormap{}, false
}

// DefaultColormap returns the colormap suggested for data spanning r:
// "coolwarm" when r has negative and positive values, else "viridis".
func DefaultColormap(r Range) Colormap {
	name := "viridis"
	if r.Min < 0 && r.Max > 0 {
		name = "coolwarm"
	}
	c, _ := ColormapByName(name)
	return c
}

func newMap(name string) Colormap {
	return Colormap{Name: name, NaN: NaNColor, PosInf: PosInfColor, NegInf: NegInfColor, Null: NullColor}
}

// grayMap is the linear gray ramp: entry i is (i, i, i).
func grayMap() Colormap {
	c := newMap("gray")
	for i := range c.LUT {
		c.LUT[i] = color.RGBA{R: uint8(i), G: uint8(i), B: uint8(i), A: 0xff}
	}
	return c
}

// hexMap decodes a table of 256 RRGGBB entries (colormap_data.go).
func hexMap(name, hex string) Colormap {
	if len(hex) != 256*6 {
		panic("inspect: colormap " + name + " does not have 256 entries")
	}
	c := newMap(name)
	for i := range c.LUT {
		e := hex[6*i:]
		c.LUT[i] = color.RGBA{R: hexByte(e[0:2]), G: hexByte(e[2:4]), B: hexByte(e[4:6]), A: 0xff}
	}
	return c
}

func hexByte(s string) uint8 {
	return hexNibble(s[0])<<4 | hexNibble(s[1])
}

func hexNibble(b byte) uint8 {
	switch {
	case '0' <= b && b <= '9':
		return b - '0'
	case 'a' <= b && b <= 'f':
		return b - 'a' + 10
	}
	panic("inspect: bad hex digit in colormap table")
}

// coolwarmMap computes Kenneth Moreland's diverging "cool to warm" map
// ("Diverging Color Maps for Scientific Visualization", ISVC 2009,
// https://www.kennethmoreland.com/color-maps/): interpolation in his Msh
// colour space (polar CIELAB) between sRGB (59, 76, 192) and (180, 4, 38)
// through an unsaturated white of M = 88. This is the published algorithm,
// coded here from the paper; matplotlib's "coolwarm" is a table sampled from
// it. Entry i is the colour at i/255.
func coolwarmMap() Colormap {
	c := newMap("coolwarm")
	c.Diverging = true
	cool := rgbToMsh(59.0/255, 76.0/255, 192.0/255)
	warm := rgbToMsh(180.0/255, 4.0/255, 38.0/255)
	for i := range c.LUT {
		r, g, b := mshToRGB(interpolateMsh(cool, warm, float64(i)/255))
		c.LUT[i] = color.RGBA{R: unit8(r), G: unit8(g), B: unit8(b), A: 0xff}
	}
	return c
}

// unit8 converts a 0..1 channel to 0..255, rounding and clamping.
func unit8(v float64) uint8 {
	return uint8(math.Max(0, math.Min(255, math.Floor(v*255+0.5))))
}

// The CIE reference white Moreland's paper uses (D65, Y = 1).
const refX, refY, refZ = 0.9505, 1.0, 1.089

type msh struct{ m, s, h float64 }

func srgbToLinear(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

func linearToSRGB(c float64) float64 {
	if c <= 0.0031308 {
		return 12.92 * c
	}
	return 1.055*math.Pow(c, 1/2.4) - 0.055
}

func labF(t float64) float64 {
	if t > 0.008856 {
		return math.Cbrt(t)
	}
	return 7.787*t + 16.0/116
}

func labFInv(f float64) float64 {
	if t := f * f * f; t > 0.008856 {
		return t
	}
	return (f - 16.0/116) / 7.787
}

func rgbToMsh(r, g, b float64) msh {
	r, g, b = srgbToLinear(r), srgbToLinear(g), srgbToLinear(b)
	x := 0.4124*r + 0.3576*g + 0.1805*b
	y := 0.2126*r + 0.7152*g + 0.0722*b
	z := 0.0193*r + 0.1192*g + 0.9505*b
	fx, fy, fz := labF(x/refX), labF(y/refY), labF(z/refZ)
	l, a, bb := 116*fy-16, 500*(fx-fy), 200*(fy-fz)
	m := math.Sqrt(l*l + a*a + bb*bb)
	return msh{m: m, s: math.Acos(l / m), h: math.Atan2(bb, a)}
}

func mshToRGB(c msh) (r, g, b float64) {
	l := c.m * math.Cos(c.s)
	a := c.m * math.Sin(c.s) * math.Cos(c.h)
	bb := c.m * math.Sin(c.s) * math.Sin(c.h)
	fy := (l + 16) / 116
	x, y, z := refX*labFInv(fy+a/500), refY*labFInv(fy), refZ*labFInv(fy-bb/200)
	r = 3.2406*x - 1.5372*y - 0.4986*z
	g = -0.9689*x + 1.8758*y + 0.0415*z
	b = 0.0557*x - 0.2040*y + 1.0570*z
	return linearToSRGB(r), linearToSRGB(g), linearToSRGB(b)
}

// adjustHue spins the hue of an unsaturated end point towards the saturated
// colour c (Moreland, section 4.2).
func adjustHue(c msh, unsatM float64) float64 {
	if c.m >= unsatM {
		return c.h
	}
	spin := c.s * math.Sqrt(unsatM*unsatM-c.m*c.m) / (c.m * math.Sin(c.s))
	if c.h > -math.Pi/3 {
		return c.h + spin
	}
	return c.h - spin
}

// interpolateMsh is Moreland's InterpolateColor for f in 0..1.
func interpolateMsh(c1, c2 msh, f float64) msh {
	if c1.s > 0.05 && c2.s > 0.05 && math.Abs(c1.h-c2.h) > math.Pi/3 {
		mid := math.Max(88, math.Max(c1.m, c2.m))
		if f < 0.5 {
			c2 = msh{m: mid}
			f *= 2
		} else {
			c1 = msh{m: mid}
			f = 2*f - 1
		}
	}
	switch {
	case c1.s < 0.05 && c2.s > 0.05:
		c1.h = adjustHue(c2, c1.m)
	case c2.s < 0.05 && c1.s > 0.05:
		c2.h = adjustHue(c1, c2.m)
	}
	return msh{
		m: (1-f)*c1.m + f*c2.m,
		s: (1-f)*c1.s + f*c2.s,
		h: (1-f)*c1.h + f*c2.h,
	}
}
