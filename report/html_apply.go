package report

import (
	"fmt"
	"strings"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/tunable"
)

// htmlApply is the page's first section: how to apply the reported configuration.
type htmlApply struct {
	KeepDefaults bool
	// Verdict says in one sentence what the report recommends.
	Verdict    string
	Command    string
	Statements string
	Script     string
	// ExportCommand writes the script (Apply.ExportCommand).
	ExportCommand string
	Rows          []ApplyRow
	// Chosen says how the configuration was chosen: the selection, what was put back and
	// why, what each kept change is worth.
	Chosen []string
}

// htmlApplySection formats the Apply section.
func htmlApplySection(r *Report, seconds bool) *htmlApply {
	a := r.Apply
	if a == nil {
		return nil
	}
	v := &htmlApply{KeepDefaults: a.KeepDefaults, Command: a.Command, Statements: strings.Join(a.Statements, "\n"),
		Script: a.Script, ExportCommand: a.ExportCommand, Rows: a.Rows}
	rec := r.Recommendation
	switch {
	case rec == nil:
		v.Verdict = fmt.Sprintf("This report is on trial %d as the search stored it, all five parameters set.", r.Search.Best.Number)
	case rec.KeepDefaults:
		v.Verdict = fmt.Sprintf("Keep the VM defaults. The fastest configuration found, trial %d, is %s as fast as the defaults (%s against %s): less than %s faster, within the model's error. The rest of this report shows what it would change, with the fewest changes (trial %d).",
			rec.Best.Number, numfmt.Speedup(rec.DefaultValue/rec.Best.Value), htmlValue(rec.Best.Value, seconds), htmlValue(rec.DefaultValue, seconds),
			numfmt.PercentText(recommend.KeepDefaultsWithin), rec.Trial)
	default:
		v.Verdict = fmt.Sprintf("Apply trial %d's configuration: %s faster than the VM defaults (%s instead of %s), with a peak footprint of %s, predicted by simulation.",
			rec.Trial, numfmt.Speedup(rec.Speedup), htmlValue(rec.Value, seconds), htmlValue(rec.DefaultValue, seconds), htmlBytes(rec.PeakFootprintBytes))
	}
	if rec == nil {
		return v
	}
	// With replicas the trials were judged again on the decision runs: the fastest there need
	// not be the search's.
	judged := ""
	if rb := rec.Robust; rb != nil {
		judged = fmt.Sprintf(" judged on %d perturbed runs", rb.DecisionReplicas)
	}
	if rec.Chosen.Number != rec.Best.Number {
		v.Chosen = append(v.Chosen, fmt.Sprintf("Of the %d trials within %s of the fastest%s (trial %d: %s, peak footprint %s), trial %d has the smallest peak footprint.",
			rec.Within, numfmt.PercentText(rec.Tolerance), judged, rec.Best.Number, htmlValue(rec.Best.Value, seconds), htmlBytes(rec.Best.PeakFootprintBytes), rec.Chosen.Number))
	} else {
		v.Chosen = append(v.Chosen, fmt.Sprintf("Trial %d is the fastest%s, and has the smallest peak footprint of the %d trials within %s of it.",
			rec.Trial, judged, rec.Within, numfmt.PercentText(rec.Tolerance)))
	}
	for _, st := range rec.PutBack {
		v.Chosen = append(v.Chosen, fmt.Sprintf("Put back to the VM default: the %s (%s instead of %s). Simulated, that %s, less than the tolerance of %s, so the script does not set it.",
			st.Label, tunable.FormatNamed(st.Param, st.Default), tunable.FormatNamed(st.Param, st.Value), recommend.CostText(st.Cost), numfmt.PercentText(rec.Tolerance)))
	}
	for _, st := range rec.Kept {
		cost := recommend.CostText(st.Cost)
		if !st.Feasible {
			cost = "costs feasibility"
		}
		v.Chosen = append(v.Chosen, fmt.Sprintf("Kept: the %s, %s. Put back alone, it %s (%s).",
			st.Label, tunable.FormatNamed(st.Param, st.Value), cost, st.Why))
	}
	return v
}
