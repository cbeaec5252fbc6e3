package report

import (
	"fmt"
	"html/template"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/tunable"
)

func newHTMLPage(r *Report, figs []RenderedFigure) (*htmlPage, error) {
	css, err := htmlFS.ReadFile("templates/report.css")
	if err != nil {
		return nil, fmt.Errorf("report: html: %w", err)
	}
	seconds := htmlObjectiveInSeconds(r)
	p := &htmlPage{
		CSS:     template.CSS(css),
		Study:   r.Study,
		Version: r.Version,
		Trials:  len(r.Search.Trials),
	}
	for _, w := range r.Workloads {
		p.Workloads = append(p.Workloads, w.Name)
	}
	if len(p.Workloads) == 0 {
		for _, c := range r.Comparisons {
			p.Workloads = append(p.Workloads, c.Workload)
		}
	}
	p.Objective = htmlObjectiveText(r, seconds)
	p.Budget = "none"
	if r.Search.MaxFootprintBytes > 0 {
		p.Budget = htmlBytes(r.Search.MaxFootprintBytes) + " peak footprint"
	}

	// Header: best trial and speedup.
	best := r.Search.Best
	p.HasBest = best.State == "complete"
	if p.HasBest {
		p.BestTrial = best.Number
		p.TrialLabel = "Trial"
		if r.Recommendation != nil {
			p.TrialLabel = "Recommended trial"
		}
		def, bst := r.Search.DefaultValue, best.Value
		if d := r.Diagnosis; d != nil && d.BestObjective > 0 {
			def, bst = d.DefaultObjective, d.BestObjective
		}
		p.DefaultValue, p.BestValue = htmlValue(def, seconds), htmlValue(bst, seconds)
		p.Speedup = numfmt.Speedup(htmlRatio(def, bst))
	}
	p.TrialsLine = htmlTrialsLine(r.Search.Trials)
	p.Config = htmlConfigRows(r, p.HasBest)
	p.ConfigHeading = htmlConfigHeading(r, p.HasBest)
	p.Apply = htmlApplySection(r, seconds)

	ids := map[string]string{}
	use := func(id, what string) string {
		ids[id] = what
		return id
	}
	for _, id := range []string{htmlIDConfiguration, htmlIDDiagnosis, htmlIDWorkload, htmlIDSearch, htmlIDSensitivity, htmlIDRun, "references", "ref-iwst23-l", "ref-iwst23-p", "ref-ismm24"} {
		use(id, "a section")
	}
	p.TOC = []htmlTOCEntry{
		{htmlIDConfiguration, "Apply it"},
		{htmlIDDiagnosis, "Diagnosis"},
		{htmlIDWorkload, htmlWorkloadHeading(len(r.Workloads))},
		{htmlIDSearch, "The search"},
		{htmlIDSensitivity, "Sensitivity"},
		{htmlIDRun, "Default against best over the run"},
		{"references", "References"},
	}

	// Figures, by section and workload.
	wlFigs := make([][]htmlFigure, len(r.Workloads))
	runFigs := make([][]htmlFigure, len(r.Comparisons))
	seen := map[string]bool{}
	var holdsFigs []htmlFigure
	for i, f := range figs {
		name := f.Name
		switch {
		case name == "":
			return nil, fmt.Errorf("report: html: figure %d (%q) has no name", i, f.Title)
		case strings.ContainsAny(name, " \t\n\r\f"):
			return nil, fmt.Errorf("report: html: figure name %q has white space: it is the figure's element id", name)
		case seen[name]:
			return nil, fmt.Errorf("report: html: two figures are named %q", name)
		}
		seen[name] = true
		svg, err := htmlInlineSVG(string(f.SVG))
		if err != nil {
			return nil, fmt.Errorf("report: html: figure %q: %w", name, err)
		}
		v := htmlFigure{ID: name, Title: f.Title, Caption: f.Caption, SVG: svg}
		switch f.Section {
		case SectionWorkload:
			if f.Workload < 0 || f.Workload >= len(wlFigs) {
				return nil, fmt.Errorf("report: html: figure %q: workload %d out of range (the report has %d)", name, f.Workload, len(wlFigs))
			}
			wlFigs[f.Workload] = append(wlFigs[f.Workload], v)
		case SectionRun:
			if f.Workload < 0 || f.Workload >= len(runFigs) {
				return nil, fmt.Errorf("report: html: figure %q: comparison %d out of range (the report has %d)", name, f.Workload, len(runFigs))
			}
			runFigs[f.Workload] = append(runFigs[f.Workload], v)
		case SectionSearch:
			p.Search.Figures = append(p.Search.Figures, v)
		case SectionSensitivity:
			p.Sensitivity.Figures = append(p.Sensitivity.Figures, v)
		case SectionHolds:
			holdsFigs = append(holdsFigs, v)
		default:
			return nil, fmt.Errorf("report: html: figure %q: unknown section %q (want workload, search, sensitivity, holds or run)", name, f.Section)
		}
	}

	if r.Diagnosis != nil {
		p.Diagnosis = htmlDiagnosisSection(r.Diagnosis, r.Recommendation, seconds, use)
	}
	for i, w := range r.Workloads {
		p.Lifetimes = append(p.Lifetimes, htmlWorkloadSection(i, w, wlFigs[i], use))
	}
	htmlMeasuredSection(p, r, use)
	p.Search = htmlSearchSection(r, seconds, p.Search.Figures)
	p.Sensitivity.Rows = htmlSensitivityRows(r.Sensitivity)
	htmlHoldsSection(p, r, holdsFigs, seconds, use)
	p.Sites = htmlSitesSection(r)
	for i, c := range r.Comparisons {
		p.Runs = append(p.Runs, htmlRunSection(i, c, runFigs[i], use))
	}

	for _, f := range figs {
		if what, ok := ids[f.Name]; ok {
			return nil, fmt.Errorf("report: html: figure name %q is the id of %s on the page: rename the figure", f.Name, what)
		}
	}
	return p, nil
}

