package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/plotkit"
	"github.com/gctune/gctune/lifetimes"
)

// figureNames returns the names of figs in order.
func figureNames(figs []Figure) []string {
	names := make([]string, len(figs))
	for i, f := range figs {
		names[i] = f.Name
	}
	return names
}

var (
	// An attribute that loads something from outside: href, xlink:href, src to http(s) or file.
	externalRefRe = regexp.MustCompile(`(?i)(?:href|src)\s*=\s*["']\s*(?:https?|file|ftp):`)
	externalURLRe = regexp.MustCompile(`(?i)url\(\s*["']?\s*(?:https?|file|ftp):`)
)

// checkSVG asserts that b is an inline-able SVG element: well-formed XML starting with <svg,
// no prolog, no DOCTYPE, no external reference.
func checkSVG(t *testing.T, name string, b []byte) {
	t.Helper()
	require.NotEmpty(t, b, name)
	s := string(b)
	assert.True(t, strings.HasPrefix(s, "<svg"), "%s: starts with %.40q", name, s)
	assert.NotContains(t, s, "<?xml", name)
	assert.NotContains(t, strings.ToUpper(s), "<!DOCTYPE", name)
	assert.NotContains(t, strings.ToLower(s), "@import", name)
	assert.NotContains(t, strings.ToLower(s), "@font-face", name)
	assert.NotContains(t, strings.ToLower(s), "<script", name)
	assert.False(t, externalRefRe.MatchString(s), "%s: external href/src", name)
	assert.False(t, externalURLRe.MatchString(s), "%s: external url()", name)

	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	var root string
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "%s: SVG is not well-formed XML", name)
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	assert.Equal(t, "svg", root, name)
}

// checkPNG asserts that b decodes as a PNG of the expected size at 120 dpi.
func checkPNG(t *testing.T, name string, b []byte, wantW, wantH int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err, name)
	assert.Equal(t, wantW, img.Bounds().Dx(), "%s: width", name)
	assert.Equal(t, wantH, img.Bounds().Dy(), "%s: height", name)
}

// expectedPNGSize is each figure's size in pixels at 120 dpi: 11 in wide; 4.5 in high, 7 for
// the full-GC panels, 3.4 in per row of sensitivity or landscape panels (3 a row) plus 0.3 in,
// 2.6 in for the spread of the perturbed runs (one row of panels).
func expectedPNGSize(f Figure, sweeps, landscapes int) (int, int) {
	switch {
	case f.Name == "holds-spread":
		return 1320, 312
	case f.Name == "holds-landscape":
		rows := (landscapes + 2) / 3
		return 1320, int(math.Round((3.4*float64(rows) + 0.3) * 120))
	case strings.HasSuffix(f.Name, "-fullgcs"):
		return 1320, 840
	case f.Name == "sensitivity-sweeps" && sweeps > 3:
		rows := (sweeps + 2) / 3
		return 1320, int(math.Round((3.4*float64(rows) + 0.3) * 120))
	}
	return 1320, 540
}

