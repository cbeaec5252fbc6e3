package report

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gctune/gctune/pretenure"
	"github.com/gctune/gctune/uncertainty"
)

// TestWriteHTMLSites: a report whose workloads name sites shows where the cost comes from by
// site and the pretenuring advice, with the note that it is a code change; one without shows
// no such section.
func TestWriteHTMLSites(t *testing.T) {
	r := htmlTestReport(t)
	assert.NotContains(t, renderHTML(t, r, htmlTestFigures()), `id="sites"`)

	r.Sites = []pretenure.WorkloadSites{{Workload: "dataframe-3.1gb", Sites: []pretenure.SiteCost{
		{Site: "DataFrameTypeDetector>>#convertToFloat:", LargeAllocFullGCs: 100, DirectOldBytes: 1 << 30, OldShare: 0.1},
		{Site: "NeoCSVReader>>#readField", TenuredBytes: 4 << 30, OldShare: 0.4},
		{Site: "DataFrameInternal class>>#withRows:", LargeAllocFullGCs: 1, DirectOldBytes: 1 << 30, OldShare: 0.1, ContainerSlots: 131500000},
	}}}
	r.Pretenure = &pretenure.Advice{Replicas: 8, Tolerance: 0.01, Note: pretenure.Note, Candidates: []pretenure.Candidate{
		{Sites: []string{"NeoCSVReader>>#readField"}, Gains: make([]float64, 8), Gain: 1.155, Interval: uncertainty.Interval{Lo: 1.133, Hi: 1.189},
			FullGCs: 7, FullGCsPretenured: 7, Advised: true, Change: pretenure.Change([]string{"NeoCSVReader>>#readField"})},
	}}
	page := renderHTML(t, r, htmlTestFigures())
	doc := parseHTML(t, page)
	text := strings.ReplaceAll(textOf(doc), "\u00a0", " ")
	for _, want := range []string{
		"Where the cost comes from, by allocation site", "DataFrameTypeDetector>>#convertToFloat:", "100",
		"NeoCSVReader>>#readField", "4 GiB", "131500000 slots in the remembered set",
		"Pretenuring on top of the recommendation", "is 1.155× faster (1.133× to 1.189× over 8 replicas)",
		"basicNew → basicNewTenured", "not part of the exported configuration",
	} {
		assert.Contains(t, text, want)
	}
}
