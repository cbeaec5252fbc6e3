package export

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/tunable"
)

// WriteST writes the Pharo startup script: one comment that says what the configuration is,
// how it was chosen and how to apply it (the --edenSize= launch flag), then one
// Smalltalk vm parameterAt:put: line per parameter set at runtime, each with its comment.
// Every name is escaped (StComment): the script's only code is those lines. When the
// recommendation is to keep the defaults, the script sets nothing and says what the best
// would be.
func WriteST(w io.Writer, c *Config) error {
	ew := errwriter.New(w)
	keep := c.Recommendation != nil && c.Recommendation.KeepDefaults
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	if keep {
		// The verdict first: everything after it is about a configuration not recommended.
		r := c.Recommendation
		add("gctune: GC parameters for %s (study %s): keep the VM defaults.", strings.Join(c.Files, ", "), c.Study)
		add("The fastest configuration found (trial %d) is %s as fast as them, less than %s faster,", r.BestTrial, numfmt.Speedup(c.Predicted.DefaultValue/r.BestValue), numfmt.PercentText(r.KeepDefaultsWithin))
		add("within the model's error. So this script sets nothing. With the fewest changes within %s of it,", numfmt.PercentText(r.Tolerance))
		add("trial %d, it would set:", c.Trial)
		for _, name := range c.Set {
			add("    %s (VM parameter %s): %s", recommend.Label(name), vmParam(name), stSetting(c, name))
		}
		add("")
		add("What follows is about trial %d, were it applied anyway (not recommended).", c.Trial)
	} else {
		add("gctune: GC parameters for %s (study %s, trial %d).", strings.Join(c.Files, ", "), c.Study, c.Trial)
	}
	if f, pr := c.Figures, c.Predicted; f != nil && f.Runs != "" {
		add("Predicted by gctune's simulator, not measured: %s.", f.Headline())
		if iv := f.Intervals(); iv != "" {
			add("In %s.", iv)
		}
		if pr.Evidence != "" {
			add("The export's evidence: %s.", pr.Evidence)
		}
		if l := f.LikeLine(); l != "" {
			add("%s.", capitalized(l))
		}
		add("%s.", capitalized(f.NominalLine()))
		workloadLines(add, c.Predicted, "expected, the mean over those runs")
		add("Measure it on the real application.")
	} else {
		add("Predicted by gctune's simulator, not measured: %s faster than the VM defaults, GC share %s,", numfmt.Speedup(c.Predicted.Speedup), numfmt.PercentText(c.Predicted.GCShare))
		if len(c.Predicted.Workloads) == 0 {
			add("peak footprint %s. Measure it on the real application.", units.FormatBytes(c.Predicted.PeakFootprintBytes))
		} else {
			add("peak footprint %s.", units.FormatBytes(c.Predicted.PeakFootprintBytes))
			workloadLines(add, c.Predicted, "predicted")
			add("Measure it on the real application.")
		}
	}
	if r := c.Recommendation; r != nil {
		add("")
		if r.ChosenTrial != r.BestTrial {
			add("How it was chosen: of the %d trials within %s of the fastest%s (trial %d, peak footprint %s),", r.Within, numfmt.PercentText(r.Tolerance), judgedWords(r), r.BestTrial, units.FormatBytes(r.BestPeakFootprintBytes))
			add("trial %d has the smallest peak footprint.", r.ChosenTrial)
		} else {
			add("How it was chosen: the fastest trial%s, and the smallest peak footprint of the %d within %s of it.", judgedWords(r), r.Within, numfmt.PercentText(r.Tolerance))
		}
		putBack, kept := "Put back to the VM default", "Kept"
		if keep {
			putBack, kept = "It would put back to the VM default", "It would keep"
		}
		for _, st := range r.PutBack {
			def := stValue(st.Param, st.Default, true)
			if st.Param == tunable.ParamProportion {
				def = pharoSurvivorsText(c, st.Default)
			}
			add("%s: %s, %s instead of %s; simulated, that %s (less than %s).",
				putBack, st.Label, def, stValue(st.Param, st.Value, false), recommend.CostText(st.Cost), numfmt.PercentText(r.Tolerance))
		}
		for _, st := range r.Kept {
			add("%s: %s %s; put back alone it %s (%s).", kept, st.Label, stValue(st.Param, st.Value, false), recommend.CostText(st.Cost), st.Why)
		}
		if r.Instead != "" {
			add("Recommended instead: %s.", r.Instead)
		}
		for _, m := range r.Moves {
			add("%s: %s %s instead of %s (%s).", upperFirst(m.Verb()), m.Label, stValue(m.Param, m.To, false), stValue(m.Param, m.From, false), m.Why)
		}
		for _, m := range r.Margins {
			add("Margin: %s may be %s before the run time rises by %s.", m.Label, recommend.MarginText(m), numfmt.PercentText(r.Tolerance))
		}
	}
	if keep {
		r := c.Recommendation
		add("")
		add("To apply one anyway, export it by number: gctune export %s --trial %d (or %d).", ShellQuote(c.Study), c.Trial, r.BestTrial)
		writeComment(ew, lines)
		return ew.Err()
	}
	var defaults []string
	for _, name := range tunable.Names() {
		if !c.sets(name) {
			defaults = append(defaults, recommend.Label(name))
		}
	}
	if len(defaults) > 0 {
		add("")
		add("Left at the VM default (not set here): %s.", strings.Join(defaults, ", "))
	}
	add("")
	launched := false
	for _, t := range tunable.All() {
		if t.AtLaunch && c.sets(t.Name) {
			launched = true
			launchText(add, c, t)
		}
	}
	if runtimeSet(c) {
		launch := "pharo --headless My.image st this-script.st"
		if launched {
			launch = "the command above"
		}
		add("The lines below apply as soon as they run (%s) and", strings.Join(later(), ", "))
		add("are not saved in the image, so run them at every start, after the session has started: as a")
		add("script on the command line (%s) or from a startup action.", launch)
		if t, _ := tunable.Named(tunable.ParamProportion); c.sets(t.Name) {
			add("Pharo also resets parameter %d at every session start and after every snapshot", t.VMParam)
			add("(VirtualMachine>>setGCParameters): after saving the image in a running session, run the")
			add("parameter %d line again.", t.VMParam)
		}
	}
	writeComment(ew, lines)
	ew.Printf("\n")
	for _, t := range tunable.All() {
		if t.AtLaunch || !c.sets(t.Name) {
			continue
		}
		ew.Printf("Smalltalk vm parameterAt: %d put: %s. \"%s\"\n", t.VMParam, SmalltalkLiteral(t.VMValue(c.VM)), StComment(paramComment(c, t)))
	}
	return ew.Err()
}