func TestLongFiguresOfTestReport(t *testing.T) {
	if testing.Short() {
		t.Skip("draws every figure of the test report (slow under the race detector): runs without -short")
	}
	r := newTestReport(t)
	require.Len(t, r.Workloads, 2)
	require.Len(t, r.Comparisons, 2)
	figs := mustFigures(t, r)

	want := []string{
		"workload-1-lifetimes", "workload-1-lifetimes-log",
		"workload-2-lifetimes", "workload-2-lifetimes-log",
		"search-progress", "search-pareto", "sensitivity-sweeps", "holds-landscape",
	}
	for i := 1; i <= 2; i++ {
		for _, s := range []string{"footprint", "scavenges", "fullgcs", "remembered-set", "tenured"} {
			want = append(want, fmt.Sprintf("run-%d-%s", i, s))
		}
	}
	assert.Equal(t, want, figureNames(figs))

	nameRe := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, f := range figs {
		assert.Regexp(t, nameRe, f.Name)
		assert.NotEmpty(t, f.Title, f.Name)
		assert.NotEmpty(t, f.Caption, f.Name)
		switch {
		case strings.HasPrefix(f.Name, "workload-"):
			assert.Equal(t, SectionWorkload, f.Section, f.Name)
			assert.Equal(t, int(f.Name[len("workload-")]-'1'), f.Workload, f.Name)
		case strings.HasPrefix(f.Name, "run-"):
			assert.Equal(t, SectionRun, f.Section, f.Name)
			assert.Equal(t, int(f.Name[len("run-")]-'1'), f.Workload, f.Name)
		case strings.HasPrefix(f.Name, "search-"):
			assert.Equal(t, SectionSearch, f.Section, f.Name)
			assert.Equal(t, -1, f.Workload, f.Name)
		case strings.HasPrefix(f.Name, "holds-"):
			assert.Equal(t, SectionHolds, f.Section, f.Name)
			assert.Equal(t, -1, f.Workload, f.Name)
		default:
			assert.Equal(t, SectionSensitivity, f.Section, f.Name)
			assert.Equal(t, -1, f.Workload, f.Name)
		}
	}

	// Captions name colours with the palette's words: the default's line is orange, not red.
	for _, f := range figs {
		assert.NotRegexp(t, `\b(red|reds)\b`, f.Caption, f.Name)
		if strings.HasPrefix(f.Name, "run-") || strings.HasPrefix(f.Name, "search-") || f.Name == "sensitivity-sweeps" {
			assert.Contains(t, f.Caption, figColDefault.Word, f.Name)
			assert.Contains(t, f.Caption, figColBest.Word, f.Name)
		}
	}
	// Every figure's text is sans-serif, with a metric-compatible fallback.
	for _, f := range figs {
		svg, err := f.SVG()
		require.NoError(t, err, f.Name)
		assert.NotContains(t, string(svg), "Serif", f.Name)
		assert.Contains(t, string(svg), "font-family:"+plotkit.SVGFontFamily+";", f.Name)
	}

	sizes := renderAll(t, figs, len(r.Sensitivity), landscapeCount(r))
	var total int
	for _, n := range sizes {
		total += n
	}
	assert.Less(t, total, 5<<20, "all figures' SVG together")

	// Rendering twice gives the same bytes: the report renders the same way every time.
	a, err := figs[len(figs)-1].SVG()
	require.NoError(t, err)
	b, err := figs[len(figs)-1].SVG()
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

func TestWritePNGs(t *testing.T) {
	r := newTestReport(t)
	figs := mustFigures(t, r)
	figs = []Figure{figs[0], figs[4], figs[5]} // a histogram and the search figures are enough here
	require.Equal(t, []string{"workload-1-lifetimes", "search-progress", "search-pareto"}, figureNames(figs))

	dir := filepath.Join(t.TempDir(), "a", "b") // created by WritePNGs
	paths, err := WritePNGs(figs, dir)
	require.NoError(t, err)
	require.Len(t, paths, len(figs))
	for i, f := range figs {
		assert.Equal(t, filepath.Join(dir, f.Name+".png"), paths[i])
		b, err := os.ReadFile(paths[i])
		require.NoError(t, err)
		checkPNG(t, f.Name, b, 1320, 540)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := make([]string, len(figs))
	for i, f := range figs {
		want[i] = f.Name + ".png"
	}
	assert.ElementsMatch(t, want, names, "no temporary files left")

	// Writing again replaces the files.
	_, err = WritePNGs(figs, dir)
	require.NoError(t, err)
	entries, err = os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, len(figs))
}

func TestWritePNGsErrors(t *testing.T) {
	figs := mustFigures(t, &Report{})

	// dir is a file.
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err := WritePNGs(figs, file)
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "report: "), err.Error())
	var pe *os.PathError
	assert.True(t, errors.As(err, &pe), "wrapped: %v", err)

	dir := t.TempDir()
	for _, bad := range []Figure{
		{Name: "", render: figs[0].render},
		{Name: "../escape", render: figs[0].render},
		{Name: "nothing"}, // no renderer
	} {
		_, err := WritePNGs([]Figure{bad}, dir)
		require.Error(t, err, "%q", bad.Name)
		assert.True(t, strings.HasPrefix(err.Error(), "report: "), err.Error())
	}
	_, err = WritePNGs([]Figure{figs[0], figs[0]}, dir)
	require.Error(t, err, "duplicate names")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.False(t, strings.HasPrefix(e.Name(), "."), "temporary file %s left", e.Name())
	}

	_, err = Figure{Name: "x"}.SVG()
	assert.ErrorIs(t, err, errFigNothingToDraw)
	_, err = Figures(nil)
	assert.Error(t, err)
}

