package study

import (
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
)

// Input is what a command's --json document says of the profile it opened: its kind, the
// reference and file, the bundled workload or spec with the seed and resolution it was
// generated with, what the FiLiP reader reported, and the rebuild of a sampled export.
type Input struct {
	Kind       string     `json:"kind"`
	Ref        string     `json:"ref"`
	Path       string     `json:"path,omitempty"`
	Workload   string     `json:"workload,omitempty"`
	Seed       *uint64    `json:"seed,omitempty"`
	Resolution *float64   `json:"resolution,omitempty"`
	FiLiP      *FiLiPRead `json:"filip,omitempty"`
	// Rebuild is the rebuild of a sampled FiLiP export, when one was done.
	Rebuild *filip.RebuildReport `json:"rebuild,omitempty"`
}

// FiLiPRead is what filip.Read reported of an export.
type FiLiPRead struct {
	Layout       string   `json:"layout"`
	Clock        string   `json:"clock"`
	ClockReason  string   `json:"clockReason"`
	Rows         int      `json:"rows"`
	SkippedRows  int      `json:"skippedRows"`
	FirstSkipped []string `json:"firstSkipped,omitempty"`
	Warnings     []string `json:"warnings,omitempty"`
}

// NewInput describes a profile source.Open opened with o.
func NewInput(info *source.Info, o source.Options) Input {
	d := Input{Kind: info.Kind, Ref: info.Ref, Path: info.Path, Workload: info.Workload, Rebuild: info.Rebuild}
	if info.Kind == source.KindWorkload || info.Kind == source.KindSpec {
		seed, res := o.Seed, o.Resolution
		d.Seed, d.Resolution = &seed, &res
	}
	if r := info.FiLiP; r != nil {
		d.FiLiP = &FiLiPRead{Layout: r.Layout, Clock: r.Clock.String(), ClockReason: r.ClockReason, Rows: r.Rows,
			SkippedRows: r.SkippedRows, FirstSkipped: r.FirstSkipped, Warnings: r.Warnings}
	}
	return d
}
