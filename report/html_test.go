package report

import (
	"bytes"
	"context"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/chromium"
	"github.com/gctune/gctune/internal/testfixture"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/tunable"
)

// htmlTestSummary summarises a tiny hand-made profile: short-lived strings, a few long-lived
// arrays, one large old-space object, a class name that needs escaping.
func htmlTestSummary(t *testing.T) *lifetimes.Summary {
	t.Helper()
	var b profile.Builder
	str := b.Class("ByteString")
	arr := b.Class("Array")
	odd := b.Class("Weird<b>&Class")
	const end = 10_000_000
	for i := range 50 {
		at := uint64(i) * 100_000
		b.Add(str, 48, at, at+5_000, 1000, 0)
		if i%10 == 0 {
			b.Add(arr, 4096, at, min(at+6_000_000, end), 10, 0)
		}
	}
	b.Add(odd, 1<<20, 1_000, end, 1, profile.FlagAliveAtEnd)
	p, err := b.Build(profile.Meta{Source: "test", EndBytes: end, SamplingRate: 1})
	require.NoError(t, err)
	s, err := lifetimes.Summarize(p, lifetimes.AnalysisOptions{})
	require.NoError(t, err)
	return s
}

// htmlTestReport is a small hand-made report on one workload, with a budget, two findings
// and a sensitivity ranking.
func htmlTestReport(t *testing.T) *Report {
	t.Helper()
	best := tunable.Point{NewSpaceBytes: 860 << 20, HeadroomBytes: 600 << 20, ShrinkBytes: 26 << 20, Ratio: 43.1, Proportion: 1.12}
	def := tunable.DefaultPoint(heapsim.DefaultParams())
	trials := []Trial{
		{Number: 0, State: "complete", Value: 4583.2, Feasible: true, PeakFootprintBytes: 900 << 20, Point: def},
		{Number: 1, State: "complete", Value: 1200, Feasible: true, PeakFootprintBytes: 1500 << 20},
		{Number: 2, State: "fail"},
		{Number: 3, State: "complete", Value: 575.9, Feasible: true, PeakFootprintBytes: 2 << 30, Point: best},
		{Number: 4, State: "pruned"},
		{Number: 5, State: "complete", Value: 500, Feasible: false, PeakFootprintBytes: 5 << 30},
	}
	defParams := heapsim.DefaultParams()
	bestParams := best.Params(defParams)
	return &Report{
		Study:   "dataframe-3.1gb",
		Version: "v0.9.0-test",
		Search: Search{
			ValueLabel:            "run time (s)",
			DefaultValue:          4583.2,
			DefaultFootprintBytes: 900 << 20,
			MaxFootprintBytes:     4 << 30,
			Trials:                trials,
			Best:                  trials[3],
			Pareto:                []Trial{trials[0], trials[1], trials[3]},
		},
		Workloads: []Workload{{Name: "dataframe-3.1gb", Summary: htmlTestSummary(t)}},
		Sensitivity: []diagnose.Sweep{
			{Param: tunable.ParamNewSpace, Label: "new space (eden) size", Bytes: true, Log: true,
				Values: []float64{4 << 20, 64 << 20, 1 << 30}, Objective: []float64{9000, 2000, 600}, Feasible: []bool{true, true, true},
				BestValue: best.NewSpaceBytes, DefaultValue: def.NewSpaceBytes, BestObjective: 575.9,
				Effect: 14.6, CliffFrom: 16 << 20, CliffTo: 32 << 20, CliffRatio: 3.42},
			{Param: tunable.ParamRatio, Label: "full GC ratio", Log: true,
				BestValue: best.Ratio, DefaultValue: def.Ratio, BestObjective: 575.9, Effect: 0.123, CliffFrom: 0.333333, CliffTo: 1, CliffRatio: 1.05},
			{Param: tunable.ParamProportion, Label: "survivors to keep",
				BestValue: best.Proportion, DefaultValue: def.Proportion, BestObjective: 575.9, Effect: 0, CliffRatio: 1},
		},
		Comparisons: []Comparison{{
			Workload: "dataframe-3.1gb", EndBytes: 10_000_000,
			Default: diagnose.Run{Label: "default", Params: defParams, Stats: heapsim.Stats{
				Scavenges: 1143, FullGCs: 309, FullGCsRatio: 120, FullGCsLargeAlloc: 189,
				TenuredBytes: 12 << 30, TenuredGarbageBytes: 9 << 30, PeakFootprintBytes: 900 << 20,
				GCSeconds: 4079, TotalSeconds: 4583.2, GCShare: 4079 / 4583.2}},
			Best: diagnose.Run{Label: "best", Params: bestParams, Stats: heapsim.Stats{
				Scavenges: 57, FullGCs: 3, FullGCsRatio: 3,
				TenuredBytes: 1 << 30, TenuredGarbageBytes: 10 << 20, PeakFootprintBytes: 2 << 30,
				GCSeconds: 71.7, TotalSeconds: 575.9, GCShare: 71.7 / 575.9}},
		}},
		Diagnosis: &diagnose.Diagnosis{
			ValueLabel: "run time (s)", DefaultObjective: 4583.2, BestObjective: 575.9,
			Changes: []diagnose.Change{
				{Param: tunable.ParamNewSpace, Label: "new space (eden) size", Bytes: true, DefaultValue: def.NewSpaceBytes, BestValue: best.NewSpaceBytes,
					RevertedObjective: 3900, RevertedFeasible: true},
				{Param: tunable.ParamHeadroom, Label: "growth headroom", Bytes: true, DefaultValue: def.HeadroomBytes, BestValue: best.HeadroomBytes,
					RevertedObjective: 0, RevertedFeasible: false},
			},
			Workloads: []diagnose.WorkloadDiagnosis{{
				Workload: "dataframe-3.1gb", DefaultSeconds: 4583.2, BestSeconds: 575.9, DefaultGCSeconds: 4079, BestGCSeconds: 71.7,
				Breakdown: []diagnose.TimeItem{
					{Name: "marking (full GCs)", DefaultSeconds: 2500, BestSeconds: 20},
					{Name: "copying survivors", DefaultSeconds: 1579, BestSeconds: 51.7},
				},
				Findings: []diagnose.Finding{
					{Kind: diagnose.KindLargeAllocBursts, Title: "Full GCs forced by large allocations", CostSeconds: 2900, BestCostSeconds: 3.5,
						Evidence: []string{"189 of 309 full GCs were forced by allocations of 1 MiB or more <b>not bold</b>", "they marked 1.2 TiB in all"},
						FixedBy:  tunable.ParamHeadroom, FixedByLabel: "growth headroom", RevertedCostSeconds: 2800,
						Remedy: "A 600 MiB headroom leaves room for the large arrays; simulated, the forced full GCs drop from 189 to 0."},
					{Kind: diagnose.KindPrematureTenuring, Title: "Premature tenuring", CostSeconds: 800, BestCostSeconds: 12,
						Evidence: []string{"9 GiB tenured died before the next full GC"},
						FixedBy:  tunable.ParamProportion, FixedByLabel: "survivors to keep", RevertedCostSeconds: 700},
				},
			}},
		},
	}
}

