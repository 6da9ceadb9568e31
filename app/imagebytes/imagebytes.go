package imagebytes

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"

	"golang.org/x/image/webp"
)

// Format names an encoded image format, as the viewer shows it; "" is none.
type Format string

// The formats Sniff recognises.
const (
	None Format = ""
	PNG  Format = "PNG"
	JPEG Format = "JPEG"
	GIF  Format = "GIF"
	WebP Format = "WebP"
)

// Sniff returns the format of the encoded image b by its magic number alone
// (never by a file name), or None:
//   - PNG: the 8-byte signature 89 50 4E 47 0D 0A 1A 0A (PNG spec §5.2).
//   - JPEG: FF D8 FF, the SOI marker and the first byte of the next marker
//     (ITU T.81 B.2.1).
//   - GIF: "GIF87a" or "GIF89a" (GIF89a spec §17).
//   - WebP: "RIFF", a 4-byte size, "WEBP" (RFC 9649 §2.4).
func Sniff(b []byte) Format {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return PNG
	case bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}):
		return JPEG
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return GIF
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return WebP
	}
	return None
}

// Limits bound what Decode and DecodePreview accept. A zero (or negative)
// field means its DefaultLimits value.
type Limits struct {
	// MaxPixels is the largest declared width×height decoded. The tensor
	// Decode returns takes at most MaxPixels×4 bytes (160 MB by default);
	// while decoding, the format's decoder holds its own picture as well
	// (Info.PeakBytes).
	MaxPixels int64
	// MaxBytes is the largest encoded image, in bytes, accepted. It bounds
	// decoding time for files whose cost is not in their dimensions (a JPEG
	// of thousands of progressive scans).
	MaxBytes int
}

// DefaultLimits is 40 megapixels and 64 MiB of encoded bytes. A 4K frame
// (3840×2160) is 8.3 MP and most camera photos 12 to 24 MP, so 40 MP admits
// them all, while its decoded H×W×4 tensor stays at 160 MB (plus the
// decoder's own picture, at most 8 bytes a pixel for a 16-bit RGBA PNG)
// inside a browser tab's WebAssembly memory. A 40 MP PNG compresses to well
// under 64 MiB unless it is noise.
var DefaultLimits = Limits{MaxPixels: 40_000_000, MaxBytes: 64 << 20}

func (l Limits) norm() Limits {
	if l.MaxPixels <= 0 {
		l.MaxPixels = DefaultLimits.MaxPixels
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	return l
}

// ErrUnknownFormat is returned for bytes that are not a PNG, JPEG, GIF or
// WebP image by their magic number.
var ErrUnknownFormat = errors.New("not a PNG, JPEG, GIF or WebP image")

// ErrTooLarge is wrapped by the errors for images past the Limits, whose
// text names the declared size, for example "PNG declares 100000×100000
// pixels (10.0 G), more than the 40 M this viewer decodes".
var ErrTooLarge = errors.New("image too large")

type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }
func (e *limitError) Unwrap() error { return ErrTooLarge }

// Info describes an encoded image from its header alone.
type Info struct {
	Format        Format
	Width, Height int
	// Channels is the number of channels Decode produces: 1 (gray), 3
	// (RGB) or 4 (RGB and straight alpha). See the package documentation
	// for the rule per format.
	Channels int
	// BitDepth is the declared bits per sample: 16 for 16-bit PNGs (which
	// Decode reduces to 8), else 8 (1, 2 and 4-bit PNGs count as 8).
	BitDepth int
	// Lossless reports a lossless encoding: always for PNG and GIF, for
	// WebP when it is VP8L (alone or in VP8X), never for JPEG.
	Lossless bool
}

// Pixels returns Width×Height.
func (i Info) Pixels() int64 { return int64(i.Width) * int64(i.Height) }

// DecodedBytes returns the size in bytes of the tensor Decode returns:
// Width×Height×Channels.
func (i Info) DecodedBytes() int64 { return i.Pixels() * int64(i.Channels) }

// PeakBytes estimates the memory Decode holds at once: the format decoder's
// own picture (bytes per pixel: JPEG 3 at 4:4:4, and progressive JPEGs keep
// 4 bytes a sample of coefficients besides; WebP lossy with alpha 2.5,
// lossless 4; GIF 1; PNG 1 to 8 by colour type and depth) plus the tensor,
// which for gray JPEGs and PNGs and for RGBA WebP lossless and PNG is that
// picture itself (counted twice here). DecodePreview holds the decoder's
// picture and a preview-sized image instead of the tensor.
func (i Info) PeakBytes() int64 {
	var per float64
	switch i.Format {
	case JPEG:
		per = 3
	case WebP:
		per = 2.5
		if i.Channels == 4 {
			per = 4
		}
	case GIF:
		per = 1
	case PNG:
		per = float64(i.Channels)
		if i.BitDepth == 16 {
			per *= 2
		}
	}
	return int64(per*float64(i.Pixels())) + i.DecodedBytes()
}