// workloadLines says, for a study of several workloads (a sampled export's hypotheses), each
// one's seconds against its defaults and which one the recommendation guards against.
func workloadLines(add func(format string, args ...any), pr Prediction, how string) {
	if len(pr.Workloads) == 0 {
		return
	}
	add("On each workload (%s):", how)
	for _, f := range pr.Workloads {
		guard := ""
		if f.Worst {
			guard = fmt.Sprintf("; the configuration guards against this one: its slowdown, %s, is the larger", numfmt.Ratio(f.Slowdown))
			if pr.Replicas > 0 {
				guard = fmt.Sprintf("; the configuration guards against this one: its slowdown, %s on average over the runs (each against its own defaults), is the larger", numfmt.Ratio(f.Slowdown))
			}
		}
		add("    %s: %s against %s with the defaults, %s faster%s.", f.Name, numfmt.SecondsText(f.Seconds), numfmt.SecondsText(f.DefaultSeconds), numfmt.Speedup(f.Speedup), guard)
	}
}

// launchText says how to apply tunable t, set at launch: the launch flag, or the VM parameter
// saved in the image header. Its value is a size.
func launchText(add func(format string, args ...any), c *Config, t tunable.Tunable) {
	n := uint64(t.FromParams(c.VM))
	add("%s, VM parameter %d, in bytes: %s. The VM sizes new space only when it", upperFirst(t.Label), t.VMParam, units.FormatBytes(n))
	add("starts, so this one is not in the lines below. Launch the image with the flag")
	add("    pharo --headless %s My.image st this-script.st", launchFlag(t, c.VM))
	add("(it holds for that launch only), or keep it in the image: evaluate")
	add("    Smalltalk vm parameterAt: %d put: %s", t.VMParam, SmalltalkLiteral(t.VMValue(c.VM)))
	add("and save the image; the value is written in the image header and used from the next launch.")
	add("")
}

// later says which runtime tunables take effect later than at once, and when ("the shrink
// threshold from the next full GC"), from the table's TakesEffect.
func later() []string {
	var out []string
	for _, t := range tunable.All() {
		if !t.AtLaunch && !strings.HasPrefix(t.TakesEffect, "at once") {
			out = append(out, "the "+t.Label+" from "+strings.TrimPrefix(t.TakesEffect, "at "))
		}
	}
	return out
}

