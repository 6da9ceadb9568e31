// Package viewstate writes what the page shows into its address and reads
// it back, so that every view is a link: the file's URL, the first row in
// view, the schema panel, the inspector (field, row, layout, displayed
// dimensions, slider positions, channel, flips, colormap, range mode, zoom
// and pan) and embed mode. It is pure Go (net/url), tested natively.
//
// Entry points: Parse (address query → State) and State.Encode (State →
// query, keeping parameters it does not own, such as cache). Parameter
// names are short, as they are read in links: url, row, schema, embed,
// origin, thumbmask (one "image:mask" per mask the thumbnails show), and
// for the inspector f (field name), r (row), phys, y, x, ch, i (slider
// positions, comma-separated), flip (y, x or yx), cmap, range, zoom, pan
// ("x,y" in CSS pixels).
//
// Model (model.go; NewModel, Model.Do, Model.State, Model.Settled) is the
// one owner of the view state: typed actions (Link, PopState, FileOpened,
// ScrollRow, SetSchema, SetQuery, SetThumbMasks, OpenInspector,
// InspectorChanged, CloseInspector, SetNested, Flush, TraversalLost) in,
// typed effects on the browser's history (Replace, Push, Back, Schedule,
// WaitTraversal, Post, OpenURL) out; WriteDelay and TraversalTimeout are
// its timers. docs/view-state.md gives its rules.
package viewstate
