package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	figs, err := Figures(&r)
	require.NoError(t, err)
	var page bytes.Buffer
	require.NoError(t, Render(&page, &r, figs))
	assert.NotContains(t, page.String(), "<script>")
	assert.True(t, strings.Contains(page.String(), "&lt;script&gt;"), "the name is there, escaped")
}