// renderAll renders every figure as SVG and PNG, concurrently, checks both, and returns the
// SVG sizes by name.
func renderAll(t *testing.T, figs []Figure, sweeps, landscapes int) map[string]int {
	t.Helper()
	var mu sync.Mutex
	sizes := make(map[string]int, len(figs))
	t.Run("render", func(t *testing.T) {
		for _, f := range figs {
			t.Run(f.Name, func(t *testing.T) {
				t.Parallel()
				svg, err := f.SVG()
				require.NoError(t, err)
				checkSVG(t, f.Name, svg)
				b, err := f.PNG()
				require.NoError(t, err)
				w, h := expectedPNGSize(f, sweeps, landscapes)
				checkPNG(t, f.Name, b, w, h)
				mu.Lock()
				sizes[f.Name] = len(svg)
				mu.Unlock()
			})
		}
	})
	return sizes
}

// renderReport renders every figure of r (see renderAll) and returns them.
func renderReport(t *testing.T, r *Report) []Figure {
	t.Helper()
	figs := mustFigures(t, r)
	renderAll(t, figs, len(r.Sensitivity), landscapeCount(r))
	return figs
}

func TestFiguresEmptyReport(t *testing.T) {
	figs := renderReport(t, &Report{})
	assert.Equal(t, []string{"search-progress", "search-pareto", "sensitivity-sweeps"}, figureNames(figs))
}

func TestLongFiguresEmptyCases(t *testing.T) {
	if testing.Short() {
		t.Skip("draws every figure of several reports (slow under the race detector): runs without -short")
	}
	nan := math.NaN()
	r := &Report{
		Search: Search{
			ValueLabel: "run time (s)", DefaultValue: nan,
			Trials: []Trial{
				{Number: 0, State: "fail"},
				{Number: 1, State: "running", Value: 3},
				{Number: 2, State: "complete", Value: nan, Feasible: true},
				{Number: 3, State: "complete", Value: 5, Feasible: false, PeakFootprintBytes: 0},
			},
		},
		Workloads: []Workload{{Name: "no histograms"}},
		Sensitivity: []diagnose.Sweep{
			{Param: "full_gc_ratio", Label: "full GC ratio", Log: true, Values: []float64{0.1, 1, 10},
				Objective: []float64{nan, nan, nan}, Feasible: []bool{false, false, false},
				BestValue: nan, DefaultValue: 0.33, BestObjective: nan, Effect: nan},
			{Param: "new_space_bytes", Label: "new space", Bytes: true, Log: true,
				Values: []float64{0, 4 << 20, 64 << 20, 1 << 30}, Objective: []float64{1, 2, nan, 3},
				Feasible: []bool{true, true, false, false}, BestValue: 4 << 20, DefaultValue: 16 << 20,
				BestObjective: 2, Effect: 0.5},
		},
		Comparisons: []Comparison{
			{Workload: "no events"},
			{Workload: "no full GCs", EndBytes: 3 << 30, Default: diagnose.Run{Label: "default", Events: []heapsim.Event{
				{Kind: heapsim.EventScavenge, ClockBytes: 1 << 30, Seconds: 0.01, FootprintBytes: 100 << 20, OldUsedBytes: 80 << 20},
			}}, Best: diagnose.Run{Label: "best"}},
		},
	}
	figs := renderReport(t, r)
	assert.Contains(t, figureNames(figs), "run-2-fullgcs")
	assert.NotContains(t, figureNames(figs), "workload-1-lifetimes", "no histogram, no figure")

	// A malformed histogram is an error of Figures, not a panic.
	r.Workloads[0].Linear = &lifetimes.Histogram{Edges: []float64{0}, Objects: []uint64{1, 2}}
	_, err := Figures(r)
	assert.Error(t, err)
}

