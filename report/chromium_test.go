package report

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/chromium"
)

// Each figure's cell in TestLongFiguresInChromium's page, in CSS pixels: the figures are 11 in
// wide and at most 7.1 in tall, drawn 1,100 px wide.
const (
	chromiumCellWidth  = 1100
	chromiumCellHeight = 800
)

var (
	chromiumStyleRe  = regexp.MustCompile(`(?s)<style>.*?</style>`)
	chromiumFigureRe = regexp.MustCompile(`(?s)<figure id="([^"]+)">.*?</figure>`)
)

// TestLongFiguresInChromium renders the page of a real report (a recommendation judged on
// perturbed runs: every section's figures, the spread and the landscape included) and opens its
// figures in headless Chromium, each alone in a cell of fixed size with the page's own style,
// in one screenshot. Each cell must hold a drawn figure: a white page with dark text (titles,
// ticks, caption), grey axes and at least one palette colour, not a blank, a broken-image box
// or an error page. It skips when Chromium is missing, unless CI is set (.ci/run installs it):
// then it fails. REPORT_CHROMIUM_DIR keeps the page and the screenshot there.
func TestLongFiguresInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("draws every figure and renders them in Chromium (slow under the race detector): runs without -short")
	}
	if _, err := chromium.Available(); err != nil {
		if chromium.Required() {
			t.Fatalf("CI is set and Chromium is missing: %v", err)
		}
		t.Skipf("no Chromium: %v", err)
	}
	r := newRobustTestReport(t)
	figs := mustFigures(t, r)
	var buf bytes.Buffer
	require.NoError(t, Render(&buf, r, figs))
	page := buf.String()
	style := chromiumStyleRe.FindString(page)
	require.NotEmpty(t, style, "the page has its style")
	found := chromiumFigureRe.FindAllStringSubmatch(page, -1)
	require.Len(t, found, len(figs), "every figure is on the page")

	var grid strings.Builder
	grid.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" + style +
		fmt.Sprintf("<style>body{margin:0;background:#fff}.cell{width:%dpx;height:%dpx;overflow:hidden;margin:0;padding:0}"+
			".cell figure{margin:0}.cell svg{width:%dpx;height:auto}</style></head><body>",
			chromiumCellWidth, chromiumCellHeight, chromiumCellWidth))
	for _, f := range found {
		grid.WriteString(`<div class="cell">` + f[0] + "</div>\n")
	}
	grid.WriteString("</body></html>\n")

	dir := os.Getenv("REPORT_CHROMIUM_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	html := filepath.Join(dir, "figures.html")
	require.NoError(t, os.WriteFile(html, []byte(grid.String()), 0o644))
	shot := filepath.Join(dir, "figures.png")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	height := chromiumCellHeight * len(found)
	require.NoError(t, chromium.Screenshot(ctx, html, shot, chromiumCellWidth, height))
	fh, err := os.Open(shot)
	require.NoError(t, err)
	defer fh.Close()
	img, err := png.Decode(fh)
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, chromiumCellWidth, height), img.Bounds())

	for i, f := range found {
		cell := image.Rect(0, i*chromiumCellHeight, chromiumCellWidth, (i+1)*chromiumCellHeight)
		st := chromiumCellStats(img, cell)
		name := f[1]
		assert.Greater(t, st.white, st.total/2, "%s: a white page", name)
		assert.Greater(t, st.dark, 300, "%s: dark text drawn (titles, ticks, caption)", name)
		assert.Greater(t, st.grey, 200, "%s: axes and grid drawn", name)
		assert.Greater(t, st.coloured, 30, "%s: marks in the palette's colours drawn", name)
	}
}

// chromiumCell counts a cell's pixels (every other one each way) by kind.
type chromiumCell struct{ total, white, dark, grey, coloured int }

func chromiumCellStats(img image.Image, r image.Rectangle) chromiumCell {
	var st chromiumCell
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			c0, c1, c2, _ := img.At(x, y).RGBA()
			red, green, blue := int(c0>>8), int(c1>>8), int(c2>>8)
			st.total++
			spread := max(red, green, blue) - min(red, green, blue)
			switch l := (red + green + blue) / 3; {
			case spread > 60:
				st.coloured++
			case l > 245:
				st.white++
			case l < 90:
				st.dark++
			case l < 235:
				st.grey++
			}
		}
	}
	return st
}