// htmlTestSVG is a small SVG as gonum's vgsvg writes it: prolog, comment, size in points and
// a viewBox.
func htmlTestSVG(label string) template.HTML {
	return template.HTML(`<?xml version="1.0"?>
<!-- Generated by SVGo and Plotinum VG -->
<svg width="432pt" height="216pt" viewBox="0 0 432 216"
	xmlns="http://www.w3.org/2000/svg"
	xmlns:xlink="http://www.w3.org/1999/xlink">
<g transform="scale(1, -1) translate(0, -216)">
<path d="M0,0L432,0L432,216L0,216Z" style="fill:#FFFFFF" />
<path d="M20,20L400,180" style="fill:none;stroke:#0072B2;stroke-width:2" />
<text x="175" y="-200" transform="scale(1, -1)" style="font-size:12px">` + template.HTMLEscapeString(label) + `</text>
</g>
</svg>
`)
}

func htmlTestFigures() []RenderedFigure {
	return []RenderedFigure{
		{Name: "workload-1-lifetimes", Section: SectionWorkload, Workload: 0, Title: "Lifetimes", Caption: "Most objects die young.", SVG: htmlTestSVG("lifetimes")},
		{Name: "search-progress", Section: SectionSearch, Workload: -1, Title: "Search progress", Caption: "Best value so far.", SVG: htmlTestSVG("progress")},
		{Name: "search-pareto", Section: SectionSearch, Workload: -1, Title: "Pareto front", SVG: htmlTestSVG("pareto")},
		{Name: "sensitivity-sweeps", Section: SectionSensitivity, Workload: -1, Title: "Sensitivity", Caption: "Each knob alone.", SVG: htmlTestSVG("sweeps")},
		{Name: "run-1-footprint", Section: SectionRun, Workload: 0, Title: "Footprint", Caption: "Default against best.", SVG: htmlTestSVG("footprint")},
	}
}