func htmlWorkloadHeading(n int) string {
	if n > 1 {
		return "The workloads"
	}
	return "The workload"
}

// htmlObjectiveInSeconds reports whether the objective is a time in seconds (one workload) rather
// than a slowdown (several).
func htmlObjectiveInSeconds(r *Report) bool {
	label := r.Search.ValueLabel
	if label == "" && r.Diagnosis != nil {
		label = r.Diagnosis.ValueLabel
	}
	if label != "" {
		return strings.Contains(label, "(s)") || strings.Contains(label, "second")
	}
	return len(r.Workloads) <= 1
}

func htmlObjectiveText(r *Report, seconds bool) string {
	label := r.Search.ValueLabel
	if label == "" && r.Diagnosis != nil {
		label = r.Diagnosis.ValueLabel
	}
	if label == "" {
		if seconds {
			label = "run time (s)"
		} else {
			label = "slowdown against the defaults"
		}
	}
	return "minimise the simulated " + strings.TrimPrefix(label, "simulated ")
}

func htmlTrialsLine(trials []Trial) string {
	if len(trials) == 0 {
		return "no trials"
	}
	counts := map[string]int{}
	feasible := 0
	for _, t := range trials {
		counts[t.State]++
		if t.State == "complete" && t.Feasible {
			feasible++
		}
	}
	parts := []string{}
	for _, s := range htmlOrderedStates(counts) {
		parts = append(parts, fmt.Sprintf("%s %s", numfmt.Count64(uint64(counts[s.State])), htmlStateName(s.State)))
	}
	line := strings.Join(parts, ", ")
	if counts["complete"] > 0 && feasible < counts["complete"] {
		line += fmt.Sprintf(" (%s of the complete ones feasible)", numfmt.Count64(uint64(feasible)))
	}
	return line
}

var htmlStateOrder = []string{"complete", "pruned", "fail", "running", "waiting"}

func htmlOrderedStates(counts map[string]int) []htmlStateRow {
	var rows []htmlStateRow
	for _, s := range htmlStateOrder {
		if counts[s] > 0 {
			rows = append(rows, htmlStateRow{s, counts[s]})
		}
	}
	var other []string
	for s := range counts {
		if !slices.Contains(htmlStateOrder, s) {
			other = append(other, s)
		}
	}
	slices.Sort(other)
	for _, s := range other {
		rows = append(rows, htmlStateRow{s, counts[s]})
	}
	return rows
}

