package simulate

import (
	"context"
	"fmt"
	"io"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
)

// SampleReport is `gctune sample --json`: the sampled export written and what it holds.
type SampleReport struct {
	Source             string  `json:"source"`
	CSV                string  `json:"csv"`
	Meta               string  `json:"meta"`
	Every              uint64  `json:"every"`
	Phase              uint64  `json:"phase"`
	Seed               uint64  `json:"seed"`
	SamplingRate       float64 `json:"samplingRate"`
	Allocations        uint64  `json:"allocations"`
	Rows               uint64  `json:"rows"`
	AliveAtEnd         uint64  `json:"aliveAtEnd"`
	StartBytes         uint64  `json:"startBytes"`
	EndBytes           uint64  `json:"endBytes"`
	TotalExecutionTime uint64  `json:"totalExecutionTime"`
	TotalScavenges     int     `json:"totalScavenges"`
	TotalFullGCs       int     `json:"totalFullGCs"`
}

// Sample writes p, named ref, as the current FiLiP exporter would have written it had it
// profiled the run at opts.Every (filip.WriteSampleFiles: csvPath and its metadata beside
// it, both or neither), with the GC counts of the run simulated at vm under the built-in cost
// model as the metadata's totalScavenges and totalFullGCs. A done ctx (nil: never) stops it
// before or during the writing with ctx's error; bad options are filip.ErrBadSample.
func Sample(ctx context.Context, ref string, p *profile.Profile, csvPath string, vm heapsim.Params, opts filip.SampleOptions) (*SampleReport, error) {
	st, err := heapsim.Run(p, vm, heapsim.DefaultCost(), heapsim.Options{})
	if err != nil {
		return nil, fmt.Errorf("simulate the VM defaults for totalScavenges: %w", err)
	}
	if ctx != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	opts.Scavenges, opts.FullGCs = st.Scavenges, st.FullGCs
	rep, err := filip.WriteSampleFiles(ctx, p, csvPath, opts)
	if err != nil {
		return nil, err
	}
	return &SampleReport{Source: ref, CSV: csvPath, Meta: filip.SampleMetaPath(csvPath), Every: opts.Every, Phase: opts.Phase, Seed: opts.Seed,
		SamplingRate: rep.SamplingRate, Allocations: rep.Allocations, Rows: rep.Rows, AliveAtEnd: rep.AliveAtEnd,
		StartBytes: rep.StartBytes, EndBytes: rep.EndBytes, TotalExecutionTime: rep.TotalExecutionTime,
		TotalScavenges: st.Scavenges, TotalFullGCs: st.FullGCs}, nil
}

// WriteText says what was written, in two lines.
func (d *SampleReport) WriteText(w io.Writer) error {
	ew := errwriter.New(w)
	count := units.FormatCount
	ew.Printf("wrote %s and %s: %s rows of %s allocations (1/%d, phase %d, seed %d), %s force-finalized at stop\n",
		termtext.Quote(d.CSV), termtext.Quote(d.Meta), count(d.Rows), count(d.Allocations), d.Every, d.Phase, d.Seed, count(d.AliveAtEnd))
	ew.Printf("  parameter 34 from %s to %s (totalExecutionTime %s bytes); totalScavenges %d, totalFullGCs %d (simulated VM defaults)\n",
		count(d.StartBytes), count(d.EndBytes), count(d.TotalExecutionTime), d.TotalScavenges, d.TotalFullGCs)
	return ew.Err()
}
