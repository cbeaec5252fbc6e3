package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/internal/plotkit"
	"github.com/gctune/gctune/lifetimes"
)

// Figure is one figure of the report: a gonum/plot drawing, rendered on demand as SVG (to
// inline in the HTML page) or PNG (for --png).
type Figure struct {
	// Name is the figure's file stem and element id, unique in the report, lowercase with
	// dashes: "workload-1-lifetimes", "workload-1-lifetimes-log", "search-progress",
	// "search-pareto", "sensitivity-sweeps", "run-1-footprint", "run-1-scavenges",
	// "run-1-fullgcs", "run-1-remembered-set", "run-1-tenured" (workloads and runs numbered
	// from 1). The sensitivity figure is not named "sensitivity", the id of its page section.
	Name string
	// Section is SectionWorkload, SectionSearch, SectionSensitivity, SectionHolds ("holds-spread",
	// "holds-landscape": figures_holds.go) or SectionRun.
	Section string
	// Workload is the index into Report.Workloads (workload figures) or Report.Comparisons
	// (run figures), -1 for the others.
	Workload int
	// Title is a short heading; Caption one or two plain sentences saying what the figure shows
	// and how to read it.
	Title   string
	Caption string

	// render writes the figure to w as "svg" or "png".
	render func(w io.Writer, format string) error
}

// Rendering settings.
const (
	// figPNGDPI is the resolution of PNG figures.
	figPNGDPI = 120
	// figMaxSeriesPoints is the most points one line of a figure keeps; longer series are
	// downsampled keeping each bucket's extremes.
	figMaxSeriesPoints = 3000
	// figValueLogRatio is the same for objective axes: from a factor of 4 the default's value
	// (often many times the best) would squash every trial against the axis's bottom.
	figValueLogRatio = 4
)

// Figure sizes.
var (
	figWideWidth   = 11 * vg.Inch
	figWideHeight  = 4.5 * vg.Inch
	figTallHeight  = 7 * vg.Inch // two panels of full GCs, tall enough to read their times
	figPanelHeight = 3.4 * vg.Inch
)

// Colours, the same in every figure, from plotkit's palette (whose Word the captions use): the
// default configuration in Okabe-Ito's vermillion (orange) and its shades, the best one in
// blue, which colour-blind readers tell apart.
var (
	figColDefault       = plotkit.Vermillion
	figColDefaultLight  = plotkit.VermillionLight
	figColDefaultDark   = plotkit.VermillionDark
	figColDefaultAmber  = plotkit.Amber
	figColBest          = plotkit.Blue
	figColBestLight     = plotkit.BlueLight
	figColBestDark      = plotkit.BlueDark
	figColBestSky       = plotkit.SkyBlue
	figColLive          = plotkit.Charcoal
	figColTrial         = plotkit.DarkGrey
	figColInfeasible    = plotkit.Grey
	figColPareto        = plotkit.BluishGreen
	figColFastest       = plotkit.ReddishPurple
	figColBudget        = plotkit.Black
	errFigNothingToDraw = errors.New("report: figure has nothing to draw")
)

// Figures returns the report's figures in a fixed order: per workload its lifetime histograms
// (linear, log), then the search's progress and Pareto front, the sensitivity sweeps, and per
// comparison the run figures (footprint, scavenges, full GCs, remembered set, tenured bytes).
// The search and sensitivity figures are always there (with a note when there is nothing to
// draw); a workload figure is left out when its histogram is nil.
func Figures(r *Report) ([]Figure, error) {
	if r == nil {
		return nil, errors.New("report: figures: nil report")
	}
	var figs []Figure
	for i, w := range r.Workloads {
		for _, h := range []struct {
			hist   *lifetimes.Histogram
			suffix string
			scale  string
		}{{w.Linear, "", "linear"}, {w.Log, "-log", "log"}} {
			if h.hist == nil {
				continue
			}
			f, err := figWorkload(i, w.Name, h.hist, h.suffix, h.scale)
			if err != nil {
				return nil, err
			}
			figs = append(figs, f)
		}
	}
	figs = append(figs, figProgress(r), figPareto(r), figSensitivity(r))
	figs = append(figs, figHolds(r)...)
	for i := range r.Comparisons {
		c := &r.Comparisons[i]
		figs = append(figs,
			figFootprint(i, c, r.Search.MaxFootprintBytes),
			figScavenges(i, c),
			figFullGCs(i, c),
			figRememberedSet(i, c),
			figTenured(i, c))
	}
	return figs, nil
}

// SVG renders the figure as SVG that can be inlined in HTML: no XML prolog, no DOCTYPE, no
// external references (text uses the reader's installed fonts).
func (f Figure) SVG() ([]byte, error) {
	b, err := f.bytes("svg")
	if err != nil {
		return nil, err
	}
	if i := bytes.Index(b, []byte("<svg")); i > 0 {
		b = b[i:] // drop the <?xml?> prolog and the generator comment
	}
	// Fall back on fonts of the same metrics, then any sans-serif, where Liberation Sans is not
	// installed.
	b = bytes.ReplaceAll(b, []byte("font-family:Liberation Sans;"), []byte("font-family:"+plotkit.SVGFontFamily+";"))
	return b, nil
}

// PNG renders the figure as a PNG image at 120 dpi.
func (f Figure) PNG() ([]byte, error) { return f.bytes("png") }

func (f Figure) bytes(format string) (b []byte, err error) {
	if f.render == nil {
		return nil, fmt.Errorf("%w: %q", errFigNothingToDraw, f.Name)
	}
	defer func() {
		// gonum/plot panics on some degenerate inputs; a figure must not take the report down.
		if p := recover(); p != nil {
			b, err = nil, fmt.Errorf("report: figure %q: %s: %v", f.Name, format, p)
		}
	}()
	var buf bytes.Buffer
	if err := f.render(&buf, format); err != nil {
		return nil, fmt.Errorf("report: figure %q: %w", f.Name, err)
	}
	return buf.Bytes(), nil
}

// WritePNGs writes each figure as dir/<Name>.png, creating dir if needed, and returns the paths
// written. Every figure is drawn before any file is written, so a figure that fails to draw
// leaves nothing behind; each file is written atomically (a temporary file renamed into place).
func WritePNGs(figs []Figure, dir string) ([]string, error) {
	seen := make(map[string]bool, len(figs))
	pngs := make([][]byte, len(figs))
	for i, f := range figs {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || strings.HasPrefix(f.Name, ".") {
			return nil, fmt.Errorf("report: figure name %q is not a plain file name", f.Name)
		}
		if seen[f.Name] {
			return nil, fmt.Errorf("report: two figures named %q", f.Name)
		}
		seen[f.Name] = true
		b, err := f.PNG()
		if err != nil {
			return nil, err // already "report: figure ...: ..."
		}
		pngs[i] = b
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	paths := make([]string, 0, len(figs))
	for i, f := range figs {
		path := filepath.Join(dir, f.Name+".png")
		b := pngs[i]
		if err := outfile.Write(path, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
			return paths, fmt.Errorf("report: %w", err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// figCanvas renders a figure drawn by fn on a width × height canvas.
func figCanvas(width, height vg.Length, fn func(dc draw.Canvas) error) func(io.Writer, string) error {
	return func(w io.Writer, format string) error {
		if format != "svg" && format != "png" {
			return fmt.Errorf("unknown format %q (want svg or png)", format)
		}
		return plotkit.Render(w, format, width, height, figPNGDPI, fn)
	}
}

// figJoinAnd joins words as a list: "a", "a and b", "a, b and c".
func figJoinAnd(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