func htmlStateName(s string) string {
	switch s {
	case "fail":
		return "failed"
	case "":
		return "unknown"
	}
	return s
}

// htmlDefaultPoint returns the VM defaults per parameter (Search.DefaultPoint); a report without
// one (the zero point) has none.
func htmlDefaultPoint(r *Report) map[string]float64 {
	def := map[string]float64{}
	if r.Search.DefaultPoint == (tunable.Point{}) {
		return def
	}
	for _, t := range tunable.All() {
		def[t.Name] = t.Get(r.Search.DefaultPoint)
	}
	return def
}

// htmlConfigHeading names what the configuration table's last column holds: the
// recommended configuration, or a trial as the search stored it.
func htmlConfigHeading(r *Report, hasBest bool) string {
	switch {
	case !hasBest:
		return "Tuned"
	case r.Recommendation != nil:
		return fmt.Sprintf("Recommended (trial %d)", r.Search.Best.Number)
	}
	return fmt.Sprintf("Trial %d", r.Search.Best.Number)
}

func htmlConfigRows(r *Report, hasBest bool) []htmlConfigRow {
	def := htmlDefaultPoint(r)
	labels := map[string]string{}
	for _, s := range r.Sensitivity {
		if s.Label != "" {
			labels[s.Param] = s.Label
		}
	}
	var rows []htmlConfigRow
	for _, t := range tunable.All() {
		row := htmlConfigRow{Label: htmlTunableLabel(t), VMParam: strconv.Itoa(t.VMParam), Default: "—", Best: "—"}
		if d, ok := def[t.Name]; ok {
			row.Default = htmlParam(t.Name, t.IsBytes(), d)
		}
		if hasBest {
			row.Best = htmlParam(t.Name, t.IsBytes(), t.Get(r.Search.Best.Point))
		}
		row.Changed = hasBest && row.Default != "—" && row.Default != row.Best
		rows = append(rows, row)
	}
	return rows
}

