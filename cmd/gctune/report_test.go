package main

import (
	"bytes"
	"context"
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

	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/internal/chromium"
)

// reportStudy runs a small study on gcdemo into url and returns the recommended trial's number.
func reportStudy(t *testing.T, url string) int {
	t.Helper()
	var doc sessionDoc
	gctuneJSON(t, &doc, "optimize", gcdemo, "--trials", "10", "--workers", "1", "--storage", url, "--study", "demo")
	require.NotNil(t, doc.Recommendation)
	return doc.Recommendation.Trial
}

// TestLongReportAndExplain runs gctune report and explain on a study in SQLite and in PostgreSQL.
func TestLongReportAndExplain(t *testing.T) {
	if testing.Short() {
		t.Skip("makes a recommendation and draws every figure on each backend (slow under the race detector): runs without -short")
	}
	eachBackend(t, func(t *testing.T, be backend) {
		url := be.fresh(t)
		best := reportStudy(t, url)

		// explain: the header, then the diagnosis text, the same as the JSON's.
		out, _ := gctuneOK(t, "explain", "demo", "--storage", url)
		assert.Regexp(t, `^Study demo \(testdata/gcdemo.yaml\): the recommended configuration against the VM defaults.\nrecommended: trial \d+, `, out)
		assert.Contains(t, out, "Where the GC time went:")
		var doc struct {
			Study     string              `json:"study"`
			Trial     int                 `json:"trial"`
			Diagnosis *diagnose.Diagnosis `json:"diagnosis"`
		}
		gctuneJSON(t, &doc, "explain", "demo", "--storage", url)
		assert.Equal(t, best, doc.Trial)
		var text bytes.Buffer
		require.NoError(t, doc.Diagnosis.WriteText(&text))
		assert.True(t, strings.HasSuffix(out, text.String()), "explain prints the diagnosis's text")

		// --trial explains another trial.
		out, _ = gctuneOK(t, "explain", "demo", "--storage", url, "--trial", "0")
		assert.Contains(t, out, "trial 0 as it is against")

		// report: the HTML and one PNG per figure, nothing else left in the directories. What
		// a report writes does not depend on where the study is stored: the PNGs (most of the
		// test's time under -race) are drawn once, from SQLite.
		dir := t.TempDir()
		html := filepath.Join(dir, "r.html")
		pngs := filepath.Join(dir, "figs")
		args := []string{"report", "demo", "--storage", url, "-o", html, "--sweep-points", "5"}
		if be.name == "sqlite" {
			args = append(args, "--png", pngs)
		}
		out, _ = gctuneOK(t, args...)
		m := regexp.MustCompile(`wrote .* \((\d+) figures\)`).FindStringSubmatch(out)
		require.NotNil(t, m, out)
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		if be.name == "sqlite" {
			files, err := os.ReadDir(pngs)
			require.NoError(t, err)
			assert.Equal(t, m[1], itoa(len(files)))
			for _, f := range files {
				assert.True(t, strings.HasSuffix(f.Name(), ".png"), f.Name())
			}
			assert.Len(t, entries, 2, "r.html and figs/, no temporary file")
		} else {
			assert.Len(t, entries, 1, "r.html, no temporary file")
		}
		page, err := os.ReadFile(html)
		require.NoError(t, err)
		assert.Contains(t, string(page), "<svg")
		assert.Contains(t, string(page), "demo")
		// The page opens with how to apply the result: the first section after the
		// header is "Apply it", with the launch line or the script's statements.
		first := regexp.MustCompile(`<h2>([^<]+)</h2>`).FindAllStringSubmatch(string(page), -1)
		require.NotEmpty(t, first)
		assert.Equal(t, "Apply it", first[0][1], "the first section")
		assert.Regexp(t, `pharo --headless (--edenSize=\d+m )?My\.image`, string(page))
		assert.Contains(t, string(page), "Smalltalk vm parameterAt:")
	})
}

