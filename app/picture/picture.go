package picture

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/tensorext"
)

// Dimension names the rule recognises, compared case-insensitively after
// trimming spaces.
var (
	RowNames     = []string{"h", "height", "y", "row", "rows"}
	ColumnNames  = []string{"w", "width", "x", "col", "cols", "column", "columns"}
	ChannelNames = []string{"c", "channel", "channels", "band", "bands", "rgb", "rgba"}
)

// Axes is where a tensor's picture is: indices into its shape.
type Axes struct {
	// H and W are the dimensions shown as the picture's rows and columns.
	H, W int
	// Channel is the dimension of colour channels (size 1 grey, 3 RGB, 4
	// RGBA), or -1 when there is none.
	Channel int
	// Preview reports that the tensor is an image the table previews: a
	// numeric 2-D tensor (grey), or a 3-D uint8 or floating point tensor
	// with a channel dimension; no dimension of size 0.
	Preview bool
}

// Colour reports whether the channel dimension holds colours (3 or 4
// channels, ColourChannels) rather than one grey level.
func (l Axes) Colour(shape []int) bool {
	return l.Channel >= 0 && ColourChannels(shape[l.Channel])
}

// ColourChannels reports whether a channel dimension of size n holds
// colours: 3 (RGB) or 4 (RGBA). The table's previews (raster.Kind) and the
// inspector's colour pictures (inspect.View.Channel) take exactly these.
func ColourChannels(n int) bool { return n == 3 || n == 4 }

// Find finds the picture in a tensor of the given shape, dim_names (nil,
// or one per dimension, in the shape's order) and value type. ok is false
// for fewer than 2 dimensions or a value type that is not numeric (integer,
// floating point, boolean). A value type that implements
// tensorext.FloatType (Lance's bfloat16, say) counts as the floating point
// type it names (tensorext.StandardType).
//
// The rule:
//   - Channel: only for uint8 and floating point values and at least 3
//     dimensions, a dimension of size 1, 3 or 4. When the tensor names its
//     dimensions, only a channel name (ChannelNames: C, channel, band, rgb,
//     rgba, …) makes one: a volume T,Z,X,Y whose last size is 4 has none.
//     Unnamed, the last dimension, else (3-D only) the first: HWC before
//     CHW.
//   - H and W: the dimensions named as rows and columns (RowNames,
//     ColumnNames) when both exist apart from Channel; else the last two
//     dimensions other than Channel.
func Find(shape []int, dimNames []string, valueType arrow.DataType) (l Axes, ok bool) {
	valueType = tensorext.StandardType(valueType)
	n := len(shape)
	if n < 2 || !numeric(valueType) {
		return Axes{}, false
	}
	names := dimNames
	if len(names) != n || allEmpty(names) {
		names = nil
	}
	l.Channel = -1
	if n >= 3 && channelType(valueType) {
		switch {
		case names != nil:
			if c := index(names, ChannelNames); c >= 0 && channelSize(shape[c]) {
				l.Channel = c
			}
		case channelSize(shape[n-1]):
			l.Channel = n - 1
		case n == 3 && channelSize(shape[0]):
			l.Channel = 0
		}
	}
	rest := make([]int, 0, n)
	for d := range n {
		if d != l.Channel {
			rest = append(rest, d)
		}
	}
	l.H, l.W = rest[len(rest)-2], rest[len(rest)-1]
	if h, w := index(names, RowNames), index(names, ColumnNames); h >= 0 && w >= 0 && h != w && h != l.Channel && w != l.Channel {
		l.H, l.W = h, w
	}
	l.Preview = (n == 2 || (n == 3 && l.Channel >= 0)) && !hasZero(shape)
	return l, true
}

func channelSize(n int) bool { return n == 1 || n == 3 || n == 4 }

// channelType: uint8 and floating point values can be colour channels.
func channelType(dt arrow.DataType) bool {
	return dt.ID() == arrow.UINT8 || arrow.IsFloating(dt.ID())
}

func numeric(dt arrow.DataType) bool {
	if dt == nil {
		return false
	}
	id := dt.ID()
	return arrow.IsInteger(id) || arrow.IsFloating(id) || id == arrow.BOOL
}

func allEmpty(names []string) bool {
	for _, s := range names {
		if strings.TrimSpace(s) != "" {
			return false
		}
	}
	return true
}

func hasZero(shape []int) bool {
	for _, d := range shape {
		if d == 0 {
			return true
		}
	}
	return false
}

// NameIndex returns the first dimension whose name, trimmed, equals one of
// want case-insensitively (RowNames, ColumnNames, ChannelNames), or -1: the
// name matching Find uses, for other rules over dim_names (package
// overlay's masks).
func NameIndex(names, want []string) int { return index(names, want) }

// index is the first dimension whose name is one of want, or -1.
func index(names, want []string) int {
	for i, s := range names {
		s = strings.TrimSpace(s)
		for _, w := range want {
			if strings.EqualFold(s, w) {
				return i
			}
		}
	}
	return -1
}