// upperFirst returns s with its first letter in upper case.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// runtimeSet reports whether the script sets any parameter at runtime (all but the launch flag).
func runtimeSet(c *Config) bool {
	for _, t := range tunable.All() {
		if !t.AtLaunch && c.sets(t.Name) {
			return true
		}
	}
	return false
}

// paramComment is the comment of tunable t's line in the script: its own in the VM's terms
// (ownComment), or one written from the tunables table (label, VM parameter, value, when it
// takes effect, what persists).
func paramComment(c *Config, t tunable.Tunable) string {
	if text, ok := ownComment(c, t); ok {
		return text
	}
	return fmt.Sprintf("%s, VM parameter %d: %s. Takes effect %s; %s.", t.Label, t.VMParam, SmalltalkLiteral(t.VMValue(c.VM)), t.TakesEffect, t.Persists)
}

// writeComment writes lines as one Smalltalk comment, every line escaped.
func writeComment(ew *errwriter.Writer, lines []string) {
	for i, l := range lines {
		open := " "
		if i == 0 {
			open = "\""
		}
		end := "\n"
		if i == len(lines)-1 {
			end = "\"\n"
		}
		if l == "" && i != 0 && i != len(lines)-1 {
			ew.Printf("\n")
			continue
		}
		ew.Printf("%s%s%s", open, StComment(l), end)
	}
}

// ownComment is the comment of the VM parameters gctune explains in the VM's own terms (what
// the VM does with the value), each opening with the table's label and parameter number.
func ownComment(c *Config, t tunable.Tunable) (string, bool) {
	head := fmt.Sprintf("%s, VM parameter %d", t.Label, t.VMParam)
	v := c.VM
	switch t.Name {
	case tunable.ParamHeadroom:
		return fmt.Sprintf("%s, in bytes: %s. After a scavenge the VM adds old space while less than this is free, one segment of at least this size (page-rounded; a larger allocation gets the next power of two). At once; not saved in the image.",
			head, units.FormatBytes(v.GrowthHeadroomBytes)), true
	case tunable.ParamShrink:
		return fmt.Sprintf("%s, in bytes: %s. At the end of a full GC the VM returns wholly empty segments to the OS, only when free old space exceeds both this and the growth headroom (%s), and keeps about the headroom free. From the next full GC; not saved in the image.",
			head, units.FormatBytes(v.ShrinkThresholdBytes), units.FormatBytes(v.GrowthHeadroomBytes)), true
	case tunable.ParamRatio:
		return fmt.Sprintf("%s, a Float: after a scavenge, the VM runs a full GC once old space in use has grown by %s since the last full GC. At once; not saved in the image.",
			head, trimPercent(v.FullGCRatio)), true
	case tunable.ParamProportion:
		p := t.Get(c.Point)
		what := fmt.Sprintf("p = %.3g: once a scavenge leaves the survivor space over 90 %% full, the next tenures the past survivors in its lowest %.0f %% (about the oldest)",
			p, 100*(1-math.Min(p, 1)))
		if p >= 1 {
			what = fmt.Sprintf("p = %.3g: keep all survivors; only what overflows the survivor space is tenured", p)
		}
		return fmt.Sprintf("%s, in 64-byte units of the %s survivor space, %s. At once (the next scavenge already tenures by it); Pharo resets it at every session start and after every snapshot.",
			head, units.FormatBytes(heapsim.ComputeLayout(v).SurvivorBytes), what), true
	}
	return "", false
}

// trimPercent writes a ratio as a percentage with up to 4 significant digits ("1,340 %").
func trimPercent(r float64) string {
	v := 100 * r
	s := fmt.Sprintf("%.4g", v)
	if !strings.ContainsAny(s, "e") && v >= 1000 {
		return units.FormatCount(uint64(math.Round(v))) + " %"
	}
	return s + " %"
}

// stValue writes a dimension's value for a comment; def says it is the VM default.
func stValue(param string, v float64, def bool) string {
	t, _ := tunable.Named(param)
	switch t.Unit {
	case tunable.UnitBytes:
		return units.FormatBytes(uint64(v))
	case tunable.UnitProportion:
		if def {
			return fmt.Sprintf("Pharo's own (p = %.3g)", v)
		}
		return fmt.Sprintf("p = %.3g", v)
	}
	if def {
		return strconv.FormatFloat(t.FromParams(heapsim.DefaultParams()), 'g', -1, 64)
	}
	return fmt.Sprintf("%.4g", v)
}