// syntheticComparison is a run of n scavenges with full GCs of every cause, remembered-set
// scans and tenured garbage.
func syntheticComparison(n int) Comparison {
	var def, best []heapsim.Event
	clock := uint64(0)
	for i := range n {
		clock += 1 << 20
		e := heapsim.Event{Kind: heapsim.EventScavenge, ClockBytes: clock, Seconds: 0.002 + 0.001*float64(i%17),
			RSSeconds: 0.0005 * float64(i%5), RSEntries: float64(i % 7), RSSlots: uint64(i%7) * 1000,
			TenuredBytes: uint64(i%3) << 16, FootprintBytes: uint64(200+i%50) << 20, OldUsedBytes: uint64(100+i%80) << 20}
		def = append(def, e)
		if i%100 == 0 {
			best = append(best, e)
		}
		if i%500 == 250 {
			def = append(def, heapsim.Event{Kind: heapsim.EventFullGC, Cause: heapsim.FullGCCause(i / 500 % 3),
				ClockBytes: clock, Seconds: 0.3 + float64(i%7), OldUsedBeforeBytes: 180 << 20,
				OldUsedBytes: 100 << 20, TenuredGarbageBytes: 5 << 20, FootprintBytes: 250 << 20})
		}
	}
	var live []LivePoint
	for i := range 5000 {
		live = append(live, LivePoint{ClockBytes: uint64(i) * (clock / 5000), LiveBytes: uint64(50+i%30) << 20})
	}
	return Comparison{Workload: "synthetic", EndBytes: clock, Live: live,
		Default: diagnose.Run{Label: "default", Events: def}, Best: diagnose.Run{Label: "best", Events: best}}
}

func TestLongRunFiguresDownsampleLongLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("draws the run figures of long event logs (slow under the race detector): runs without -short")
	}
	r := &Report{Comparisons: []Comparison{syntheticComparison(12000)}}
	figs := mustFigures(t, r)
	sizes := renderAll(t, figs, 0, 0)
	for _, f := range figs {
		if f.Section == SectionRun {
			assert.Less(t, sizes[f.Name], 600<<10, "%s: %d bytes of SVG for 12,000 scavenges", f.Name, sizes[f.Name])
		}
	}
}

func TestFigEffect(t *testing.T) {
	assert.Equal(t, "+35%", figEffect(0.35))
	assert.Equal(t, "+2.5%", figEffect(0.025))
	assert.Equal(t, "n/a", figEffect(math.NaN()))
}

// TestWriteFigurePNGsForViewing writes every figure of the test report as PNG (and SVG) into
// $REPORT_FIGS_DIR, to look at, and logs each SVG's size. Skipped when the variable is unset.
func TestWriteFigurePNGsForViewing(t *testing.T) {
	dir := previewEnv(t, "REPORT_FIGS_DIR", "REPORT_FIGS_DIR not set")
	r := newTestReport(t)
	figs := mustFigures(t, r)
	if os.Getenv("REPORT_FIGS_SYNTHETIC") != "" {
		more := mustFigures(t, &Report{Comparisons: []Comparison{syntheticComparison(12000)}})
		for _, f := range more {
			if f.Section == SectionRun {
				f.Name = "synthetic-" + f.Name
				figs = append(figs, f)
			}
		}
	}
	_, err := WritePNGs(figs, dir)
	require.NoError(t, err)
	var total int
	for _, f := range figs {
		svg, err := f.SVG()
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f.Name+".svg"), svg, 0o644))
		total += len(svg)
		t.Logf("%-28s %8d bytes SVG", f.Name, len(svg))
	}
	t.Logf("%-28s %8d bytes SVG", "total", total)
}
