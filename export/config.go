package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

// Format is an export format.
type Format string

// The formats.
const (
	ST    Format = "st"
	JSON  Format = "json"
	YAML  Format = "yaml"
	Flags Format = "flags"
)

// ParseFormat checks a format name.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case ST, JSON, YAML, Flags:
		return f, nil
	}
	return "", fmt.Errorf("export: format %q: want st, json, yaml or flags", s)
}

// Config is what an export writes; the json format is this struct.
type Config struct {
	Study     string   `json:"study"`
	Trial     int      `json:"trial"`
	Workloads []string `json:"workloads"`
	// Files are the profiles the workloads were read from, each once (a sampled export searched
	// under two hypotheses is two workloads of one file).
	Files []string `json:"files"`
	// Parameters is the whole configuration as simulated, the parameters left at the VM
	// default included (at their default values).
	Parameters Parameters `json:"parameters"`
	// Set names the dimensions (tunable.Param...) the export sets, in tunable.Names order;
	// the others stay at the VM default. VMParameters maps the VM parameter numbers of those to
	// their values.
	Set          []string       `json:"set"`
	VMParameters map[string]any `json:"vmParameters"`
	Predicted    Prediction     `json:"predicted"`
	// Recommendation says how the configuration was chosen; nil for an explicit trial.
	Recommendation *Recommendation `json:"recommendation,omitempty"`
	// Figures are the recommendation's figures as every output writes them (nil for a trial
	// exported as it is): the text formats state these strings, the JSON the numbers.
	Figures    *recommend.Figures `json:"-"`
	Provenance Provenance         `json:"provenance"`
	// VM carries the study's VM facts (stack pages, page size, image size...), for the YAML
	// format and the survivor-space size.
	VM heapsim.Params `json:"-"`
	// Point is the configuration as a search point (tunable.All reads it generically).
	Point tunable.Point `json:"-"`
}

// Parameters are the tunables in the VM's units, one entry per tunable in tunable.All
// order (a proportion followed by the count the VM takes for it): the json format's
// "parameters" object, written in that order.
type Parameters []Parameter

// Parameter is one entry of Parameters.
type Parameter struct {
	// Key is the entry's json name (tunable.Tunable.JSONKey): "edenBytes", "fullGCRatio"...
	Key string
	// Value is a size in bytes as a uint64, a count of the VM's units as a uint64, anything
	// else as a float64 (as json reads it back: a float64).
	Value any
}

// parameters are p's tunables as the json format writes them, a proportion as it is in pt
// (the one given, or the VM's own when p sets a count or Pharo's formula).
func parameters(p heapsim.Params, pt tunable.Point) Parameters {
	var out Parameters
	for _, t := range tunable.All() {
		switch t.Unit {
		case tunable.UnitProportion:
			// The VM takes a proportion as a count of its own units (survivors to keep).
			out = append(out, Parameter{Key: t.JSONKey, Value: t.Get(pt)}, Parameter{Key: jsonCountKey(t), Value: t.VMValue(p)})
		default:
			out = append(out, Parameter{Key: t.JSONKey, Value: t.VMValue(p)})
		}
	}
	return out
}

// jsonCountKey is the json name of the count the VM takes for proportion t: its Label in
// camelCase ("survivorsToKeep").
func jsonCountKey(t tunable.Tunable) string { return camelCase(strings.Fields(t.Label)) }

// camelCase joins words, every one but the first capitalised: "survivorsToKeep".
func camelCase(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 && w != "" {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	return b.String()
}

// MarshalJSON writes the parameters as one json object, its keys in order.
func (ps Parameters) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		key, err := json.Marshal(p.Key)
		if err != nil {
			return nil, err
		}
		value, err := json.Marshal(p.Value)
		if err != nil {
			return nil, fmt.Errorf("export: parameter %s: %w", p.Key, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(key)
		b.WriteByte(':')
		b.Write(value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the parameters back from a json object, in its order.
func (ps *Parameters) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("export: parameters: %w", err)
	}
	if tok != json.Delim('{') {
		return errors.New("export: parameters: want an object")
	}
	*ps = nil
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("export: parameters: %w", err)
		}
		p := Parameter{Key: tok.(string)} // an object's keys are strings
		if err := dec.Decode(&p.Value); err != nil {
			return fmt.Errorf("export: parameter %s: %w", p.Key, err)
		}
		*ps = append(*ps, p)
	}
	return nil
}

