package costfit

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/infile"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/profile"
)

// Calibration is what gctune calibrate fitted and states (its --json, beside the profile's
// name and how it was read): the measurement and where it came from, the base cost model, the
// fit, the calibrated coefficients, and the default run simulated with both.
type Calibration struct {
	Records  int      `json:"records"`
	Measured Measured `json:"measured"`
	// MeasuredFrom is the file, or the study and session, the measurement came from.
	MeasuredFrom string  `json:"measuredFrom"`
	Base         string  `json:"base"`
	Fit          *Result `json:"fit"`
	// Coefficients is the calibrated cost model (what -o writes).
	Coefficients heapsim.Cost `json:"coefficients"`
	// Simulated is the default run simulated again with the calibrated cost; BaseSimulated
	// with the base cost.
	Simulated     SimulatedRun `json:"simulated"`
	BaseSimulated SimulatedRun `json:"baseSimulated"`
	// Output is the cost file written, "" for none.
	Output string `json:"output,omitempty"`
}

// SimulatedRun is one simulated default run's times and counts.
type SimulatedRun struct {
	WallSeconds     float64 `json:"wallSeconds"`
	GCSeconds       float64 `json:"gcSeconds"`
	ScavengeSeconds float64 `json:"scavengeSeconds"`
	FullGCSeconds   float64 `json:"fullGCSeconds"`
	Scavenges       int     `json:"scavenges"`
	FullGCs         int     `json:"fullGCs"`
}

// NewSimulatedRun is st's times and counts.
func NewSimulatedRun(st heapsim.Stats) SimulatedRun {
	return SimulatedRun{WallSeconds: st.TotalSeconds, GCSeconds: st.GCSeconds, ScavengeSeconds: st.ScavengeSeconds,
		FullGCSeconds: st.FullGCSeconds, Scavenges: st.Scavenges, FullGCs: st.FullGCs}
}

// FitError is a measurement the cost model cannot be fitted to (Fit's error): the user's to
// fix, unlike a simulation that fails.
type FitError struct{ Err error }

func (e *FitError) Error() string { return e.Err.Error() }
func (e *FitError) Unwrap() error { return e.Err }

// Calibrate fits base, the cost model named baseName, to m, measured (from measuredFrom) on
// the run profile p is of at the VM facts vm (NewBasis, Fit), and simulates the default run
// again with the calibrated cost. A fit the measurement does not allow is a *FitError.
func Calibrate(p *profile.Profile, vm heapsim.Params, base heapsim.Cost, baseName string, m Measured, measuredFrom string) (*Calibration, error) {
	basis, err := NewBasis(p, vm, base)
	if err != nil {
		return nil, err
	}
	res, err := Fit(basis, m)
	if err != nil {
		return nil, &FitError{Err: err}
	}
	st, err := heapsim.Simulate(p, vm, res.Cost)
	if err != nil {
		return nil, fmt.Errorf("simulate with the calibrated cost: %w", err)
	}
	return &Calibration{Records: p.Len(), Measured: m, MeasuredFrom: measuredFrom, Base: baseName, Fit: res,
		Coefficients: res.Cost, Simulated: NewSimulatedRun(st), BaseSimulated: NewSimulatedRun(basis.Stats)}, nil
}

// File is the cost file of the calibration of profile, written by gctune version.
func (c *Calibration) File(profile, version string) (*File, error) {
	f, err := NewFile(c.Fit.Cost)
	if err != nil {
		return nil, err
	}
	m := c.Measured
	f.Profile, f.Measured, f.Base, f.Scales, f.Method = profile, &m, c.Base, &c.Fit.Scales, c.Fit.Method
	f.GctuneVersion = version
	return f, nil
}

// ReadMeasured reads a measured run's JSON file (ParseMeasured: at most 16 MiB), a FIFO or pipe
// as a stream whose wait ctx ends (infile.Do). A file that cannot be opened is an error
// starting "measured ".
func ReadMeasured(ctx context.Context, path string) (Measured, error) {
	var m Measured
	err := infile.Do(ctx, func() error {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("measured %w", err)
		}
		defer f.Close()
		m, err = ParseMeasured(f, path)
		return err
	}, path)
	if err != nil {
		return Measured{}, err
	}
	return m, nil
}

// WriteText writes the calibration of profile as gctune calibrate prints it: where the
// measurement came from, the fit and its scales, the table of the measured, calibrated and
// base runs, the fit's notes, and the cost file written (or how to write one).
func (c *Calibration) WriteText(w io.Writer, profile string) error {
	ew := errwriter.New(w)
	ew.Printf("%s at the default GC parameters (%s records), measured: %s\n", termtext.Quote(profile), numfmt.Count(c.Records), termtext.Safe(c.MeasuredFrom))
	ew.Printf("fit: %s\n", c.Fit.Method)
	s := c.Fit.Scales
	ew.Printf("scales against the %s cost model: mutator %.4g, scavenge %.4g, full GC %.4g\n\n", termtext.Safe(c.Base), s.Mutator, s.Scavenge, s.FullGC)
	m := c.Measured
	opt := func(v *float64) string {
		if v == nil {
			return "—"
		}
		return numfmt.SecondsText(*v)
	}
	optN := func(v *int64) string {
		if v == nil {
			return "—"
		}
		return strconv.FormatInt(*v, 10)
	}
	gc := "—"
	if v, ok := m.GC(); ok {
		gc = numfmt.SecondsText(v)
	}
	sim, base := c.Simulated, c.BaseSimulated
	rows := [][4]string{
		{"", "measured", "calibrated", termtext.Safe(c.Base)},
		{"wall time", numfmt.SecondsText(m.WallSeconds), numfmt.SecondsText(sim.WallSeconds), numfmt.SecondsText(base.WallSeconds)},
		{"GC time", gc, numfmt.SecondsText(sim.GCSeconds), numfmt.SecondsText(base.GCSeconds)},
		{"scavenge time", opt(m.ScavengeSeconds), numfmt.SecondsText(sim.ScavengeSeconds), numfmt.SecondsText(base.ScavengeSeconds)},
		{"full GC time", opt(m.FullGCSeconds), numfmt.SecondsText(sim.FullGCSeconds), numfmt.SecondsText(base.FullGCSeconds)},
		{"scavenges", optN(m.Scavenges), strconv.Itoa(sim.Scavenges), strconv.Itoa(base.Scavenges)},
		{"full GCs", optN(m.FullGCs), strconv.Itoa(sim.FullGCs), strconv.Itoa(base.FullGCs)},
	}
	var wid [4]int
	for _, r := range rows {
		for i, cell := range r {
			wid[i] = max(wid[i], len([]rune(cell)))
		}
	}
	for _, r := range rows {
		ew.Printf("%s  %s  %s  %s\n", termtext.PadRight(r[0], wid[0]), termtext.PadLeft(r[1], wid[1]), termtext.PadLeft(r[2], wid[2]), termtext.PadLeft(r[3], wid[3]))
	}
	ew.Printf("(simulated columns: the profile's default run; the counts are not fitted: they check the mechanics)\n")
	for _, n := range c.Fit.Notes {
		ew.Printf("note: %s\n", n)
	}
	if c.Output != "" {
		out := termtext.Quote(c.Output)
		ew.Printf("wrote %s: use it with --cost %s on optimize, simulate, study create..., or cost: %s in config.yaml\n", out, out, out)
	} else {
		ew.Printf("-o FILE writes the calibrated cost model\n")
	}
	return ew.Err()
}