func renderHTML(t *testing.T, r *Report, figs []RenderedFigure) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, WriteHTML(&buf, r, figs))
	return buf.String()
}

func parseHTML(t *testing.T, page string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	require.NoError(t, err)
	return doc
}

func walk(n *html.Node, fn func(*html.Node)) {
	fn(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	})
	return b.String()
}

func byID(doc *html.Node) map[string]*html.Node {
	ids := map[string]*html.Node{}
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode {
			if id, ok := attr(n, "id"); ok {
				ids[id] = n
			}
		}
	})
	return ids
}

// checkSelfContained fails when the page refers to anything outside itself: src or href
// attributes other than in-page anchors, <link>, <script>, <iframe>, <object>, <embed>,
// url( or @import in CSS, or any "://" outside the SVG's xmlns namespace declarations.
func checkSelfContained(t *testing.T, doc *html.Node) {
	t.Helper()
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		switch n.Data {
		case "link", "script", "iframe", "object", "embed", "img", "base":
			t.Errorf("the page has a <%s> element", n.Data)
		case "style":
			css := strings.ToLower(textOf(n))
			assert.False(t, strings.Contains(css, "url("), "CSS loads nothing: url(")
			assert.False(t, strings.Contains(css, "@import"), "CSS imports nothing: @import")
			assert.False(t, strings.Contains(css, "://"), "CSS refers to nothing: ://")
		}
		for _, a := range n.Attr {
			key := a.Key
			if a.Namespace != "" {
				key = a.Namespace + ":" + a.Key
			}
			switch {
			case key == "xmlns" || strings.HasPrefix(key, "xmlns:") || a.Namespace == "xmlns":
				// Namespace names, not references.
			case a.Key == "href" || a.Key == "src" || a.Key == "srcset" || a.Key == "action" || a.Key == "poster":
				assert.True(t, strings.HasPrefix(a.Val, "#"), "<%s %s=%q> refers outside the page", n.Data, key, a.Val)
			default:
				assert.NotContains(t, a.Val, "://", "<%s %s=%q>", n.Data, key, a.Val)
				assert.NotContains(t, strings.ToLower(a.Val), "url(", "<%s %s=%q>", n.Data, key, a.Val)
			}
		}
	})
}