// On the recommendation (rec not nil), a change it kept states the recommendation's own cost of
// putting it back (recommend.Step, judged on its decision runs), the one figure "How it was
// chosen" states too, not a second measurement.
func htmlDiagnosisSection(d *diagnose.Diagnosis, rec *recommend.Recommendation, seconds bool, use func(id, what string) string) *htmlDiagnosis {
	v := &htmlDiagnosis{}
	if d.BestObjective > 0 {
		what := htmlUnitRe.ReplaceAllString(d.ValueLabel, "")
		if what == "" {
			what = "objective"
		}
		v.Summary = fmt.Sprintf("On the profiled run exactly as recorded (one simulation of each configuration, as every figure of this section), the tuned configuration brings the %s from %s to %s: %s.",
			what, htmlValue(d.DefaultObjective, seconds), htmlValue(d.BestObjective, seconds),
			numfmt.Plain(numfmt.Faster(d.DefaultObjective, d.BestObjective)))
		if !d.BestFeasible && d.BestInfeasibility != "" {
			v.Summary += " It is infeasible: " + d.BestInfeasibility + "."
		}
	}
	for i, w := range d.Workloads {
		wv := htmlWorkloadDiagnosis{
			ID:             use(fmt.Sprintf("diagnosis-w%d", i+1), "workload "+w.Workload+"'s diagnosis"),
			Name:           w.Workload,
			DefaultTotal:   numfmt.Seconds(w.DefaultSeconds),
			BestTotal:      numfmt.Seconds(w.BestSeconds),
			DefaultGC:      numfmt.Seconds(w.DefaultGCSeconds),
			BestGC:         numfmt.Seconds(w.BestGCSeconds),
			DefaultGCShare: numfmt.Percent(htmlRatio(w.DefaultGCSeconds, w.DefaultSeconds)),
			BestGCShare:    numfmt.Percent(htmlRatio(w.BestGCSeconds, w.BestSeconds)),
		}
		if len(d.Workloads) > 1 {
			wv.Speedup = numfmt.Speedup(htmlRatio(w.DefaultSeconds, w.BestSeconds))
		}
		var sumDef, sumBest float64
		for _, t := range w.Breakdown {
			sumDef += t.DefaultSeconds
			sumBest += t.BestSeconds
		}
		for _, t := range w.Breakdown {
			wv.Breakdown = append(wv.Breakdown, htmlBreakdownRow{
				Name:         t.Name,
				Default:      numfmt.Seconds(t.DefaultSeconds),
				DefaultShare: numfmt.Percent(htmlRatio(t.DefaultSeconds, sumDef)),
				Best:         numfmt.Seconds(t.BestSeconds),
				BestShare:    numfmt.Percent(htmlRatio(t.BestSeconds, sumBest)),
			})
		}
		wv.BreakdownDefault, wv.BreakdownBest = numfmt.Seconds(sumDef), numfmt.Seconds(sumBest)
		for _, f := range w.Findings {
			fv := htmlFinding{
				Title:    f.Title,
				Kind:     f.Kind,
				Cost:     numfmt.Seconds(f.CostSeconds),
				BestCost: numfmt.Seconds(f.BestCostSeconds),
				Remedy:   f.Remedy,
				Evidence: f.Evidence,
			}
			if fv.Title == "" {
				fv.Title = f.Kind
			}
			if f.FixedBy != "" && f.Remedy == "" {
				label := f.FixedByLabel
				if label == "" {
					label = htmlParamLabel(f.FixedBy)
				}
				verb := "Reduced"
				if f.Removed() {
					verb = "Removed"
				}
				fv.Fix = fmt.Sprintf("%s by the change of the %s: with it put back to its default, the best configuration pays %s for it again.",
					verb, lowerFirst(label), numfmt.Seconds(f.RevertedCostSeconds))
			}
			wv.Findings = append(wv.Findings, fv)
		}
		v.Workloads = append(v.Workloads, wv)
	}
	for _, c := range d.Changes {
		cv := htmlChange{
			Label:      c.Label,
			Default:    htmlParam(c.Param, c.Bytes, c.DefaultValue),
			Best:       htmlParam(c.Param, c.Bytes, c.BestValue),
			Reverted:   htmlValue(c.RevertedObjective, seconds),
			Infeasible: !c.RevertedFeasible,
		}
		if cv.Label == "" {
			cv.Label = htmlParamLabel(c.Param)
		}
		cv.Label = htmlUpperFirst(cv.Label)
		if c.RevertedFeasible && d.BestObjective > 0 {
			pen := c.RevertedObjective/d.BestObjective - 1
			if math.Abs(pen) < 0.0005 {
				pen = 0 // below the 0.1 % the table resolves
			}
			cv.Penalty = htmlSignedPercent(pen)
		}
		if rec != nil {
			if i := slices.IndexFunc(rec.Kept, func(st recommend.Step) bool { return st.Param == c.Param }); i >= 0 {
				st := rec.Kept[i]
				cv.Reverted, cv.Infeasible = htmlValue(st.Objective, seconds), !st.Feasible
				cv.Penalty = htmlSignedPercent(st.Cost)
			}
		}
		v.Changes = append(v.Changes, cv)
	}
	return v
}

// htmlUnitRe matches the unit at the end of an objective's label ("run time (s)").
var htmlUnitRe = regexp.MustCompile(`\s*\([^()]*\)\s*$`)

// htmlParamLabel is the table cell's label of the tunable named param (param itself if
// unknown).
func htmlParamLabel(param string) string {
	if t, ok := tunable.Named(param); ok {
		return htmlTunableLabel(t)
	}
	return param
}

// htmlTunableLabel is t's label for a table cell, capitalised; the proportion says which
// number it is ("Survivors to keep (proportion p)"), as its values read "keep all (p = 1.25)".
func htmlTunableLabel(t tunable.Tunable) string {
	label := htmlUpperFirst(t.Label)
	if t.Unit == tunable.UnitProportion {
		label += " (proportion p)"
	}
	return label
}