// Prediction is what the simulator predicts for the configuration.
type Prediction struct {
	Speedup            float64 `json:"speedup"`
	Value              float64 `json:"value"`
	DefaultValue       float64 `json:"defaultValue"`
	TotalSeconds       float64 `json:"totalSeconds"`
	GCShare            float64 `json:"gcShare"`
	PeakFootprintBytes uint64  `json:"peakFootprintBytes"`
	Feasible           bool    `json:"feasible"`
	// Replicas is how many perturbed runs of the workload the prediction is stated over (0: the
	// single simulation of the profile, and the fields below are unset). Value and Speedup are
	// then the expected ones; Interval holds a further run's value and DefaultInterval the
	// defaults' (ValueUnit: "s" for seconds, "×" for a slowdown), SpeedupInterval a further
	// run's speedup against the defaults on the same run; NominalSpeedup is the single
	// simulation of the profile exactly as recorded.
	Replicas        int                   `json:"replicas,omitempty"`
	ValueUnit       string                `json:"valueUnit,omitempty"`
	Interval        *uncertainty.Interval `json:"interval,omitempty"`
	DefaultInterval *uncertainty.Interval `json:"defaultInterval,omitempty"`
	SpeedupInterval *uncertainty.Interval `json:"speedupInterval,omitempty"`
	NominalSpeedup  float64               `json:"nominalSpeedup,omitempty"`
	// Runs names what the Replicas runs are, in words: "runs of this input again" (the
	// headline's scenario), or "perturbed runs" for a recommendation made before the two
	// scenarios.
	Runs string `json:"runs,omitempty"`
	// Like is the forecast for inputs like this one, stated beside the headline
	// (recommend.Forecast; absent when the headline is it).
	Like *LikePrediction `json:"like,omitempty"`
	// Evidence says which readings of a sampled export the forecast stands on, and why
	// (recommend.Evidence.Words; absent for other workloads).
	Evidence string `json:"evidence,omitempty"`
	// Workloads are the seconds against the defaults on each workload of several (a sampled
	// export's hypotheses), and which one the recommendation guards against
	// (recommend.WorkloadFigures); absent for one workload.
	Workloads []recommend.WorkloadFigures `json:"workloads,omitempty"`
}

// LikePrediction is the forecast for inputs like the profiled one: over Replicas runs, what
// they assume beyond a run of the same input again, the expected speedup and its interval.
type LikePrediction struct {
	Replicas        int                  `json:"replicas"`
	Assumes         string               `json:"assumes"`
	Speedup         float64              `json:"speedup"`
	SpeedupInterval uncertainty.Interval `json:"speedupInterval"`
}

// Recommendation is how gctune chose the configuration (recommend.Recommend).
type Recommendation struct {
	Tolerance float64 `json:"tolerance"`
	// KeepDefaults is true when the configuration is less than KeepDefaultsWithin faster than
	// the defaults: the st format then sets nothing and says what the best would be.
	KeepDefaults       bool    `json:"keepDefaults"`
	KeepDefaultsWithin float64 `json:"keepDefaultsWithin"`
	// BestTrial is the fastest trial (judged on DecisionRuns perturbed runs when there are
	// some, else as the search stored it); ChosenTrial the one with the smallest footprint
	// among the Within trials within the tolerance of it.
	DecisionRuns           int     `json:"decisionRuns,omitempty"`
	BestTrial              int     `json:"bestTrial"`
	BestValue              float64 `json:"bestValue"`
	BestPeakFootprintBytes uint64  `json:"bestPeakFootprintBytes"`
	ChosenTrial            int     `json:"chosenTrial"`
	Within                 int     `json:"within"`
	// PutBack are the chosen trial's changes put back to the VM default, each with its cost;
	// Kept the changes kept, each with what putting it back alone would cost.
	PutBack []recommend.Step `json:"putBack"`
	Kept    []recommend.Step `json:"kept"`
	// Margins say how far each kept parameter may move before the expected run time rises by
	// the tolerance, and Moves the kept parameters moved off a cliff or to a faster neighbour
	// (robust recommendations only).
	Margins []recommend.Margin `json:"margins,omitempty"`
	Moves   []recommend.Move   `json:"moves,omitempty"`
	// Instead says why the configuration is not the selected trial with its put-backs
	// (recommend.Robustness.Instead).
	Instead string `json:"instead,omitempty"`
}

// Provenance says where the configuration came from.
type Provenance struct {
	Storage       string            `json:"storage"`
	Created       string            `json:"created,omitempty"`
	StudyVersion  string            `json:"studyGctuneVersion"`
	ExportVersion string            `json:"exportGctuneVersion"`
	Seed          uint64            `json:"seed"`
	Sampler       string            `json:"sampler"`
	Fingerprints  map[string]string `json:"fingerprints"`
	Note          string            `json:"note"`
}

// Meta is what every export carries besides the configuration: the study, its workloads, the
// VM facts and defaults, the objective at the defaults and the provenance.
type Meta struct {
	Study     string
	Workloads []string
	// Files are the profiles the workloads were read from, each once; empty: the workloads.
	Files        []string
	VM           heapsim.Params
	DefaultValue float64
	Provenance   Provenance
}

// Seconds says whether the study's values are seconds (one workload) rather than slowdowns
// over the defaults (several), as study.Problem.Seconds says of the study.
func (m Meta) Seconds() bool { return len(m.Workloads) == 1 }

// vmParam is a dimension's VM parameter number, as the JSON's vmParameters keys write it.
func vmParam(name string) string {
	t, _ := tunable.Named(name)
	return strconv.Itoa(t.VMParam)
}

