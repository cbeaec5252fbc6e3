package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/pretenure"
	"github.com/gctune/gctune/profilereport"
	"github.com/gctune/gctune/simulate"
)

// TestLifetimesSitesFiLiP: an export of the current exporter gets the sites table, its figures
// stated with their 95 % interval at the export's 1/10.
func TestLifetimesSitesFiLiP(t *testing.T) {
	out, _ := gctuneOK(t, "lifetimes", "--bins", "4", "--top", "0", "../../profile/filip/testdata/filip/era-filip.csv")
	for _, want := range []string{
		"allocation sites by full GCs forced, then bytes tenured by the scavenger, at the defaults (5 of 5)",
		"sampled at 0.1: ± is a 95 % interval",
		`"String class>>#new: @11"`, `"DataFrame>>#addRow: @40"`, "COPIED THEN TENURED", " ± ",
	} {
		assert.Contains(t, out, want)
	}
	var doc profilereport.Lifetimes
	gctuneJSON(t, &doc, "lifetimes", "../../profile/filip/testdata/filip/era-filip.csv")
	require.NotNil(t, doc.Sites)
	assert.True(t, doc.Sites.Sampled)
	assert.Len(t, doc.Sites.Rows, 5)
	for _, r := range doc.Sites.Rows {
		assert.Greater(t, r.ObjectsCI95, 0.0, r.Site)
	}

	// An era that writes no site: no table.
	out, _ = gctuneOK(t, "lifetimes", "../../profile/filip/testdata/filip/era-v1.1.csv")
	assert.NotContains(t, out, "allocation sites")
}

// TestSimulatePretenure: --pretenure runs the given configuration with the site's objects in
// old space and says so; a site the profile does not name is the user's error (exit 2, one
// line).
func TestSimulatePretenure(t *testing.T) {
	spec := writeFile(t, "sites.yaml", `name: sites
resolution: 0.01
classes: [{name: A, size: 64}]
phases:
  - name: p
    allocate: 64MiB
    mix:
      - {class: A, share: 0.1, lifetime: until-end, site: "App>>cache"}
      - {class: A, share: 0.9, lifetime: 1KiB, site: "App>>parse"}
`)
	var doc simulate.Report
	gctuneJSON(t, &doc, "simulate", spec, "--pretenure", "App>>cache")
	require.NotNil(t, doc.Pretenured)
	assert.Equal(t, []string{"App>>#cache"}, doc.Pretenured.Sites)
	assert.Less(t, doc.Given.Stats.TenuredBytes, doc.Default.Stats.TenuredBytes, "the cache is no longer tenured by the scavenger")
	assert.Greater(t, doc.Given.Stats.DirectOldBytes, doc.Default.Stats.DirectOldBytes)

	out, _ := gctuneOK(t, "simulate", spec, "--pretenure", "App>>#cache")
	assert.Contains(t, out, `given run with pretenuring (a code change: basicNewTenured): "App>>#cache"`)

	_, errOut, code := gctune(t, "simulate", spec, "--pretenure", "Nope>>#x")
	assert.Equal(t, 2, code)
	assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
	assert.Contains(t, errOut, `--pretenure "Nope>>#x": no allocation site of the profile matches`)

	_, errOut, code = gctune(t, "simulate", "../../profile/filip/testdata/filip/era-v1.1.csv", "--pretenure", "A>>#b")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "names no allocation sites")
}

// TestPretenureAdvice: `gctune pretenure` tries the site the scavenger tenures, judges it on
// replicas and says the Pharo change and that it is no GC parameter; a site dying young is not
// tried.
func TestPretenureAdvice(t *testing.T) {
	spec := writeFile(t, "sites.yaml", `name: sites
resolution: 0.01
classes: [{name: A, size: 64}]
phases:
  - name: p
    allocate: 256MiB
    mix:
      - {class: A, share: 0.3, lifetime: until-end, site: "App>>cache"}
      - {class: A, share: 0.7, lifetime: 1KiB, site: "App>>parse"}
`)
	var doc pretenureDocOut
	gctuneJSON(t, &doc, "pretenure", spec, "--replicas", "2", "--headroom", "512MiB", "--tolerance", "0.001")
	require.NotNil(t, doc.Advice)
	require.Len(t, doc.Advice.Candidates, 1)
	c := doc.Advice.Candidates[0]
	assert.Equal(t, []string{"App>>#cache"}, c.Sites)
	assert.Len(t, c.Gains, 2)
	assert.Contains(t, doc.Advice.Note, "not part of the exported configuration")

	out, _ := gctuneOK(t, "pretenure", spec, "--replicas", "2", "--headroom", "512MiB", "--tolerance", "0.001")
	assert.Contains(t, out, "judged on 2 perturbed replicas")
	assert.Contains(t, out, `"App>>#cache"`)
	assert.NotContains(t, out, `"App>>#parse"`)

	_, errOut, code := gctune(t, "pretenure", "../../profile/filip/testdata/filip/era-v1.1.csv")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "names no allocation sites")
	_, _, code = gctune(t, "pretenure", spec, "--candidates", "0")
	assert.Equal(t, 2, code)
}

// TestExplainSites: explain attributes the cost at the defaults to the sites and gives the
// pretenuring advice on top of the recommendation, in text and JSON, never in the
// configuration.
func TestExplainSites(t *testing.T) {
	dir := t.TempDir()
	spec := writeFile(t, "sites.yaml", `name: sites
resolution: 0.01
classes: [{name: A, size: 64}]
phases:
  - name: p
    allocate: 96MiB
    mix:
      - {class: A, share: 0.3, lifetime: until-end, site: "App>>cache"}
      - {class: A, share: 0.7, lifetime: 1KiB, site: "App>>parse"}
`)
	db := dir + "/s.db"
	gctuneOK(t, "optimize", spec, "--trials", "3", "--workers", "1", "--storage", db, "--study", "s", "-q", "--replicas", "4")
	out, _ := gctuneOK(t, "explain", "s", "--storage", db)
	assert.Contains(t, out, "Where the GC cost comes from at the defaults, by allocation site (")
	assert.Contains(t, out, `"App>>#cache":`)
	assert.Contains(t, out, "copied by the scavenger then tenured")
	assert.Contains(t, out, "Pretenuring on top of the recommendation (pretenuring is a change to the application's code")
	var ex struct {
		Sites     []pretenure.WorkloadSites `json:"sites"`
		Pretenure *json.RawMessage          `json:"pretenure"`
	}
	gctuneJSON(t, &ex, "explain", "s", "--storage", db)
	require.Len(t, ex.Sites, 1)
	assert.NotNil(t, ex.Pretenure)
	page := dir + "/r.html"
	gctuneOK(t, "report", "s", "--storage", db, "-o", page, "--sweep-points", "3")
	html, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(html), "Where the cost comes from, by allocation site")
	assert.Contains(t, string(html), "Pretenuring on top of the recommendation")
	yaml, _ := gctuneOK(t, "export", "s", "--storage", db, "--format", "yaml")
	assert.NotContains(t, yaml, "pretenur")
	assert.NotContains(t, yaml, "App>>")
}
