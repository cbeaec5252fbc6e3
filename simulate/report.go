package simulate

import (
	"errors"
	"io"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/heapsim/eventlog"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/uncertainty"
)

// ErrInput is matched by the errors that are the user's to fix.
var ErrInput = errors.New("bad input to simulate")

// inputError is an error of ErrInput with its own message.
type inputError struct{ msg string }

func (e *inputError) Error() string        { return e.msg }
func (e *inputError) Is(target error) bool { return target == ErrInput }

// Options are what Simulate simulates besides the profile.
type Options struct {
	// Given and Default are the two runs' parameters; Cost the cost model of both.
	Given, Default heapsim.Params
	Cost           heapsim.Cost
	// Pretenure names allocation sites the given run allocates in old space (Pretenure).
	Pretenure []string
	// Replicas, when on (Replicas.Replicas > 0), also judges both configurations on its
	// perturbed replicas of the run, drawn from ReplicaSeed.
	Replicas    uncertainty.Model
	ReplicaSeed uint64
	// Events, when set, writes the given run's event log: it is called with the function that
	// writes the log, as outfile.Write calls its writer, and its error is an *EventLogError.
	Events func(write func(io.Writer) error) error
}

// Report is `gctune simulate --json`: the profile, the two runs and the speedup.
type Report struct {
	Input   study.Input       `json:"input"`
	Profile study.ProfileInfo `json:"profile"`
	Records int               `json:"records"`
	Default Run               `json:"default"`
	Given   Run               `json:"given"`
	// Speedup is the default total time over the given total time.
	Speedup float64 `json:"speedup"`
	// Events is the event log's file (the caller's, when Options.Events wrote it).
	Events string `json:"events,omitempty"`
	// Replicas is the two configurations on perturbed replicas of the run (Options.Replicas).
	Replicas *objective.Spread `json:"replicas,omitempty"`
	// Pretenured says which sites the given run pretenured (Options.Pretenure).
	Pretenured *Pretenured `json:"pretenured,omitempty"`
}

// Run is one simulated run.
type Run struct {
	Params     heapsim.Params `json:"params"`
	Layout     heapsim.Layout `json:"layout"`
	Survivors  uint64         `json:"survivorsToKeep"`
	Proportion float64        `json:"tenuringProportion"`
	Stats      heapsim.Stats  `json:"stats"`
	// Error is set when the run failed (out of memory with a maximum old space).
	Error string `json:"error,omitempty"`
}

// EventLogError is Simulate's error when Options.Events failed: the event log could not be
// written.
type EventLogError struct{ Err error }

func (e *EventLogError) Error() string { return e.Err.Error() }
func (e *EventLogError) Unwrap() error { return e.Err }

// Simulate simulates p, opened by source.Open as info with open, at o.Given and o.Default
// once each (and on o.Replicas), and describes both runs. A run that fails (out of memory)
// is described with its error; the speedup is then 0.
func Simulate(p *profile.Profile, info *source.Info, open source.Options, o Options) (*Report, error) {
	r := &Report{Input: study.NewInput(info, open), Profile: study.NewProfileInfo(info, p), Records: p.Len()}
	given := p
	if len(o.Pretenure) > 0 {
		var err error
		if given, r.Pretenured, err = Pretenure(p, o.Pretenure); err != nil {
			return nil, err
		}
	}
	run := func(q *profile.Profile, params heapsim.Params, opts heapsim.Options) Run {
		st, err := heapsim.Run(q, params, o.Cost, opts)
		d := Run{Params: params, Layout: heapsim.ComputeLayout(params), Survivors: params.SurvivorsToKeep(),
			Proportion: params.TenuringProportion(), Stats: st}
		if err != nil {
			d.Error = err.Error()
		}
		return d
	}
	r.Default = run(p, o.Default, heapsim.Options{})
	if o.Events != nil {
		err := o.Events(func(f io.Writer) error {
			log, err := eventlog.NewWriter(f)
			if err != nil {
				return err
			}
			r.Given = run(given, o.Given, heapsim.Options{OnEvent: log.Add})
			return log.Flush()
		})
		if err != nil {
			return nil, &EventLogError{Err: err}
		}
	} else {
		r.Given = run(given, o.Given, heapsim.Options{})
	}
	if r.Default.Error == "" && r.Given.Error == "" && r.Given.Stats.TotalSeconds > 0 {
		r.Speedup = r.Default.Stats.TotalSeconds / r.Given.Stats.TotalSeconds
	}
	if o.Replicas.Replicas > 0 {
		var err error
		if r.Replicas, err = objective.JudgeSpread(r.Input.Ref, p, o.Cost, o.Default, o.Given, o.Replicas, o.ReplicaSeed); err != nil {
			return nil, err
		}
	}
	return r, nil
}