func TestReportBadInput(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	for _, cmd := range []string{"report", "explain"} {
		_, errOut, code := gctune(t, cmd, "nope", "--storage", filepath.Join(dir, "missing.db"))
		assert.Equal(t, 2, code, cmd)
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(errOut), "\n")+1, "one line: %q", errOut)
	}
	_, errOut, code := gctune(t, "study", "create", "empty", gcdemo, "--storage", db)
	require.Equal(t, 0, code, errOut)
	for _, cmd := range []string{"report", "explain"} {
		_, errOut, code = gctune(t, cmd, "empty", "--storage", db, "-o", filepath.Join(dir, "x.html"))
		if cmd == "explain" {
			_, errOut, code = gctune(t, cmd, "empty", "--storage", db)
		}
		assert.Equal(t, 2, code, cmd)
		assert.Contains(t, errOut, `study "empty" has no completed feasible trial yet`, cmd)
		_, errOut, code = gctune(t, cmd, "ghost", "--storage", db)
		assert.Equal(t, 2, code, cmd)
		assert.Contains(t, errOut, "ghost", cmd)
	}
	reportStudy(t, db)
	_, errOut, code = gctune(t, "explain", "demo", "--storage", db, "--trial", "999")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `study "demo" has no trial 999`)
	_, errOut, code = gctune(t, "report", "demo", "--storage", db, "--sweep-points", "2")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--sweep-points 2: want 3 to 1000")
	// Outputs that cannot be written are refused before any simulation, with one line and exit
	// 2, and nothing is written anywhere.
	file := writeFile(t, "f", "x")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", filepath.Join(dir, "no", "r.html")}, "directory " + filepath.Join(dir, "no") + " does not exist"},
		{[]string{"-o", dir}, "is a directory"},
		{[]string{"-o", filepath.Join(dir, "r.html"), "--png", file}, "not a directory"},
		{[]string{"-o", filepath.Join(dir, "r.html"), "--png", filepath.Join(dir, "a", "b")}, "does not exist"},
	} {
		_, errOut, code = gctune(t, append([]string{"report", "demo", "--storage", db, "--sweep-points", "3"}, c.args...)...)
		assert.Equal(t, 2, code, "%v", c.args)
		assert.Contains(t, errOut, c.want)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	}
	_, err := os.Stat(filepath.Join(dir, "no"))
	assert.True(t, os.IsNotExist(err))
	assert.NoFileExists(t, filepath.Join(dir, "x.html"))
	assert.NoFileExists(t, filepath.Join(dir, "r.html"))
	_, errOut, code = gctune(t, "explain", "demo", "--storage", db, "--workers", "-1")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--workers -1")
}

// TestLongReportInChromium is the end-to-end test: the report of a real study opened in headless
// Chromium, screenshot taken and checked. It skips when Chromium is missing, unless CI is set
// (.ci/run installs it). REPORT_SCREENSHOT_DIR keeps the report and the screenshot there.
func TestLongReportInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("makes a recommendation, draws every figure and renders the page (slow under the race detector): runs without -short")
	}
	if _, err := chromium.Available(); err != nil {
		if chromium.Required() {
			t.Fatalf("CI is set and Chromium is missing: %v", err)
		}
		t.Skipf("no Chromium: %v", err)
	}
	dir := os.Getenv("REPORT_SCREENSHOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	db := filepath.Join(t.TempDir(), "s.db")
	reportStudy(t, db)
	html := filepath.Join(dir, "report.html")
	gctuneOK(t, "report", "demo", "--storage", db, "-o", html, "--sweep-points", "7")

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	shot := filepath.Join(dir, "report.png")
	require.NoError(t, chromium.Screenshot(ctx, html, shot, 1280, 6000))
	f, err := os.Open(shot)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 1280, 6000), img.Bounds())
	// The page rendered: the top holds dark text on a light background, and the lower part holds
	// the figures' coloured strokes (not one flat colour, not a blank or an error page).
	assert.Greater(t, distinctColours(img, image.Rect(0, 0, 1280, 600)), 20, "the header rendered")
	// The page's background is white and its header holds dark text (not a dark error page).
	dark, white := 0, 0
	for y := 0; y < 400; y += 2 {
		for x := 0; x < 1280; x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			switch l := (r + g + b) / 3 >> 8; {
			case l < 100:
				dark++
			case l > 250:
				white++
			}
		}
	}
	assert.Greater(t, white, 200*640/2, "mostly white background")
	assert.Greater(t, dark, 500, "text drawn in the header")
	assert.Greater(t, distinctColours(img, image.Rect(0, 1500, 1280, 6000)), 50, "the figures rendered")

	pdf := filepath.Join(dir, "report.pdf")
	require.NoError(t, chromium.PrintToPDF(ctx, html, pdf))
	b, err := os.ReadFile(pdf)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(b, []byte("%PDF-")), "printing gives a PDF")
}

// distinctColours counts the distinct colours in r (up to 1,000).
func distinctColours(img image.Image, r image.Rectangle) int {
	seen := map[[4]uint32]bool{}
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			c0, c1, c2, c3 := img.At(x, y).RGBA()
			seen[[4]uint32{c0, c1, c2, c3}] = true
			if len(seen) >= 1000 {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// TestReportStagesInAPipe: in a pipe (a log, CI) the report draws no bar (no control
// characters); its stages, each said once it has run a second (package stage's tests), are
// plain lines.
func TestReportStagesInAPipe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	gctuneOK(t, "optimize", "testdata/tiny.yaml", "--trials", "4", "--storage", db, "--study", "s", "--quiet",
		"--replicas", "0", "--search-replicas", "0")
	_, stderr := gctuneOK(t, "report", "s", "--storage", db, "-o", filepath.Join(t.TempDir(), "s.html"))
	assert.NotContains(t, stderr, "\r")
	assert.NotContains(t, stderr, "\x1b")
}
