package report

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/tunable"
)

// Apply is how to apply the reported configuration in Pharo: the report's first section.
type Apply struct {
	// KeepDefaults is true when the recommendation is to keep the VM defaults (then
	// LaunchFlag and Statements are empty, and Script says what the best would be).
	KeepDefaults bool `json:"keepDefaults"`
	// LaunchFlag is the VM launch flag for the new-space size ("--edenSize=741m"), "" when it
	// stays at the default; Command a whole launch line with it and the script.
	LaunchFlag string `json:"launchFlag"`
	Command    string `json:"command"`
	// Statements are the script's parameterAt:put: statements, without comments.
	Statements []string `json:"statements"`
	// Script is the whole startup script, as gctune export --format st writes it;
	// ExportCommand the command that writes it, with the study's name shell-quoted
	// ("gctune export dataframe-3.1gb --format st", and --trial N for a trial as it is).
	Script        string `json:"script"`
	ExportCommand string `json:"exportCommand"`
	// Rows say, for each parameter set, when it takes effect and what persists.
	Rows []ApplyRow `json:"rows"`
}

// ApplyRow is one parameter the configuration sets.
type ApplyRow struct {
	Label       string `json:"label"`
	VMParam     string `json:"vmParam"`
	Value       string `json:"value"`
	TakesEffect string `json:"takesEffect"`
	Persists    string `json:"persists"`
}

// recommendation runs the recommendation for Build (in.Trial < 0).
func recommendation(ctx context.Context, in Input) (*recommend.Recommendation, error) {
	if in.Recommendation != nil {
		return in.Recommendation, nil
	}
	rec, err := recommend.Recommend(ctx, in.Problem, in.Trials, recommend.Settings{Tolerance: in.Tolerance})
	if errors.Is(err, recommend.ErrNoCandidate) {
		return nil, ErrNoBestTrial
	}
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return rec, nil
}

// applyData builds the Apply section from the recommendation, or from trial in.Trial as it
// is when rec is nil.
func applyData(in Input, rec *recommend.Recommendation) (*Apply, error) {
	meta := in.Export
	if meta.Study == "" {
		meta.Study = in.Study
	}
	if len(meta.Workloads) == 0 {
		for _, w := range in.Problem.Workloads() {
			meta.Workloads = append(meta.Workloads, w.Name)
		}
	}
	meta.VM, meta.DefaultValue = in.Problem.Base(), in.Problem.DefaultValue()
	var c *export.Config
	if rec != nil {
		c = export.FromRecommendation(meta, rec)
	} else {
		var t *goptuna.FrozenTrial
		for i := range in.Trials {
			if in.Trials[i].Number == in.Trial {
				t = &in.Trials[i]
			}
		}
		if t == nil {
			return nil, fmt.Errorf("report: no trial %d", in.Trial)
		}
		var err error
		if c, err = export.FromTrial(meta, *t); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
	}
	var script bytes.Buffer
	if err := export.WriteST(&script, c); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	a := &Apply{KeepDefaults: c.Recommendation != nil && c.Recommendation.KeepDefaults, LaunchFlag: export.LaunchFlag(c),
		Statements: export.Statements(c), Script: script.String(), ExportCommand: exportCommand(meta.Study, rec, in.Trial)}
	if !a.KeepDefaults {
		a.Command = "pharo --headless "
		if a.LaunchFlag != "" {
			a.Command += a.LaunchFlag + " "
		}
		a.Command += "My.image"
		if len(a.Statements) > 0 {
			a.Command += " st gctune-gc.st"
		}
		for _, name := range c.Set {
			vm, when, persists := export.Timing(name)
			pi, _ := tunable.Named(name) // c.Set holds the table's names only
			val := pi.Format(pointValue(c, name))
			a.Rows = append(a.Rows, ApplyRow{Label: pi.Label, VMParam: vm, Value: val,
				TakesEffect: when, Persists: persists})
		}
	}
	return a, nil
}

// exportCommand is the gctune export command that writes the script: the study's name, quoted
// for a POSIX shell when it needs it, and --trial N when the report is on a trial as it is.
func exportCommand(study string, rec *recommend.Recommendation, trial int) string {
	cmd := "gctune export " + export.ShellQuote(study) + " --format st"
	if rec == nil {
		cmd += fmt.Sprintf(" --trial %d", trial)
	}
	return cmd
}

// pointValue is a dimension's value in an export, in the search's units.
func pointValue(c *export.Config, name string) float64 {
	t, _ := tunable.Named(name)
	return t.Get(c.Point)
}
