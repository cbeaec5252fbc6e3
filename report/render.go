package report

import (
	"html/template"
	"io"
)

// Render writes the report as one self-contained HTML page with figs drawn inline as SVG.
func Render(w io.Writer, r *Report, figs []Figure) error {
	rendered := make([]RenderedFigure, 0, len(figs))
	for _, f := range figs {
		svg, err := f.SVG()
		if err != nil {
			return err // already "report: figure NAME: ..."
		}
		rendered = append(rendered, RenderedFigure{Name: f.Name, Section: f.Section, Workload: f.Workload,
			Title: f.Title, Caption: f.Caption,
			// The SVG is gonum/plot's own output (no user text is unescaped in it: vgsvg
			// escapes the labels it writes).
			SVG: template.HTML(svg)})
	}
	return WriteHTML(w, r, rendered)
}