func TestWriteHTMLWellFormedAndSelfContained(t *testing.T) {
	r := htmlTestReport(t)
	figs := htmlTestFigures()
	page := renderHTML(t, r, figs)
	doc := parseHTML(t, page)
	checkSelfContained(t, doc)

	// html/template's own check: x/net/html's tokenizer sees one <html>, <head>, <body>.
	assert.True(t, strings.HasPrefix(page, "<!DOCTYPE html>"))
	assert.Equal(t, 1, strings.Count(page, "<body>"))
	assert.NotContains(t, page, "<?xml", "the SVGs' XML prologs are removed")
	assert.NotContains(t, page, "<!-- Generated", "and their comments")
	assert.NotContains(t, page, "ZgotmplZ", "html/template found no unsafe value")

	ids := byID(doc)
	for _, f := range figs {
		n, ok := ids[f.Name]
		if !assert.True(t, ok, "figure %s has an element", f.Name) {
			continue
		}
		assert.Equal(t, "figure", n.Data)
		var svgs, captions int
		walk(n, func(c *html.Node) {
			if c.Type == html.ElementNode && c.Data == "svg" {
				svgs++
			}
			if c.Type == html.ElementNode && c.Data == "figcaption" {
				captions++
				assert.Contains(t, textOf(c), f.Title)
				assert.Contains(t, textOf(c), f.Caption)
			}
		})
		assert.Equal(t, 1, svgs, "figure %s holds its svg", f.Name)
		assert.Equal(t, 1, captions)
	}
	// Figures sit in their sections.
	assert.Contains(t, textOf(ids["workload-w1"]), "lifetimes")
	assert.Contains(t, textOf(ids["run-w1"]), "footprint")
	assert.Contains(t, textOf(ids["search"]), "progress")
	assert.Contains(t, textOf(ids["sensitivity"]), "sweeps")

	// Every in-page anchor leads somewhere.
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "a" {
			href, _ := attr(n, "href")
			_, ok := ids[strings.TrimPrefix(href, "#")]
			assert.True(t, ok, "anchor %s has a target", href)
		}
	})
	// The diagnosis comes first after the header.
	assert.Less(t, strings.Index(page, `id="diagnosis"`), strings.Index(page, `id="workload"`))
	for _, id := range []string{"configuration", "diagnosis", "workload", "search", "sensitivity", "run"} {
		assert.Contains(t, ids, id)
	}
}

func TestWriteHTMLContent(t *testing.T) {
	r := htmlTestReport(t)
	page := renderHTML(t, r, htmlTestFigures())
	doc := parseHTML(t, page)
	text := strings.ReplaceAll(textOf(doc), "\u00a0", " ")
	for _, want := range []string{
		// Header.
		"dataframe-3.1gb", "v0.9.0-test", "7.96×", "4,583 s", "576 s", "#3", "of 6 trials", "4 GiB peak footprint",
		"minimise the simulated run time (s)",
		// Best configuration.
		"16 MiB", "860 MiB", "600 MiB", "26 MiB", "43.1", "0.3333", "keep all (p = 1.12)",
		// Diagnosis.
		"Where the GC time went", "marking (full GCs)", "2,500 s", "61.3 %", "Full GCs forced by large allocations",
		"2,900 s", "3.50 s", "they marked 1.2 TiB in all", "A 600 MiB headroom leaves room", "Premature tenuring",
		"Reduced by the change of the survivors to keep: with it put back to its default, the best configuration pays 700 s", "3,900 s", "+577 %", "infeasible",
		// Workload.
		"Long-lived by count", "Weird<b>&Class", "ByteString",
		// Search.
		"4 complete, 1 pruned, 1 failed (3 of the complete ones feasible)", "Pareto front", "over budget",
		// Sensitivity.
		"New space (eden) size", "1,460 %", "between 16 MiB and 32 MiB: ×3.42", "flat",
		// Runs.
		"1,143", "189", "9 GiB", "10 MiB", "−95.0 %", "+128 %",
	} {
		assert.True(t, strings.Contains(text, want), "the page says %q", want)
	}
	// User strings are text, not markup.
	assert.Contains(t, page, "Weird&lt;b&gt;&amp;Class")
	assert.Contains(t, page, "&lt;b&gt;not bold&lt;/b&gt;")
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "b" {
			t.Errorf("a user string became a <b> element")
		}
	})
}

