package ui

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/tensorext"
)

// SchemaTable lists the schema's fields: name, Arrow type, nullability,
// extension name and metadata, tensor parameters and column errors.
type SchemaTable struct {
	app.Compo
	Fields []decode.FieldInfo
}

// Render draws the table.
func (s *SchemaTable) Render() app.UI {
	return app.Section().Class("schema").Body(
		app.H2().Text("Schema"),
		app.Table().Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Text("Field"), app.Th().Text("Type"), app.Th().Text("Nullable"),
				app.Th().Text("Extension"), app.Th().Text("Tensor"),
			)),
			app.TBody().Body(
				app.Range(s.Fields).Slice(func(i int) app.UI { return fieldRow(s.Fields[i]) }),
			),
		),
	)
}

func fieldRow(f decode.FieldInfo) app.UI {
	tr := app.Tr().Attr("data-field", f.Name).Attr("data-extension", f.Extension)
	if f.Err != "" {
		tr = tr.Attr("data-error", f.Err).Class("has-error")
	}
	nullable := "no"
	if f.Nullable {
		nullable = "yes"
	}
	return tr.Body(
		app.Td().Class("name").Text(f.Name),
		app.Td().Attr("data-label", "Type").Body(app.Code().Text(f.Type)),
		app.Td().Attr("data-label", "Nullable").Text(nullable),
		app.Td().Attr("data-label", "Extension").Body(
			app.If(f.Extension != "", func() app.UI {
				return app.Div().Body(
					app.Code().Class("ext-name").Text(f.Extension),
					app.If(f.ExtensionMetadata != "", func() app.UI {
						return app.Pre().Class("ext-meta").Attr("data-role", "extension-metadata").Text(f.ExtensionMetadata)
					}),
				)
			}),
		),
		app.Td().Attr("data-label", "Tensor").Body(
			app.If(f.Dialect != "", func() app.UI {
				return app.P().Class("dialect").Attr("data-role", "dialect").Attr("data-dialect", f.Dialect).Body(
					app.Text("read as "), app.Strong().Text(f.Dialect),
					app.If(f.DialectWhy != "", func() app.UI { return app.Span().Class("why").Text(": " + f.DialectWhy) }),
				)
			}),
			app.If(f.Tensor != nil, func() app.UI { return tensorParams(f.Tensor) }),
			app.If(f.Images, func() app.UI {
				return app.P().Class("dialect").Attr("data-role", "dialect").Attr("data-dialect", "encoded images").
					Text("values that are PNG, JPEG, GIF or WebP bytes show as images (height × width × channel uint8)")
			}),
			app.If(f.Note != "", func() app.UI {
				return app.P().Class("column-note").Attr("data-role", "column-note").Text(f.Note)
			}),
			app.If(f.Err != "", func() app.UI {
				return app.P().Class("column-error").Role("alert").Text(f.Err)
			}),
		),
	)
}

func tensorParams(t *decode.TensorField) app.UI {
	var parts []string
	parts = append(parts, "value type "+t.ValueType)
	if t.Shape != nil {
		parts = append(parts, "shape "+tensorext.FormatShape(t.Shape))
	} else if t.NDim >= 0 {
		parts = append(parts, "ndim "+strconv.Itoa(t.NDim))
	} else {
		parts = append(parts, "shape per row")
	}
	if t.DimNames != nil {
		parts = append(parts, "dim_names ["+strings.Join(t.DimNames, ", ")+"]")
	}
	if t.Permutation != nil {
		parts = append(parts, "permutation "+tensorext.FormatShape(t.Permutation))
	}
	if t.UniformShape != "" {
		parts = append(parts, "uniform_shape "+t.UniformShape)
	}
	return app.Ul().Class("params").Body(
		app.Range(parts).Slice(func(i int) app.UI { return app.Li().Text(parts[i]) }),
	)
}