// String describes the image as the viewer shows it in a cell, for example
// "PNG 640×480 RGB" or "PNG 64×64 RGBA 16-bit" (16-bit samples).
func (i Info) String() string {
	s := fmt.Sprintf("%s %d×%d %s", i.Format, i.Width, i.Height, channelName(i.Channels))
	if i.BitDepth == 16 {
		s += " 16-bit"
	}
	return s
}

func channelName(c int) string {
	switch c {
	case 1:
		return "gray"
	case 3:
		return "RGB"
	case 4:
		return "RGBA"
	}
	return fmt.Sprintf("%d channels", c)
}

// Config reads the format, size and channels of the encoded image b from
// its header, without decoding pixels (the standard library's and
// golang.org/x/image/webp's DecodeConfig, plus a walk over the chunks or
// blocks before the pixel data for transparency). It returns
// ErrUnknownFormat for bytes Sniff does not recognise, and the decoder's
// error for a broken header. It never panics and allocates at most a
// palette.
func Config(b []byte) (info Info, err error) {
	info, _, err = config(b)
	return info, err
}

// config is Config that also returns the decoder's colour model (for a
// paletted PNG, its palette with the tRNS alpha applied).
func config(b []byte) (info Info, cm color.Model, err error) {
	defer func() {
		if r := recover(); r != nil {
			info, cm, err = Info{}, nil, fmt.Errorf("reading the image header: %v", r)
		}
	}()
	f := Sniff(b)
	info = Info{Format: f, BitDepth: 8}
	codec, ok := codecs[f]
	if !ok {
		return Info{}, nil, ErrUnknownFormat
	}
	c, err := codec.config(bytes.NewReader(b))
	if err != nil {
		return Info{}, nil, fmt.Errorf("%s: %w", f, err)
	}
	info.Width, info.Height = c.Width, c.Height
	switch f {
	case PNG:
		info.Channels, info.BitDepth = pngChannels(b, c.ColorModel)
	case JPEG:
		info.Channels = 3
		if c.ColorModel == color.GrayModel {
			info.Channels = 1
		}
	case GIF:
		info.Channels = gifChannels(b, c.Width, c.Height)
	case WebP:
		info.Channels = webpChannels(b)
		info.Lossless = webpLossless(b)
	}
	info.Lossless = info.Lossless || f == PNG || f == GIF
	return info, c.ColorModel, nil
}

// CheckLimits returns why the image b, whose header says info (Config),
// is refused before decoding, or nil: it is larger than lim.MaxBytes,
// declares no pixels, or declares more than lim.MaxPixels (an error
// wrapping ErrTooLarge that names the declared size). Decode and
// DecodePreview check it first.
func CheckLimits(b []byte, info Info, lim Limits) error {
	lim = lim.norm()
	if len(b) > lim.MaxBytes {
		return &limitError{fmt.Sprintf("%s is %s bytes, more than the %s this viewer decodes",
			info.Format, decimal(int64(len(b))), round(int64(lim.MaxBytes)))}
	}
	if info.Width <= 0 || info.Height <= 0 {
		return fmt.Errorf("%s declares %d×%d pixels: no picture", info.Format, info.Width, info.Height)
	}
	if info.Pixels() > lim.MaxPixels {
		return &limitError{fmt.Sprintf("%s declares %d×%d pixels (%s), more than the %s this viewer decodes",
			info.Format, info.Width, info.Height, decimal(info.Pixels()), round(lim.MaxPixels))}
	}
	return nil
}