func TestWriteHTMLEscapes(t *testing.T) {
	r := htmlTestReport(t)
	r.Study = `<script>alert("x")</script>`
	r.Version = `"><img src=x>`
	r.Workloads[0].Name = `<i>w</i>`
	page := renderHTML(t, r, htmlTestFigures())
	assert.NotContains(t, page, `<script>alert`)
	assert.Contains(t, page, `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`)
	doc := parseHTML(t, page)
	checkSelfContained(t, doc)
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "script" || n.Data == "img" || n.Data == "i") {
			t.Errorf("user text became a <%s> element", n.Data)
		}
	})
	title := ""
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "title" {
			title = textOf(n)
		}
	})
	assert.Equal(t, `gctune report: <script>alert("x")</script>`, title)
}

func TestWriteHTMLSparse(t *testing.T) {
	t.Run("no findings, no budget, no changes", func(t *testing.T) {
		r := htmlTestReport(t)
		r.Search.MaxFootprintBytes = 0
		r.Diagnosis.Workloads[0].Findings = nil
		r.Diagnosis.Changes = nil
		page := renderHTML(t, r, nil)
		doc := parseHTML(t, page)
		checkSelfContained(t, doc)
		text := strings.ReplaceAll(textOf(doc), "\u00a0", " ")
		assert.Contains(t, text, "The default run showed none of the four pathologies")
		assert.Contains(t, text, "no parameter changes")
		assert.Contains(t, text, "Memory budget")
		assert.NotContains(t, text, "over budget")
		assert.NotContains(t, page, "<figure")
	})
	t.Run("no diagnosis, no best, no workloads", func(t *testing.T) {
		r := &Report{Study: "empty", Search: Search{Trials: []Trial{{Number: 0, State: "running"}}}}
		page := renderHTML(t, r, nil)
		doc := parseHTML(t, page)
		checkSelfContained(t, doc)
		text := textOf(doc)
		assert.Contains(t, text, "none yet")
		assert.Contains(t, text, "no diagnosis")
		assert.Contains(t, text, "No sensitivity sweeps")
		assert.Contains(t, text, "1 running")
	})
	t.Run("several workloads", func(t *testing.T) {
		r := htmlTestReport(t)
		w2 := r.Workloads[0]
		w2.Name = "request-server"
		r.Workloads = append(r.Workloads, w2)
		c2 := r.Comparisons[0]
		c2.Workload = "request-server"
		r.Comparisons = append(r.Comparisons, c2)
		r.Search.ValueLabel = "worst slowdown against the defaults"
		r.Diagnosis.ValueLabel = r.Search.ValueLabel
		r.Search.DefaultValue, r.Search.Best.Value = 1, 0.1256
		r.Diagnosis.DefaultObjective, r.Diagnosis.BestObjective = 1, 0.1256
		figs := append(htmlTestFigures(), RenderedFigure{Name: "run-2-footprint", Section: SectionRun, Workload: 1, Title: "Footprint 2", SVG: htmlTestSVG("second")})
		page := renderHTML(t, r, figs)
		doc := parseHTML(t, page)
		ids := byID(doc)
		assert.Contains(t, textOf(ids["run-w2"]), "second")
		assert.Contains(t, ids, "workload-w2")
		text := textOf(doc)
		assert.Contains(t, text, "The workloads")
		assert.Contains(t, text, "0.1256")
		assert.Contains(t, text, "7.96×")
	})
}

func TestWriteHTMLDeterministic(t *testing.T) {
	r := htmlTestReport(t)
	a := renderHTML(t, r, htmlTestFigures())
	b := renderHTML(t, r, htmlTestFigures())
	assert.Equal(t, a, b)
}