// htmlUpperFirst capitalises a label for a table cell ("full GC ratio" → "Full GC ratio").
func htmlUpperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func htmlWorkloadSection(i int, w Workload, figs []htmlFigure, use func(id, what string) string) htmlWorkload {
	v := htmlWorkload{
		ID:      use(fmt.Sprintf("workload-w%d", i+1), "workload "+w.Name+"'s section"),
		Name:    w.Name,
		Profile: w.Profile,
		Figures: figs,
	}
	s := w.Summary
	if s == nil {
		return v
	}
	v.HasSummary = true
	threshold := numfmt.Sig(100*s.LongLivedThreshold, 3, true) + numfmt.NBSP + "%"
	v.Facts = []htmlFact{
		{"Objects allocated", numfmt.Count64(s.Objects), ""},
		{"Bytes allocated", htmlBytes(s.Bytes), ""},
		{"Peak live bytes", htmlBytes(s.PeakLiveBytes), "without the image"},
		{"Long-lived by count", numfmt.Percent(s.LongLivedObjectShare), numfmt.Count64(s.LongLivedObjects) + " objects living ≥ " + threshold + " of the run"},
		{"Long-lived by bytes", numfmt.Percent(s.LongLivedByteShare), htmlBytes(s.LongLivedBytes)},
		{"Average lifetime", numfmt.Percent(s.AverageLifetime), "of the run"},
	}
	if s.DirectToOld.Bytes > 0 {
		v.Facts = append(v.Facts, htmlFact{"Allocated directly in old space", htmlBytes(s.DirectToOld.Bytes), numfmt.Percent(s.DirectToOld.ByteShare) + " of the bytes"})
	}
	if s.Containers.Count > 0 {
		v.Facts = append(v.Facts, htmlFact{"Containers", numfmt.Count64(uint64(s.Containers.Count)), numfmt.Count64(s.Containers.TotalSlots) + " slots to rescan while remembered"})
	}
	classes := s.Classes
	if len(classes) > htmlMaxClassRows {
		rest := classes[htmlMaxClassRows-1:]
		classes = classes[:htmlMaxClassRows-1]
		var other lifetimes.ClassSummary
		var life, longLived float64
		for _, c := range rest {
			other.Objects += c.Objects
			other.Bytes += c.Bytes
			other.AllocationShare += c.AllocationShare
			other.ByteShare += c.ByteShare
			life += c.AverageLifetime * float64(c.Objects)
			longLived += c.LongLivedShare * float64(c.Objects)
		}
		other.Class = fmt.Sprintf("%s other classes", numfmt.Count64(uint64(len(rest))))
		other.AverageLifetime = htmlRatio(life, float64(other.Objects))
		other.LongLivedShare = htmlRatio(longLived, float64(other.Objects))
		classes = append(slices.Clip(classes), other)
		v.ClassNote = fmt.Sprintf("The %d most allocated of %s classes; the last row sums the others.", htmlMaxClassRows-1, numfmt.Count64(uint64(len(s.Classes))))
	}
	for j, c := range classes {
		v.Classes = append(v.Classes, htmlClassRow{
			Class:      c.Class,
			Objects:    numfmt.Count64(c.Objects),
			Bytes:      htmlBytes(c.Bytes),
			AllocShare: numfmt.Percent(c.AllocationShare),
			ByteShare:  numfmt.Percent(c.ByteShare),
			Lifetime:   numfmt.Percent(c.AverageLifetime),
			LongLived:  numfmt.Percent(c.LongLivedShare),
			Other:      v.ClassNote != "" && j == len(classes)-1,
		})
	}
	return v
}

func htmlSearchSection(r *Report, seconds bool, figs []htmlFigure) htmlSearch {
	v := htmlSearch{Figures: figs, ValueLabel: r.Search.ValueLabel}
	if v.ValueLabel == "" {
		v.ValueLabel = "objective"
	}
	counts := map[string]int{}
	for _, t := range r.Search.Trials {
		counts[t.State]++
	}
	v.States = htmlOrderedStates(counts)
	for i := range v.States {
		v.States[i].State = htmlStateName(v.States[i].State)
	}
	v.Summary = htmlTrialsLine(r.Search.Trials) + "."
	budget := r.Search.MaxFootprintBytes
	pareto := r.Search.Pareto
	if len(pareto) > htmlMaxParetoRows {
		v.ParetoNote = fmt.Sprintf("The first %d of the %d trials on the front, by footprint.", htmlMaxParetoRows, len(pareto))
		pareto = pareto[:htmlMaxParetoRows]
	}
	for _, t := range pareto {
		row := htmlParetoRow{
			Trial:      t.Number,
			Value:      htmlValue(t.Value, seconds),
			Footprint:  "—",
			Speedup:    numfmt.Speedup(htmlRatio(r.Search.DefaultValue, t.Value)),
			Best:       r.Search.Best.State == "complete" && t.Number == r.Search.Best.Number,
			Infeasible: budget > 0 && t.PeakFootprintBytes > budget || !t.Feasible,
		}
		if t.PeakFootprintBytes > 0 {
			row.Footprint = htmlBytes(t.PeakFootprintBytes)
		}
		v.Pareto = append(v.Pareto, row)
	}
	return v
}

