package main

import (
	"encoding/json"
	stdhtml "html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/study"
)

// TestOneVoice renders one study's answer everywhere a user reads it (optimize's summary, a
// finished resume, explain, studies show, every export format and the report) and checks that
// every shared figure is the same string in each: the headline speedup and run times, the
// intervals with their coverage, the forecast for inputs like this one, the profiled run as
// recorded, the footprint and GC share, what each kept change costs put back alone, and each
// margin. The JSON formats carry the same numbers.
func TestOneVoice(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "v.db")
	opt, _ := gctuneOK(t, "optimize", "testdata/tiny.yaml", "--trials", "14", "--storage", db, "--study", "v",
		"--replicas", "6", "--search-replicas", "2", "--quiet")
	var show study.ShowDoc
	gctuneJSON(t, &show, "studies", "show", "v", "--storage", db)
	rec := show.Recommendation
	require.NotNil(t, rec, "optimize stores its recommendation")
	require.NotNil(t, rec.Robust)
	f := rec.Figures(true)
	require.NotNil(t, f.Like)

	resume, _ := gctuneOK(t, "resume", "v", "--storage", db, "--quiet")
	explain, _ := gctuneOK(t, "explain", "v", "--storage", db)
	showText, _ := gctuneOK(t, "studies", "show", "v", "--storage", db)
	st, _ := gctuneOK(t, "export", "v", "--storage", db, "--format", "st")
	yaml, _ := gctuneOK(t, "export", "v", "--storage", db, "--format", "yaml")
	page := filepath.Join(dir, "v.html")
	gctuneOK(t, "report", "v", "--storage", db, "-o", page)
	html, err := os.ReadFile(page)
	require.NoError(t, err)
	reportText := pageText(string(html))

	// The statements every text output makes, and the figures in them.
	headline := []string{f.Headline(), f.Intervals(), f.LikeLine(), f.NominalLine()}
	figures := []string{f.Speedup, f.Value, f.DefaultValue, f.ValueRange, f.DefaultRange, f.SpeedupRange, f.Coverage,
		f.NominalValue, f.NominalSpeedup, f.Footprint, f.GCShare, f.Like.Speedup, f.Like.SpeedupRange}
	for _, m := range f.Margins {
		figures = append(figures, m.Text)
	}
	for _, k := range f.Kept {
		figures = append(figures, k.Value, k.Cost)
	}
	for _, s := range append(append([]string{}, headline...), figures...) {
		require.NotEmpty(t, s, "a figure of a robust recommendation is missing")
	}
	// A sentence may open with a capital: compare in lower case.
	lower := strings.ToLower
	for name, out := range map[string]string{"optimize": opt, "resume": resume, "explain": explain,
		"studies show": showText, "export st": st, "report": reportText} {
		for _, s := range headline {
			assert.Contains(t, lower(out), lower(s), "%s states the forecast as every output does", name)
		}
	}
	// The outputs that say how the recommendation was chosen state every figure of it.
	for name, out := range map[string]string{"optimize": opt, "explain": explain, "export st": st, "report": reportText} {
		for _, s := range figures {
			assert.Contains(t, out, s, "%s states the figure %q", name, s)
		}
	}
	for _, m := range f.Margins {
		assert.Contains(t, showText, m.Text, "studies show states the margins")
	}
	assert.Contains(t, yaml, f.Intervals(), "the YAML's predicted_interval")
	for name, out := range map[string]string{"optimize": opt, "explain": explain, "studies show": showText, "export st": st} {
		assert.NotRegexp(t, regexp.MustCompile(`\d\.\d+x\b`), out, "%s writes speedups as ×, as every output", name)
	}

	// The JSON formats: the same numbers.
	var ex export.Config
	gctuneJSON(t, &ex, "export", "v", "--storage", db)
	assert.Equal(t, rec.Speedup, ex.Predicted.Speedup)
	assert.Equal(t, rec.Value, ex.Predicted.Value)
	assert.Equal(t, rec.DefaultValue, ex.Predicted.DefaultValue)
	require.NotNil(t, ex.Predicted.SpeedupInterval)
	assert.Equal(t, rec.Robust.SpeedupInterval, *ex.Predicted.SpeedupInterval)
	assert.Equal(t, rec.Robust.NominalSpeedup, ex.Predicted.NominalSpeedup)
	var explained struct {
		Prediction *recommend.Prediction `json:"prediction"`
	}
	out, _ := gctuneOK(t, "--json", "explain", "v", "--storage", db)
	require.NoError(t, json.Unmarshal([]byte(out), &explained))
	require.NotNil(t, explained.Prediction)
	assert.Equal(t, rec.Speedup, explained.Prediction.Speedup)
	assert.Equal(t, rec.DefaultValue, explained.Prediction.DefaultValue)
	require.NotNil(t, show.Prediction)
	assert.Equal(t, rec.Speedup, show.Prediction.Speedup)

	// studies list states each study's fastest trial as a speedup, as studies show does.
	list, _ := gctuneOK(t, "studies", "list", "--storage", db)
	require.NotNil(t, show.Best)
	assert.Contains(t, list, "#"+strconv.Itoa(show.Best.Number)+": "+numfmt.Speedup(show.Best.Speedup))
	assert.Contains(t, showText, "the search's fastest trial: trial "+strconv.Itoa(show.Best.Number)+", "+numfmt.Speedup(show.Best.Speedup))

	// The search's fastest trial is labelled as what it is, never as the headline.
	assert.Contains(t, opt, "the search's fastest trial: trial ")
	assert.NotContains(t, opt, "\nfastest: ")
	assert.Equal(t, recommend.IntervalRange(rec.Robust.SpeedupInterval, numfmt.Speedup), f.SpeedupRange)
}

// pageText is an HTML page's text as a reader sees it: tags and the style sheet dropped,
// entities and no-break spaces as plain characters, white space collapsed.
func pageText(html string) string {
	html = regexp.MustCompile(`(?s)<style.*?</style>|<svg.*?</svg>`).ReplaceAllString(html, " ")
	html = regexp.MustCompile(`<[^>]*>`).ReplaceAllString(html, "")
	html = strings.ReplaceAll(stdhtml.UnescapeString(html), numfmt.NBSP, " ")
	return strings.Join(strings.Fields(html), " ")
}