func TestWriteHTMLErrors(t *testing.T) {
	r := htmlTestReport(t)
	svg := htmlTestSVG("x")
	for name, tc := range map[string]struct {
		figs []RenderedFigure
		want string
	}{
		"no name":       {[]RenderedFigure{{Section: SectionSearch, SVG: svg}}, "no name"},
		"space in name": {[]RenderedFigure{{Name: "a b", Section: SectionSearch, SVG: svg}}, "white space"},
		"duplicate":     {[]RenderedFigure{{Name: "a", Section: SectionSearch, SVG: svg}, {Name: "a", Section: SectionSearch, SVG: svg}}, "two figures"},
		"section id":    {[]RenderedFigure{{Name: "diagnosis", Section: SectionSearch, SVG: svg}}, "id of"},
		"workload id":   {[]RenderedFigure{{Name: "run-w1", Section: SectionSearch, SVG: svg}}, "id of"},
		"section":       {[]RenderedFigure{{Name: "a", Section: "elsewhere", SVG: svg}}, "unknown section"},
		"workload":      {[]RenderedFigure{{Name: "a", Section: SectionWorkload, Workload: 1, SVG: svg}}, "out of range"},
		"run":           {[]RenderedFigure{{Name: "a", Section: SectionRun, Workload: -1, SVG: svg}}, "out of range"},
		"no svg":        {[]RenderedFigure{{Name: "a", Section: SectionSearch, SVG: "<p>x</p>"}}, "no <svg>"},
		"external href": {[]RenderedFigure{{Name: "a", Section: SectionSearch, SVG: `<svg><image xlink:href="https://example.com/x.png"/></svg>`}}, "outside the page"},
		"external url":  {[]RenderedFigure{{Name: "a", Section: SectionSearch, SVG: `<svg><path style="fill:url(http://x/y#p)"/></svg>`}}, "outside the page"},
		"script":        {[]RenderedFigure{{Name: "a", Section: SectionSearch, SVG: `<svg><script>alert(1)</script></svg>`}}, "script"},
	} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			err := WriteHTML(&buf, r, tc.figs)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Zero(t, buf.Len(), "nothing written on error")
		})
	}
	require.Error(t, WriteHTML(&bytes.Buffer{}, nil, nil))
}

func TestHTMLInlineSVG(t *testing.T) {
	got, err := htmlInlineSVG(string(htmlTestSVG("x")))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(got), "<svg "))
	assert.True(t, strings.HasSuffix(string(got), "</svg>"))
	assert.Equal(t, 1, strings.Count(string(got), "viewBox"), "an existing viewBox is kept")

	got, err = htmlInlineSVG(`<svg width="432pt" height="216pt" xmlns="http://www.w3.org/2000/svg"><g/></svg>`)
	require.NoError(t, err)
	assert.Equal(t, `<svg viewBox="0 0 432 216" width="432pt" height="216pt" xmlns="http://www.w3.org/2000/svg"><g/></svg>`, string(got))

	got, err = htmlInlineSVG(`<svg width="100%" height="auto"><g/></svg>`)
	require.NoError(t, err)
	assert.NotContains(t, string(got), "viewBox", "no viewBox from relative sizes")

	_, err = htmlInlineSVG(`<svg><use href="#p"/><image href="data:image/png;base64,AAAA"/><path fill="url(#g)"/></svg>`)
	assert.NoError(t, err, "in-page references and data: URLs stay inside the page")
}

func TestHTMLNumbers(t *testing.T) {
	nb := func(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }
	for _, c := range []struct{ got, want string }{
		{htmlSignedPercent(-0.951), nb("−95.1 %")},
		{htmlSignedPercent(0.5), nb("+50.0 %")},
		{htmlChangeText(0, 0), "="},
		{htmlChangeText(0, 5), "—"},
		{htmlParam(tunable.ParamNewSpace, true, 16<<20), nb("16 MiB")},
		{htmlParam(tunable.ParamRatio, false, 0.333333), "0.3333"},
		{htmlParam(tunable.ParamProportion, false, 0.9), "0.9"},
		{htmlParam(tunable.ParamProportion, false, 1), "keep all (p\u00a0=\u00a01)"},
		{htmlValue(0.12555, false), "0.1256"},
	} {
		assert.Equal(t, c.want, c.got)
	}
}