// stSetting says how a dimension would be set.
func stSetting(c *Config, param string) string {
	t, _ := tunable.Named(param)
	v := t.VMValue(c.VM)
	detail := ""
	switch t.Unit {
	case tunable.UnitBytes:
		detail = " (" + units.FormatBytes(uint64(t.FromParams(c.VM))) + ")"
	case tunable.UnitProportion:
		detail = fmt.Sprintf(" (p = %.3g)", t.Get(c.Point))
	}
	if t.AtLaunch {
		return launchFlag(t, c.VM) + detail
	}
	return fmt.Sprintf("parameterAt: %d put: %s%s", t.VMParam, SmalltalkLiteral(v), detail)
}

// LaunchFlag is the VM's launch flag for the new-space size ("--edenSize=741m"), or "" when
// the configuration leaves it at the default.
func LaunchFlag(c *Config) string {
	if c.Recommendation != nil && c.Recommendation.KeepDefaults {
		return ""
	}
	for _, t := range tunable.All() {
		if t.AtLaunch && c.sets(t.Name) {
			return launchFlag(t, c.VM)
		}
	}
	return ""
}

// LaunchFlagOf is the VM's launch flag that gives p's new-space size ("--edenSize=16m"),
// whatever an export sets.
func LaunchFlagOf(p heapsim.Params) string {
	for _, t := range tunable.All() {
		if t.AtLaunch {
			return launchFlag(t, p)
		}
	}
	return ""
}

// launchFlag is the launch flag that sets tunable t, the one set at launch (Tunable.AtLaunch),
// to its value in p: t.LaunchFlag (the VM's --edenSize=) and the size as that flag takes it.
func launchFlag(t tunable.Tunable, p heapsim.Params) string {
	return t.LaunchFlag + EdenFlag(uint64(t.FromParams(p)))
}

// Statements are the script's Smalltalk statements without their comments, in order; none
// when the recommendation is to keep the defaults. The new-space size is not among them: it is
// the launch flag (LaunchFlag).
func Statements(c *Config) []string {
	if c.Recommendation != nil && c.Recommendation.KeepDefaults {
		return nil
	}
	var out []string
	for _, t := range tunable.All() {
		if t.AtLaunch || !c.sets(t.Name) {
			continue
		}
		out = append(out, fmt.Sprintf("Smalltalk vm parameterAt: %d put: %s.", t.VMParam, SmalltalkLiteral(t.VMValue(c.VM))))
	}
	return out
}

// SmalltalkLiteral writes a VM parameter's value as a Smalltalk literal.
func SmalltalkLiteral(v any) string {
	if f, ok := v.(float64); ok {
		return SmalltalkFloat(f)
	}
	return fmt.Sprint(v)
}

// Timing says, for a dimension (tunable.Param...), its VM parameter number, when a new value
// takes effect and what persists of it.
func Timing(param string) (vm, takesEffect, persists string) {
	t, ok := tunable.Named(param)
	if !ok {
		return "", "", ""
	}
	return strconv.Itoa(t.VMParam), t.TakesEffect, t.Persists
}

// capitalized is s with its first letter upper case, to open a sentence.
func capitalized(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// pharoSurvivorsText says what Pharo's own survivors formula keeps: its p depends on the new
// space size (N = round(0.9 × eden / 5 / 64), heapsim.Params.SurvivorsToKeep), so it is
// stated at the VM's default new space (defP, the recommendation's figure) and, when that
// differs, at this configuration's (the JSON's survivorsProportion).
func pharoSurvivorsText(c *Config, defP float64) string {
	s := fmt.Sprintf("Pharo's own (p = %.3g at the default %s new space", defP, units.FormatBytes(heapsim.DefaultParams().NewSpaceBytes))
	if c.VM.NewSpaceBytes != heapsim.DefaultParams().NewSpaceBytes {
		s += fmt.Sprintf("; at this configuration's %s, p = %.3g", units.FormatBytes(c.VM.NewSpaceBytes), c.VM.TenuringProportion())
	}
	return s + ")"
}

// judgedWords says what the fastest trial was judged on: " judged on 6 perturbed runs" (the
// decision runs, where the fastest need not be the search's), "" without them.
func judgedWords(r *Recommendation) string {
	if r.DecisionRuns == 0 {
		return ""
	}
	return fmt.Sprintf(" judged on %d perturbed runs", r.DecisionRuns)
}