// decimal writes n with one decimal and an SI prefix: "10.0 G", "8.3 M",
// "512".
func decimal(n int64) string {
	v, unit := float64(n), ""
	for _, u := range []string{"k", "M", "G", "T", "P", "E"} {
		if v < 1000 {
			break
		}
		v, unit = v/1000, u
	}
	if unit == "" {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%.1f %s", v, unit)
}

// round is decimal without a zero decimal: "40 M", "67.1 M".
func round(n int64) string {
	s := decimal(n)
	if i := len(s) - 4; i > 0 && s[i:i+2] == ".0" {
		s = s[:i] + s[i+2:]
	}
	return s
}

// pngChannels decides the channels of a PNG from its IHDR colour type and
// whether a tRNS chunk comes before the first IDAT; depth is IHDR's bit
// depth (16, else reported as 8). cm is DecodeConfig's colour model (the
// palette, with tRNS alpha applied, for paletted images).
func pngChannels(b []byte, cm color.Model) (channels, depth int) {
	// DecodeConfig succeeded, so IHDR is complete at offset 8.
	colorType, bitDepth := b[25], b[24]
	depth = 8
	if bitDepth == 16 {
		depth = 16
	}
	switch colorType {
	case 0: // gray
		if pngHasTRNS(b) {
			return 4, depth
		}
		return 1, depth
	case 2: // truecolour
		if pngHasTRNS(b) {
			return 4, depth
		}
		return 3, depth
	case 3: // paletted
		if p, ok := cm.(color.Palette); ok && paletteHasAlpha(p) {
			return 4, depth
		}
		return 3, depth
	}
	return 4, depth // 4 gray+alpha, 6 truecolour+alpha
}

// pngHasTRNS walks the chunks after the signature until IDAT.
func pngHasTRNS(b []byte) bool {
	for p := 8; p+8 <= len(b); {
		n := int64(binary.BigEndian.Uint32(b[p:]))
		switch string(b[p+4 : p+8]) {
		case "tRNS":
			return true
		case "IDAT":
			return false
		}
		next := int64(p) + 12 + n
		if next > int64(len(b)) {
			return false
		}
		p = int(next)
	}
	return false
}

func paletteHasAlpha(p color.Palette) bool {
	for _, c := range p {
		if _, _, _, a := c.RGBA(); a != 0xffff {
			return true
		}
	}
	return false
}

// gifChannels is 4 when the first frame's Graphic Control Extension sets a
// transparent colour or the frame leaves part of the w×h logical screen
// uncovered (drawn transparent), else 3. It walks the blocks up to the first
// image descriptor (GIF89a spec §§18-23).
func gifChannels(b []byte, w, h int) int {
	if len(b) < 13 {
		return 4
	}
	p := 13
	if flags := b[10]; flags&0x80 != 0 {
		p += 3 << (flags&7 + 1)
	}
	transparent := false
	for p < len(b) {
		switch b[p] {
		case 0x21: // extension: label, then sub-blocks
			if p+1 >= len(b) {
				return 4
			}
			label := b[p+1]
			p += 2
			first := true
			for p < len(b) && b[p] != 0 {
				n := int(b[p])
				if label == 0xf9 && first && n >= 4 && p+2 < len(b) {
					transparent = transparent || b[p+1]&1 != 0 // as image/gif: a later GCE does not clear it
				}
				first = false
				p += 1 + n
			}
			p++
		case 0x2c: // image descriptor
			if p+9 > len(b) {
				return 4
			}
			left, top := int(binary.LittleEndian.Uint16(b[p+1:])), int(binary.LittleEndian.Uint16(b[p+3:]))
			fw, fh := int(binary.LittleEndian.Uint16(b[p+5:])), int(binary.LittleEndian.Uint16(b[p+7:]))
			if transparent || left != 0 || top != 0 || fw != w || fh != h {
				return 4
			}
			return 3
		default:
			return 4
		}
	}
	return 4
}

// webpChannels reads the first chunk after the RIFF header: VP8 (lossy,
// no alpha) 3; VP8L 4 when its header's alpha_is_used hint is set, else 3
// (RFC 9649 §3.2); VP8X 4 when its alpha flag is set, else 3 (§2.7).
func webpChannels(b []byte) int {
	if len(b) < 21 {
		return 4
	}
	switch string(b[12:16]) {
	case "VP8 ":
		return 3
	case "VP8L":
		// 20: signature 0x2f; 21..24: 14 bits width-1, 14 bits height-1,
		// 1 bit alpha_is_used, 3 bits version, least significant first.
		if len(b) >= 25 && b[24]&0x10 == 0 {
			return 3
		}
		return 4
	case "VP8X":
		if b[20]&0x10 == 0 {
			return 3
		}
		return 4
	}
	return 4
}

// webpLossless reports a VP8L chunk among the top-level chunks (RFC 9649
// §2.5-2.7: a simple lossless file, or VP8X followed by VP8L).
func webpLossless(b []byte) bool {
	for p := 12; p+8 <= len(b); {
		switch string(b[p : p+4]) {
		case "VP8L":
			return true
		case "VP8 ":
			return false
		}
		next := int64(p) + 8 + int64(binary.LittleEndian.Uint32(b[p+4:]))
		next += next & 1 // chunks are padded to an even size
		if next > int64(len(b)) {
			return false
		}
		p = int(next)
	}
	return false
}

// codecs are the decoders of each format Sniff recognises: the standard
// library's and golang.org/x/image/webp's.
var codecs = map[Format]struct {
	decode func(io.Reader) (image.Image, error)
	config func(io.Reader) (image.Config, error)
}{
	PNG:  {png.Decode, png.DecodeConfig},
	JPEG: {jpeg.Decode, jpeg.DecodeConfig},
	GIF:  {gif.Decode, gif.DecodeConfig},
	WebP: {webp.Decode, webp.DecodeConfig},
}
