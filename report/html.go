package report

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
)

// The page's template and stylesheet; the stylesheet is inlined into the page's <style>.
//
//go:embed templates/report.html.tmpl templates/report.css templates/measured.html.tmpl templates/holds.html.tmpl templates/sites.html.tmpl
var htmlFS embed.FS

// RenderedFigure is a figure ready for the page: what Figures describes, with its SVG.
type RenderedFigure struct {
	// Name is the figure's element id on the page (unique, no white space).
	Name string
	// Section is "workload", "search", "sensitivity" or "run"; Workload indexes
	// Report.Workloads ("workload") or Report.Comparisons ("run"), -1 otherwise.
	Section  string
	Workload int
	// Title and Caption are shown under the figure, the title in bold.
	Title, Caption string
	// SVG is the figure as an <svg> element (gonum's vgsvg output as it is: an XML prolog or
	// comments before the element are removed, and a viewBox added when it has none).
	SVG template.HTML
}

// Figure sections.
const (
	SectionWorkload    = "workload"
	SectionSearch      = "search"
	SectionSensitivity = "sensitivity"
	SectionRun         = "run"
)

// Ids of the page's sections, for in-page links (#diagnosis ...). Figure names must differ
// from them and from the per-workload ids (diagnosis-w1, workload-w1, run-w1, ...).
const (
	htmlIDConfiguration = "configuration"
	htmlIDDiagnosis     = "diagnosis"
	htmlIDWorkload      = "workload"
	htmlIDSearch        = "search"
	htmlIDSensitivity   = "sensitivity"
	htmlIDRun           = "run"
)

// htmlMaxClassRows is how many classes the per-class table lists; the rest are summed in one row.
const htmlMaxClassRows = 15

// htmlMaxParetoRows is how many Pareto-front trials the search section lists.
const htmlMaxParetoRows = 40

var htmlTemplate = template.Must(template.New("report.html.tmpl").ParseFS(htmlFS, "templates/report.html.tmpl", "templates/measured.html.tmpl", "templates/holds.html.tmpl", "templates/sites.html.tmpl"))

// WriteHTML writes the report as one self-contained HTML page: inline CSS and SVG, no script,
// no reference to anything outside the page (its only links are in-page anchors). figs are
// placed in their sections (workload and run figures under their workload), in the order
// given. It returns an error, and writes nothing, when a figure's name, section, workload or
// SVG is unusable, or when a figure's SVG refers to something outside the page.
func WriteHTML(w io.Writer, r *Report, figs []RenderedFigure) error {
	if r == nil {
		return errors.New("report: html: nil report")
	}
	p, err := newHTMLPage(r, figs)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := htmlTemplate.Execute(&buf, p); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}