// FromRecommendation is the export of a recommendation: the parameters it changes are set,
// the others left at the VM default.
func FromRecommendation(m Meta, r *recommend.Recommendation) *Config {
	var set []string
	for _, name := range tunable.Names() {
		if r.Changed(name) {
			set = append(set, name)
		}
	}
	c := newConfig(m, r.Trial, r.Params(m.VM), set)
	f := r.Figures(m.Seconds())
	c.Figures = &f
	c.Predicted = Prediction{Speedup: r.Speedup, Value: r.Value, DefaultValue: r.DefaultValue, TotalSeconds: r.TotalSeconds,
		GCShare: r.GCShare, PeakFootprintBytes: r.PeakFootprintBytes, Feasible: true, Workloads: r.Workloads}
	c.Recommendation = &Recommendation{Tolerance: r.Tolerance, KeepDefaults: r.KeepDefaults, KeepDefaultsWithin: recommend.KeepDefaultsWithin,
		BestTrial: r.Best.Number, BestValue: r.Best.Value, BestPeakFootprintBytes: r.Best.PeakFootprintBytes,
		ChosenTrial: r.Chosen.Number, Within: r.Within, PutBack: r.PutBack, Kept: r.Kept}
	if rb := r.Robust; rb != nil {
		// The prediction as every JSON output projects it (recommend.Prediction), under the
		// export file's own field names.
		p := r.Prediction(m.Seconds())
		c.Predicted.Replicas, c.Predicted.NominalSpeedup, c.Predicted.ValueUnit = p.Replicas, p.NominalSpeedup, p.ValueUnit
		c.Predicted.Interval, c.Predicted.DefaultInterval, c.Predicted.SpeedupInterval = p.ValueInterval, p.DefaultInterval, p.SpeedupInterval
		c.Predicted.Runs = "perturbed runs"
		if rb.Scenario != "" {
			c.Predicted.Runs = rb.Scenario.Words()
		}
		if l := rb.Like; l != nil {
			c.Predicted.Like = &LikePrediction{Replicas: l.Replicas, Assumes: l.Assumes, Speedup: l.Speedup, SpeedupInterval: l.SpeedupInterval}
		}
		if rb.Evidence != nil {
			c.Predicted.Evidence = rb.Evidence.Words
		}
		c.Recommendation.Margins, c.Recommendation.Moves, c.Recommendation.Instead = rb.Margins, rb.Moves, rb.Instead
		c.Recommendation.DecisionRuns = rb.DecisionReplicas
	}
	if c.Recommendation.PutBack == nil {
		c.Recommendation.PutBack = []recommend.Step{}
	}
	if c.Recommendation.Kept == nil {
		c.Recommendation.Kept = []recommend.Step{}
	}
	return c
}

// FromTrial is the export of one trial as the search stored it: all five parameters set, the
// prediction from the trial's recorded metrics.
func FromTrial(m Meta, t goptuna.FrozenTrial) (*Config, error) {
	raw, err := tunable.PointFromParams(t.Params)
	if err != nil {
		return nil, fmt.Errorf("export: trial %d: %w", t.Number, err)
	}
	p := raw.Rounded()
	c := newConfig(m, t.Number, p.Params(m.VM), tunable.Names())
	tm := trialattr.TrialMetrics(t)
	c.Predicted = Prediction{Speedup: m.DefaultValue / t.Value, Value: t.Value, DefaultValue: m.DefaultValue,
		TotalSeconds: zeroNaN(tm.TotalSeconds), GCShare: zeroNaN(tm.GCShare),
		PeakFootprintBytes: tm.PeakFootprintBytes, Feasible: tm.Feasible}
	return c, nil
}

// newConfig is the export of simulator parameters p setting the dimensions set. Its point is
// p's (tunable.DefaultPoint): survivors to keep as the proportion p gives, or the VM's own
// proportion when p has a count or Pharo's formula.
func newConfig(m Meta, trial int, p heapsim.Params, set []string) *Config {
	c := &Config{Study: m.Study, Trial: trial, Workloads: slices.Clone(m.Workloads), Provenance: m.Provenance, VM: p,
		Set: slices.Clone(set)}
	if c.Workloads == nil {
		c.Workloads = []string{}
	}
	c.Files = slices.Clone(m.Files)
	if len(c.Files) == 0 {
		c.Files = slices.Compact(slices.Clone(c.Workloads))
	}
	if c.Set == nil {
		c.Set = []string{}
	}
	c.Point = tunable.DefaultPoint(p)
	c.Parameters = parameters(p, c.Point)
	c.VMParameters = map[string]any{}
	for _, name := range set {
		if t, ok := tunable.Named(name); ok {
			c.VMParameters[vmParam(name)] = t.VMValue(p)
		}
	}
	return c
}

// sets reports whether the export sets the dimension.
func (c *Config) sets(param string) bool { return slices.Contains(c.Set, param) }

// zeroNaN is v, 0 when v is NaN (a metric the trial did not store; JSON has no NaN).
func zeroNaN(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}
