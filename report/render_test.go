package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

// TestRenderEscapesNamesInFigures: a workload name with markup reaches the figures' titles, and
// the inline SVG must carry it escaped, since Render passes the SVG to the page as is.
func TestRenderEscapesNamesInFigures(t *testing.T) {
	r := *newTestReport(t)
	const evil = `<script>alert(1)</script>&"x"`
	r.Workloads = append([]Workload(nil), r.Workloads...)
	r.Comparisons = append([]Comparison(nil), r.Comparisons...)
	r.Workloads[0].Name = evil
	r.Comparisons[0].Workload = evil
	figs := mustFigures(t, &r)
	var page bytes.Buffer
	require.NoError(t, Render(&page, &r, figs))
	assert.NotContains(t, page.String(), "<script>")
	assert.True(t, strings.Contains(page.String(), "&lt;script&gt;"), "the name is there, escaped")
}

// TestRenderRealPage checks the page of a real report (figures drawn by gonum/plot, not test
// stand-ins): self-contained, every figure under its id with its SVG and caption, every
// finding of the diagnosis and every workload's class table on the page.
func TestRenderRealPage(t *testing.T) {
	r := newTestReport(t)
	figs := mustFigures(t, r)
	var page bytes.Buffer
	require.NoError(t, Render(&page, r, figs))
	assert.NotContains(t, page.String(), "ZgotmplZ", "no value refused by html/template")
	doc := parseHTML(t, page.String())
	checkSelfContained(t, doc)
	ids := byID(doc)
	for _, f := range figs {
		n, ok := ids[f.Name]
		require.True(t, ok, "figure %s on the page", f.Name)
		var svg, caption bool
		walk(n, func(c *html.Node) {
			svg = svg || (c.Type == html.ElementNode && c.Data == "svg")
			caption = caption || (c.Type == html.ElementNode && c.Data == "figcaption")
		})
		assert.True(t, svg, "figure %s has its SVG", f.Name)
		assert.True(t, caption, "figure %s has its caption", f.Name)
	}
	text := textOf(doc)
	require.NotEmpty(t, r.Diagnosis.Workloads[0].Findings, "the fixture's default run shows pathologies")
	for _, wd := range r.Diagnosis.Workloads {
		for _, f := range wd.Findings {
			assert.Contains(t, text, f.Title)
		}
	}
	for _, w := range r.Workloads {
		assert.Contains(t, text, w.Summary.Classes[0].Class)
	}
}