// TestHTMLPreview writes a realistic report page to $REPORT_HTML_PREVIEW (a path ending in
// .html), built by Build from bundled workloads, with the real figures, and screenshots it
// beside (.png, full height) and prints it (.pdf) when Chromium is available. It is for
// looking at the page; it skips unless the variable is set.
func TestHTMLPreview(t *testing.T) {
	out := previewEnv(t, "REPORT_HTML_PREVIEW", "set REPORT_HTML_PREVIEW=/path/report.html to write a preview page")
	r := htmlPreviewReport(t)
	figs := mustFigures(t, r)
	var buf bytes.Buffer
	require.NoError(t, Render(&buf, r, figs))
	require.NoError(t, os.WriteFile(out, buf.Bytes(), 0o644))
	t.Logf("wrote %s (%d bytes)", out, buf.Len())
	checkSelfContained(t, parseHTML(t, buf.String()))
	assert.NotContains(t, buf.String(), "ZgotmplZ")
	if _, err := chromium.Available(); err != nil {
		t.Logf("no screenshot: %v", err)
		return
	}
	ctx := context.Background()
	height := envInt(t, "REPORT_HTML_PREVIEW_HEIGHT", 30000)
	base := strings.TrimSuffix(out, filepath.Ext(out))
	require.NoError(t, chromium.Screenshot(ctx, out, base+".png", 1200, height))
	require.NoError(t, chromium.PrintToPDF(ctx, out, base+".pdf"))
	t.Logf("wrote %s.png and %s.pdf", base, base)
}

// htmlPreviewReport builds a real report: the bundled workloads named by
// $REPORT_HTML_PREVIEW_WORKLOADS (default dataframe-500mb), searched with gctune's TPE for
// $REPORT_HTML_PREVIEW_TRIALS trials (default 60) from the profile's seeds, 3 GiB budget.
func htmlPreviewReport(t *testing.T) *Report {
	t.Helper()
	names := strings.Fields(os.Getenv("REPORT_HTML_PREVIEW_WORKLOADS"))
	if len(names) == 0 {
		names = []string{"dataframe-500mb"}
	}
	trials := envInt(t, "REPORT_HTML_PREVIEW_TRIALS", 60)
	var ws []objective.Workload
	var sums []*lifetimes.Summary
	for _, name := range names {
		w := testfixture.Bundled(t, name)
		ws = append(ws, w)
		sums = append(sums, testfixture.Summary(t, w))
	}
	prob := testfixture.Problem(t, objective.Settings{MaxFootprintBytes: 3 << 30}, ws...)
	space := tunable.DefaultSpace()
	plan, err := search.PlanSearch(sums, prob.Base(), space, search.PlanOptions{})
	require.NoError(t, err)
	st := goptuna.NewInMemoryStorage()
	study, err := goptuna.CreateStudy("preview", goptuna.StudyOptionStorage(st), goptuna.StudyOptionLogger(nil))
	require.NoError(t, err)
	require.NoError(t, search.Enqueue(study, plan.Seeds))
	_, err = search.Optimize(context.Background(), st, "preview", prob,
		search.Settings{Trials: trials, Workers: 1, Seed: 1, Sampler: search.SamplerTPE, Space: plan.Space})
	require.NoError(t, err)
	frozen, err := study.GetTrials()
	require.NoError(t, err)
	r, err := Build(context.Background(), Input{Study: strings.Join(names, "+"), Version: "preview", Problem: prob, Space: space,
		Trials: frozen, Trial: -1}, Options{Workers: 2})
	require.NoError(t, err)
	return r
}