func htmlSensitivityRows(sweeps []diagnose.Sweep) []htmlSensitivityRow {
	maxEffect := 0.0
	for _, s := range sweeps {
		if !math.IsNaN(s.Effect) && !math.IsInf(s.Effect, 0) {
			maxEffect = math.Max(maxEffect, s.Effect)
		}
	}
	var rows []htmlSensitivityRow
	for i, s := range sweeps {
		label := s.Label
		if label == "" {
			label = htmlParamLabel(s.Param)
		}
		label = htmlUpperFirst(label)
		row := htmlSensitivityRow{
			Rank:    i + 1,
			Label:   label,
			Effect:  numfmt.Percent(s.Effect),
			Best:    htmlParam(s.Param, s.Bytes, s.BestValue),
			Default: htmlParam(s.Param, s.Bytes, s.DefaultValue),
			Cliff:   "flat",
		}
		bar := 0.0
		if maxEffect > 0 && s.Effect > 0 {
			bar = math.Max(1, 100*s.Effect/maxEffect)
		}
		row.EffectBar = strconv.FormatFloat(math.Round(bar*10)/10, 'f', -1, 64)
		if s.CliffRatio > 1.0005 && !math.IsInf(s.CliffRatio, 0) {
			row.Cliff = fmt.Sprintf("between %s and %s: ×%s", htmlParam(s.Param, s.Bytes, s.CliffFrom), htmlParam(s.Param, s.Bytes, s.CliffTo), numfmt.Sig(s.CliffRatio, 3, true))
		} else if math.IsNaN(s.CliffRatio) {
			row.Cliff = "—"
		}
		rows = append(rows, row)
	}
	return rows
}

func htmlRunSection(i int, c Comparison, figs []htmlFigure, use func(id, what string) string) htmlRun {
	v := htmlRun{
		ID:      use(fmt.Sprintf("run-w%d", i+1), "workload "+c.Workload+"'s run section"),
		Name:    c.Workload,
		Figures: figs,
		HasRuns: true,
	}
	d, b := c.Default.Stats, c.Best.Stats
	cnt := func(label string, x, y int, sub bool) htmlStatRow {
		return htmlStatRow{label, numfmt.Count64(uint64(max(x, 0))), numfmt.Count64(uint64(max(y, 0))), htmlChangeText(float64(x), float64(y)), sub}
	}
	sz := func(label string, x, y uint64) htmlStatRow {
		return htmlStatRow{label, htmlBytes(x), htmlBytes(y), htmlChangeText(float64(x), float64(y)), false}
	}
	sec := func(label string, x, y float64) htmlStatRow {
		return htmlStatRow{label, numfmt.Seconds(x), numfmt.Seconds(y), htmlChangeText(x, y), false}
	}
	v.Stats = []htmlStatRow{
		sec("Total run time", d.TotalSeconds, b.TotalSeconds),
		sec("GC time", d.GCSeconds, b.GCSeconds),
		{"GC share of the run", numfmt.Percent(d.GCShare), numfmt.Percent(b.GCShare), "", true},
		cnt("Scavenges", d.Scavenges, b.Scavenges, false),
		cnt("Full GCs", d.FullGCs, b.FullGCs, false),
		cnt("triggered by the ratio", d.FullGCsRatio, b.FullGCsRatio, true),
		cnt("forced by a large allocation", d.FullGCsLargeAlloc, b.FullGCsLargeAlloc, true),
		cnt("explicit", d.FullGCsExplicit, b.FullGCsExplicit, true),
		sz("Tenured", d.TenuredBytes, b.TenuredBytes),
		sz("Tenured garbage (dead by the next full GC)", d.TenuredGarbageBytes, b.TenuredGarbageBytes),
		sz("Peak footprint", d.PeakFootprintBytes, b.PeakFootprintBytes),
	}
	return v
}
